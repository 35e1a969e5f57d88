// The tests and drives tables: a page and its total in one answer, search with LIKE's wildcards taken literally,
// the drive's state and test as filters, sorts, a page past the end, and the small pickers the forms use. The
// drive's state is a rule written twice (in TypeScript for one drive, in SQL for the filter): a property test
// runs both on generated drives.

import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { drives } from "../../db/schema.ts";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer } from "../../test/fixtures.ts";
import { driveStatusSql } from "./repository.ts";
import { driveStatus } from "./window.ts";

describe("tests and drives tables", async () => {
  const { app, database } = await createTestApp();
  const auth = bearer(await adminToken(app, database.db));
  const pool = database.pool;

  const testIds: Record<string, string> = {};
  for (const [index, name] of ["Aptitude 100% basics", "Coding_round", "Verbal warm-up"].entries()) {
    const { rows } = await pool.query<{ id: string }>(
      `insert into tests (name, question_count, seconds_per_question, created_at)
       values ($1, 10, 30, now() - make_interval(days => $2)) returning id`,
      [name, 10 - index],
    );
    testIds[name] = rows[0]?.id as string;
  }
  await pool.query(
    "insert into tests (name, question_count, seconds_per_question, archived_at) values ('Old test', 5, 30, now())",
  );
  const aptitude = testIds["Aptitude 100% basics"] as string;
  const coding = testIds.Coding_round as string;
  const drive = async (name: string, testId: string, times: string, days: number) =>
    pool.query(
      `insert into drives (test_id, name, organisation, code, opens_at, closes_at, closed_at, created_at)
       select $1, $2, 'Hillside', $3, o, c, x, now() - make_interval(days => $4) from (select ${times}) as t(o, c, x)`,
      [testId, name, `CODE${days}X`, days],
    );
  await drive("Hillside open", aptitude, "null::timestamptz, now() + interval '1 day', null::timestamptz", 5);
  await drive("Lakeview scheduled", aptitude, "now() + interval '1 day', null::timestamptz, null::timestamptz", 4);
  await drive("Riverbank past", coding, "null::timestamptz, now() - interval '1 hour', null::timestamptz", 3);
  await drive("Summit closed_early", coding, "null::timestamptz, null::timestamptz, now()", 2);

  const get = async (url: string) => {
    const response = await app.inject({ method: "GET", url, headers: auth });
    return { status: response.statusCode, body: response.json() };
  };
  const names = (body: { rows: { name: string }[] }) => body.rows.map((row) => row.name);

  it("pages the current tests newest first with the total; searches literally; sorts by name", async () => {
    const first = await get("/api/tests/table?pageSize=2");
    expect(first.status).toBe(200);
    // The default test (made at start) and the three above; the archived one is left out.
    expect(first.body).toMatchObject({ total: 4, page: 1, pageSize: 2 });
    expect(first.body.rows).toHaveLength(2);
    expect(first.body.rows[0]).toMatchObject({ name: expect.any(String), available: expect.any(Number) });
    expect(names((await get("/api/tests/table?search=%25")).body)).toEqual(["Aptitude 100% basics"]);
    expect(names((await get("/api/tests/table?search=_")).body)).toEqual(["Coding_round"]);
    const past = await get("/api/tests/table?page=9");
    expect(past.body).toMatchObject({ rows: [], total: 4, page: 9 });
  });

  it("sorts tests by name in both directions", async () => {
    const ascending = names((await get("/api/tests/table?sort=name&order=asc")).body);
    expect(ascending).toEqual([...ascending].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(ascending).toContain("Verbal warm-up");
    expect(names((await get("/api/tests/table?sort=name&order=desc")).body)).toEqual([...ascending].reverse());
  });

  it("filters drives by state and by test, searches name or college, and pages them", async () => {
    const open = names((await get("/api/drives/table?state=open&search=hillside")).body);
    expect(open).toEqual(["Hillside open"]);
    expect(names((await get("/api/drives/table?state=scheduled")).body)).toEqual(["Lakeview scheduled"]);
    expect(names((await get("/api/drives/table?state=closed&sort=name&order=asc")).body)).toEqual([
      "Riverbank past",
      "Summit closed_early",
    ]);
    expect(names((await get(`/api/drives/table?testId=${coding}&sort=date&order=asc`)).body)).toEqual([
      "Riverbank past",
      "Summit closed_early",
    ]);
    expect(names((await get("/api/drives/table?search=_")).body)).toEqual(["Summit closed_early"]);
    const page = await get("/api/drives/table?pageSize=2&page=2");
    // Four drives above and the default drive.
    expect(page.body).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(page.body.rows[0]).toMatchObject({ testName: expect.any(String), students: 0, status: expect.any(String) });
  });

  it("sorts drives by opening time with drives that open at once last", async () => {
    const rows = (await get("/api/drives/table?sort=opens&order=asc")).body.rows as { name: string }[];
    expect(rows[0]?.name).toBe("Lakeview scheduled");
  });

  it("refuses values outside the table's choices with 400", async () => {
    for (const query of ["state=gone", "sort=code", "testId=7", "pageSize=1000", "search=%00"]) {
      const response = await get(`/api/drives/table?${query}`);
      expect(response.status, query).toBe(400);
    }
  });

  it("lists current tests (with their sections' names) and drives for pickers, by name only", async () => {
    const tests = (await get("/api/tests/choices")).body as { _id: string; name: string; questionCount: number }[];
    expect(tests.map((test) => test.name)).not.toContain("Old test");
    expect(tests.find((test) => test._id === aptitude)).toEqual({
      _id: aptitude,
      name: "Aptitude 100% basics",
      questionCount: 10,
      sectionNames: [],
    });
    const choices = (await get("/api/drives/choices")).body as { _id: string; name: string }[];
    expect(choices).toHaveLength(5);
    expect(Object.keys(choices[0] ?? {})).toEqual(["_id", "name"]);
  });

  it("computes a drive's state in SQL exactly as driveStatus does", async () => {
    const now = new Date("2026-11-24T10:00:00.000Z");
    const moment = fc.option(
      fc.integer({ min: -3, max: 3 }).map((hours) => new Date(now.getTime() + hours * 3_600_000)),
      { nil: null },
    );
    await fc.assert(
      fc.asyncProperty(moment, moment, moment, async (opensAt, closesAt, closedAt) => {
        const { rows } = await database.db.execute<{ status: string }>(
          sql`select ${driveStatusSql(sql`${now.toISOString()}::timestamptz`)} as status
              from (select ${opensAt?.toISOString() ?? null}::timestamptz as opens_at,
                           ${closesAt?.toISOString() ?? null}::timestamptz as closes_at,
                           ${closedAt?.toISOString() ?? null}::timestamptz as closed_at) as ${drives}`,
        );
        expect(rows[0]?.status).toBe(driveStatus({ opensAt, closesAt, closedAt }, now));
      }),
      { numRuns: 60 },
    );
  });
});
