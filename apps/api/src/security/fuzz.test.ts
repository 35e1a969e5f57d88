// Property-based fuzzing of every API route through app.inject: FUZZ_RUNS (10,000 by default) generated and
// mutated requests — wrong types, huge and unicode strings, nested junk, missing and extra fields, bad ids,
// broken JSON — must never get a 5xx, must get the JSON error format when refused, and a refused request must
// not write a row.
import fc from "fast-check";
import type { InjectOptions } from "fastify";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";
import { adminToken, bearer, registerStudent, seedQuestions, studentInput } from "../test/fixtures.ts";

const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const KNOWN_KEYS = [
  "username",
  "password",
  "name",
  "email",
  "phone",
  "usnNo",
  "college",
  "course",
  "group",
  "year",
  "text",
  "category",
  "difficulty",
  "options",
  "isCorrect",
  "answers",
  "questionId",
  "optionId",
  "position",
  "usnNumber",
  "emailId",
  "section",
  "batch",
  "feedback",
  "subject",
  "message",
  "hidden",
  "timeMultiplier",
  "currentPassword",
  "newPassword",
  "limit",
  "page",
  "pageSize",
  "search",
  "__proto__",
  "constructor",
];

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 50 }),
  fc.string({ minLength: 5_000, maxLength: 20_000 }),
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
  fc.boolean(),
  fc.constant(null),
);

const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, nasty, fc.array(tie("value"), { maxLength: 4 }), tie("object")),
  object: fc.dictionary(fc.oneof(fc.constantFrom(...KNOWN_KEYS), fc.string()), tie("value"), { maxKeys: 6 }),
})).value;

const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...KNOWN_KEYS), value, { maxKeys: 10 }),
  value,
  // Mostly valid registrations with some fields missing or replaced.
  fc
    .subarray(Object.entries(studentInput()))
    .chain((entries) =>
      fc
        .dictionary(fc.constantFrom(...KNOWN_KEYS), value, { maxKeys: 3 })
        .map((extra) => ({ ...Object.fromEntries(entries), ...extra })),
    ),
);

const idSegment = fc.oneof(
  fc.uuid(),
  nasty.map((raw) => encodeURIComponent(String(raw)).slice(0, 300)),
);
const query = fc.dictionary(
  fc.constantFrom("limit", "page", "pageSize", "search", "category", "difficulty", "x"),
  nasty.map(String),
  {
    maxKeys: 3,
  },
);

describe("fuzzing every route", async () => {
  const { app, database } = await createTestApp();
  await seedQuestions(database.db, 5);
  const admin = bearer(await adminToken(app, database.db));
  const student = bearer((await registerStudent(app)).token);
  await app.inject({ method: "GET", url: "/api/quiz/questions", headers: student });
  const routes = app.apiRoutes;
  const runsPerRoute = Math.ceil(TOTAL_RUNS / routes.length);

  async function rowCount(): Promise<number> {
    const { rows } = await database.pool.query(`
      select (select count(*) from admins) + (select count(*) from students) + (select count(*) from questions)
        + (select count(*) from question_options) + (select count(*) from attempts) + (select count(*) from feedback)
        + (select count(*) from contact_enquiries) + (select count(*) from app_settings) as total`);
    return Number(rows[0].total);
  }

  let sent = 0;
  for (const route of routes) {
    it(`${route.method} ${route.url}`, { timeout: 300_000 }, async () => {
      const writes = route.method !== "GET";
      await fc.assert(
        fc.asyncProperty(
          idSegment,
          query,
          body,
          fc.constantFrom("none", "student", "admin"),
          fc.constantFrom("json", "broken-json", "csv", "none"),
          async (id, search, payload, caller, encoding) => {
            const url = `${route.url.replace(":id", id)}?${new URLSearchParams(search)}`;
            const headers: Record<string, string> =
              caller === "admin" ? { ...admin } : caller === "student" ? { ...student } : {};
            const request: InjectOptions = { method: route.method as "GET", url, headers };
            if (writes && encoding === "json") request.payload = JSON.stringify(payload) ?? "null";
            if (writes && encoding === "broken-json") request.payload = `{"a": ${JSON.stringify(payload)}`;
            if (writes && encoding === "csv") request.payload = String(JSON.stringify(payload));
            if (writes && encoding !== "none")
              headers["content-type"] = encoding === "csv" ? "text/csv" : "application/json";
            const before = writes ? await rowCount() : 0;
            const response = await app.inject(request);
            sent++;
            expect(response.statusCode, `${route.method} ${url}`).toBeLessThan(500);
            if (response.statusCode >= 400) {
              const error = response.json();
              expect(typeof error.error).toBe("string");
              expect(typeof error.message).toBe("string");
              expect(error.statusCode).toBe(response.statusCode);
              expect(response.body).not.toMatch(/\bat .+\.(ts|js):\d+/);
              if (writes && ![401, 403, 429].includes(response.statusCode)) expect(await rowCount()).toBe(before);
            }
          },
        ),
        { numRuns: runsPerRoute },
      );
    });
  }

  it(`sent at least ${TOTAL_RUNS} requests`, () => {
    expect(sent).toBeGreaterThanOrEqual(TOTAL_RUNS);
  });
});
