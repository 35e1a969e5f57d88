// Every value a route's schemas take, found by walking the route table: each text refuses control characters
// and broken Unicode and has a length limit; each number has bounds a PostgreSQL integer holds. A new route or
// field that forgets one fails here, before any fuzzing has to stumble on it.
import { describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";
import { watchedLog } from "../test/log-watch.ts";
import { inputsOf, type SchemaLeaf } from "../test/route-schemas.ts";

/** Values that are not text fields, with the reason. */
const NOT_TEXT_FIELDS: Record<string, string> = {
  // A whole file, bounded by the route's body limit; every cell is checked by the question schema.
  "POST /api/questions/import body": "CSV file",
  // The same file, read without writing: its questions pass the same checks.
  "POST /api/questions/import/preview body": "CSV, GIFT, Aiken or Moodle XML file",
  // A whole file too; the roster parser refuses control characters in its cells itself.
  "PUT /api/drives/:id/roster body": "CSV file",
};

describe("the route table's input schemas", async () => {
  const { app } = await createTestApp({ logStream: watchedLog() });
  const leaves = app.apiRoutes.flatMap((route) => {
    const inputs = inputsOf(route);
    const name = (where: string, leaf: SchemaLeaf) => `${route.method} ${route.url} ${leaf.path.join(".") || where}`;
    return [
      ...inputs.body.map((leaf) => ({ name: name("body", leaf), leaf })),
      ...inputs.query.map((leaf) => ({ name: name("query", leaf), leaf })),
      ...inputs.params.map((leaf) => ({ name: name("params", leaf), leaf })),
    ];
  });
  const texts = leaves.filter(({ name, leaf }) => leaf.kind === "string" && !NOT_TEXT_FIELDS[name]);
  const numbers = leaves.filter(({ leaf }) => leaf.kind === "number");

  it("finds the fields of every feature", () => {
    const names = leaves.map(({ name }) => name);
    for (const expected of [
      "POST /api/auth/student/register name",
      "GET /api/students search",
      "GET /api/questions page",
      "POST /api/quiz/next position",
      "PUT /api/students/:id/time-multiplier timeMultiplier",
      "POST /api/questions options.0.text",
      "GET /api/tests/table search",
      "GET /api/drives/table search",
      "GET /api/drives/table testId",
      "GET /api/feedback/export.csv batch",
      "GET /api/contact/export.csv search",
      "POST /api/downloads query",
    ]) {
      expect(names).toContain(expected);
    }
  });

  it.each(texts.map(({ name, leaf }) => [name, leaf] as const))("%s refuses control characters", (_name, leaf) => {
    for (const character of ["\u0000", "\u0001", "\u001b", "\u007f", "\u0085", "\u000b", "\r"]) {
      expect(leaf.schema.safeParse(`Asha${character}Rao`).success, JSON.stringify(character)).toBe(false);
    }
  });

  it.each(texts.map(({ name, leaf }) => [name, leaf] as const))("%s refuses lone surrogates", (_name, leaf) => {
    for (const broken of ["Asha\ud800", "\udc00Asha", "As\ud83dha"]) {
      expect(leaf.schema.safeParse(broken).success, JSON.stringify(broken)).toBe(false);
    }
  });

  it.each(texts.map(({ name, leaf }) => [name, leaf] as const))(
    "%s refuses invisible and direction-changing characters",
    (_name, leaf) => {
      for (const character of ["\u202e", "\u202a", "\u2066", "\u2069", "\u200b", "\u2060", "\ufeff"]) {
        expect(leaf.schema.safeParse(`Asha${character}Rao`).success, JSON.stringify(character)).toBe(false);
      }
    },
  );

  it.each(texts.map(({ name, leaf }) => [name, leaf] as const))("%s has a length limit", (_name, leaf) => {
    expect(leaf.schema.safeParse("a".repeat(100_000)).success).toBe(false);
  });

  it.each(numbers.map(({ name, leaf }) => [name, leaf] as const))(
    "%s refuses numbers past a PostgreSQL integer",
    (_name, leaf) => {
      for (const value of [2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1e308, -1e308, "2147483648", "-2147483649", "1e309"]) {
        expect(leaf.schema.safeParse(value).success, String(value)).toBe(false);
      }
    },
  );
});
