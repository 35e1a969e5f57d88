// Property-based fuzzing of every API route through app.inject, FUZZ_RUNS (10,000 by default) requests of each of
// two kinds:
// - junk: generated and mutated requests — wrong types, huge and unicode strings, nested junk, missing and extra
//   fields, bad ids, broken JSON — from any kind of caller;
// - hostile values: a valid request from the right caller with one field, query parameter or id replaced by a
//   string from the whole Unicode range (control characters, lone surrogates, very long), or a number at or past
//   an integer bound (2^31 - 1, 2^31, -2^31 - 1, 2^53, 1e308) or a string that almost is one ("NaN", "1e309").
// The routes, their body fields and their query parameters come from the app's route table and zod schemas, so
// a new route or field is fuzzed without being listed. Never a 5xx; a refusal has the JSON error format and
// writes no row.
import { QUESTION_CSV_COLUMNS } from "@trainwise/contract/questions";
import fc from "fast-check";
import type { InjectOptions } from "fastify";
import { describe, expect, it } from "vitest";
import type { ApiRoute } from "../app.ts";
import { createTestApp } from "../test/app.ts";
import { injectHeadOfStreams } from "../test/event-stream.ts";
import { adminToken, bearer, registerStudent, seedQuestions, studentInput } from "../test/fixtures.ts";
import { watchedLog } from "../test/log-watch.ts";
import { EXAMPLES, SOME_ID } from "../test/request-examples.ts";
import { inputsOf, type SchemaLeaf } from "../test/route-schemas.ts";

const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);

// ---- hostile strings and numbers ----

const controlCharacter = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f), fc.integer({ min: 0x80, max: 0x9f }))
  .map((code) => String.fromCharCode(code));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const anyCodePoint = fc
  .integer({ min: 0, max: 0x10ffff })
  .map((code) => (code >= 0xd800 && code <= 0xdfff ? String.fromCharCode(code) : String.fromCodePoint(code)));
const hostileCharacter = fc.oneof(
  anyCodePoint,
  controlCharacter,
  loneSurrogate,
  fc.constantFrom("\u202e", "\ufeff", "\u2028", "\ufffe", "\uffff", "\u200b", "'", '"', "\\", "%", "_"),
);
const hostileString = fc.oneof(
  fc.string({ unit: hostileCharacter, maxLength: 40 }),
  // A plausible value with one bad character in it, so every other rule of the field is met.
  fc
    .tuple(
      fc.constantFrom("Asha", "asha@example.com", "9876543210", "2025", "Aptitude", "1TW24CS001", "easy"),
      hostileCharacter,
      fc.nat(12),
    )
    .map(([text, character, at]) => text.slice(0, at) + character + text.slice(at)),
  fc
    .tuple(fc.integer({ min: 5_000, max: 300_000 }), hostileCharacter)
    .map(([length, character]) => `${"a".repeat(length)}${character}`),
  fc.constantFrom("", " ", "\u0000", "a\u0000b", "\ud800", "\udc00x", "'; drop table students; --", "NaN"),
);
const INTEGER_BOUNDS = [
  0,
  -0,
  1,
  -1,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  -(2 ** 31) - 1,
  2 ** 32,
  99_999_999_999,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  0.5,
  1e-7,
];
const boundaryNumber = fc.oneof(fc.constantFrom(...INTEGER_BOUNDS), fc.integer(), fc.double());
const numberishString = fc.constantFrom(
  "2147483647",
  "2147483648",
  "-2147483648",
  "-2147483649",
  "9007199254740993",
  "1e308",
  "1e309",
  "-1e309",
  "NaN",
  "Infinity",
  "-Infinity",
  "0x7fffffff",
  "1_000",
  "1.5",
  " 1",
  "-0",
  "00000000001",
  "",
);

/** A value for one field: mostly of the field's own kind, sometimes of another. */
function hostileValueFor(kind: SchemaLeaf["kind"]): fc.Arbitrary<unknown> {
  const others = fc.oneof(fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}));
  if (kind === "number")
    return fc.oneof({ weight: 6, arbitrary: boundaryNumber }, numberishString, hostileString, others);
  if (kind === "string")
    return fc.oneof({ weight: 6, arbitrary: hostileString }, boundaryNumber, numberishString, others);
  return fc.oneof(hostileString, boundaryNumber, numberishString, others);
}

/** The same, as it arrives in a query string or a path segment: text, or raw percent-encoded bytes. */
const hostileQueryValue = fc.oneof(
  { weight: 3, arbitrary: hostileString.map((text) => percentEncode(text)) },
  { weight: 2, arbitrary: numberishString.map((text) => percentEncode(text)) },
  { weight: 2, arbitrary: fc.constantFrom(...INTEGER_BOUNDS).map(String) },
  fc.constantFrom("%00", "%ED%A0%80", "%FF", "%C0%80", "%E2%80%AE", "%F4%90%80%80", "%", "%%", "%u0000", "%0A%0D", "+"),
);

/** Percent-encodes like a browser would, and a lone surrogate as the bytes a careless encoder would send. */
function percentEncode(text: string): string {
  let encoded = "";
  for (const character of text) {
    const code = character.charCodeAt(0);
    if (character.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      encoded += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join("");
    } else {
      encoded += encodeURIComponent(character);
    }
  }
  return encoded;
}

type Target = { where: "body" | "query" | "id"; path: string[]; kind: SchemaLeaf["kind"] };

/** Where a hostile value can go in a route: each body field (each column of a CSV), query parameter and id. */
function targetsOf(route: ApiRoute): Target[] {
  const inputs = inputsOf(route);
  return [
    ...(inputs.csv
      ? QUESTION_CSV_COLUMNS.map((column): Target => ({ where: "body", path: [column], kind: "string" }))
      : inputs.body.map((leaf): Target => ({ where: "body", path: leaf.path, kind: leaf.kind }))),
    ...inputs.query.map((leaf): Target => ({ where: "query", path: leaf.path, kind: leaf.kind })),
    ...inputs.params.map((leaf): Target => ({ where: "id", path: leaf.path, kind: leaf.kind })),
  ];
}

function setAt(target: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  let node = target as Record<string, unknown>;
  for (const [index, key] of path.slice(0, -1).entries()) {
    const next = node[key];
    if (next === null || typeof next !== "object") node[key] = /^\d+$/.test(path[index + 1] ?? "") ? [] : {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1] as string] = value;
  return target;
}

function csvOf(row: Record<string, unknown>): string {
  const cell = (value: unknown) => `"${String(value ?? "").replaceAll('"', '""')}"`;
  const columns = Object.keys(row);
  return `${columns.join(",")}\n${columns.map((column) => cell(row[column])).join(",")}\n`;
}

// ---- junk requests, as before ----

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 50 }),
  fc.string({ minLength: 5_000, maxLength: 20_000 }),
  fc.string({ unit: hostileCharacter, maxLength: 30 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "'; drop table students; --",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "%00",
    "NaN",
  ),
  fc.uuid(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(...INTEGER_BOUNDS),
  fc.boolean(),
  fc.constant(null),
);

describe("fuzzing every route", async () => {
  const { app, database } = await createTestApp({ logStream: watchedLog() });
  await seedQuestions(database.db, 5);
  await adminToken(app, database.db);
  const adminId = (await database.pool.query("select id from admins limit 1")).rows[0].id as string;
  // A fresh admin token for every request: a fuzzed logout revokes the token it is sent with.
  const admin = async () => bearer(await app.tokens.issue("admin", adminId));
  const student = bearer((await registerStudent(app)).token);
  await app.inject({ method: "GET", url: "/api/quiz/questions", headers: student });
  const routes = app.apiRoutes;
  const runsPerRoute = Math.ceil(TOTAL_RUNS / routes.length);
  const runsPerTargetedRoute = Math.ceil(TOTAL_RUNS / routes.filter((route) => targetsOf(route).length > 0).length);

  // Every field name and query parameter any schema declares, for the junk requests to use anywhere.
  const declared = routes.map(inputsOf);
  const knownKeys = [
    ...new Set(declared.flatMap((inputs) => [...inputs.body, ...inputs.query].flatMap((leaf) => leaf.path))),
  ].filter((key) => !/^\d+$/.test(key));
  const queryKeys = [...new Set(declared.flatMap((inputs) => inputs.query.map((leaf) => leaf.path[0] ?? "")))];

  const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: "small" }, nasty, fc.array(tie("value"), { maxLength: 4 }), tie("object")),
    object: fc.dictionary(
      fc.oneof(fc.constantFrom(...knownKeys, "__proto__", "constructor"), fc.string()),
      tie("value"),
      {
        maxKeys: 6,
      },
    ),
  })).value;
  const junkBody = fc.oneof(
    fc.dictionary(fc.constantFrom(...knownKeys), value, { maxKeys: 10 }),
    value,
    // Mostly valid registrations with some fields missing or replaced.
    fc
      .subarray(Object.entries(studentInput()))
      .chain((entries) =>
        fc
          .dictionary(fc.constantFrom(...knownKeys), value, { maxKeys: 3 })
          .map((extra) => ({ ...Object.fromEntries(entries), ...extra })),
      ),
  );
  const idSegment = fc.oneof(
    fc.uuid(),
    nasty.map((raw) => percentEncode(String(raw)).slice(0, 300)),
  );
  const junkQuery = fc.dictionary(fc.constantFrom(...queryKeys, "x"), nasty.map(String), { maxKeys: 3 });

  async function rowCount(): Promise<number> {
    const { rows } = await database.pool.query(`
      select (select count(*) from admins) + (select count(*) from students) + (select count(*) from questions)
        + (select count(*) from question_options) + (select count(*) from attempts) + (select count(*) from feedback)
        + (select count(*) from contact_enquiries) + (select count(*) from app_settings)
        + (select count(*) from media) as total`);
    return Number(rows[0].total);
  }

  let sent = 0;
  async function send(request: InjectOptions, writes: boolean) {
    const before = writes ? await rowCount() : 0;
    const response = await injectHeadOfStreams(app, request);
    sent++;
    const label = `${request.method} ${request.url} ${String(request.payload ?? "").slice(0, 200)}`;
    expect(response.statusCode, label).toBeLessThan(500);
    // Every answer, even one the router gives before any hook runs, has the security headers.
    expect(response.headers["x-content-type-options"], label).toBe("nosniff");
    if (response.statusCode >= 400) {
      const error = response.json();
      expect(
        Object.keys(error).filter((key) => !["statusCode", "error", "message", "fields"].includes(key)),
        label,
      ).toEqual([]);
      expect(typeof error.error, label).toBe("string");
      expect(typeof error.message, label).toBe("string");
      expect(error.statusCode, label).toBe(response.statusCode);
      expect(response.body).not.toMatch(/\bat .+\.(ts|js):\d+/);
      if (writes && ![401, 403, 429].includes(response.statusCode)) expect(await rowCount(), label).toBe(before);
    }
  }

  it("has a valid example body for every route that takes one", () => {
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      if (!route.schema?.body) continue;
      const example = route.endpoint && EXAMPLES[route.endpoint];
      expect(example, `add an example body for ${route.endpoint ?? key}`).toBeDefined();
      if (inputsOf(route).csv) continue;
      const parsed = (route.schema.body as { safeParse(value: unknown): { success: boolean } }).safeParse(example?.());
      expect(parsed.success, key).toBe(true);
    }
  });

  for (const route of routes) {
    const key = `${route.method} ${route.url}`;
    const writes = route.method !== "GET";
    const inputs = inputsOf(route);

    it(`${key}: junk requests`, { timeout: 300_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(
          idSegment,
          junkQuery,
          junkBody,
          fc.constantFrom("none", "student", "admin"),
          fc.constantFrom("json", "broken-json", "csv", "none"),
          async (id, search, payload, caller, encoding) => {
            const url = `${route.url.replace(":id", id)}?${new URLSearchParams(search)}`;
            const headers: Record<string, string> =
              caller === "admin" ? await admin() : caller === "student" ? { ...student } : {};
            const request: InjectOptions = { method: route.method as "GET", url, headers };
            if (writes && encoding === "json") request.payload = JSON.stringify(payload) ?? "null";
            if (writes && encoding === "broken-json") request.payload = `{"a": ${JSON.stringify(payload)}`;
            if (writes && encoding === "csv") request.payload = String(JSON.stringify(payload));
            if (writes && encoding !== "none")
              headers["content-type"] = encoding === "csv" ? "text/csv" : "application/json";
            await send(request, writes);
          },
        ),
        { numRuns: runsPerRoute },
      );
    });

    const targets = targetsOf(route);
    if (targets.length === 0) continue;

    it(`${key}: hostile values in ${targets.map((target) => target.path.join(".") || "body").join(", ")}`, {
      timeout: 300_000,
    }, async () => {
      // The caller the route is for, so the value gets past authorization to validation and beyond.
      const probe = await app.inject({ method: route.method as "GET", url: route.url.replace(":id", SOME_ID) });
      const forStudents =
        probe.statusCode === 401 &&
        (await app.inject({ method: route.method as "GET", url: route.url.replace(":id", SOME_ID), headers: student }))
          .statusCode !== 403;
      const target = fc
        .constantFrom(...targets)
        .chain((chosen) =>
          fc.tuple(fc.constant(chosen), chosen.where === "body" ? hostileValueFor(chosen.kind) : hostileQueryValue),
        );
      await fc.assert(
        fc.asyncProperty(target, fc.ipV4(), async ([chosen, hostile], address) => {
          const headers: Record<string, string> =
            probe.statusCode !== 401 ? {} : forStudents ? { ...student } : await admin();
          const id = chosen.where === "id" ? String(hostile) : SOME_ID;
          const query = chosen.where === "query" ? `?${chosen.path[0]}=${String(hostile)}` : "";
          const request: InjectOptions = {
            method: route.method as "GET",
            url: `${route.url.replace(":id", id)}${query}`,
            headers,
            // Each from its own address, so per-address rate limits do not answer before validation does.
            remoteAddress: address,
          };
          const example = route.endpoint && EXAMPLES[route.endpoint]?.();
          if (example !== undefined || chosen.where === "body") {
            const body = chosen.where === "body" ? setAt(example ?? {}, chosen.path, hostile) : example;
            if (inputs.csv) {
              request.payload = csvOf(body as Record<string, unknown>);
              headers["content-type"] = "text/csv";
            } else {
              request.payload = JSON.stringify(body) ?? "null";
              headers["content-type"] = "application/json";
            }
          }
          await send(request, writes);
        }),
        { numRuns: runsPerTargetedRoute },
      );
    });
  }

  it(`sent at least ${TOTAL_RUNS} requests of each kind`, () => {
    expect(sent).toBeGreaterThanOrEqual(2 * TOTAL_RUNS);
  });
});
