// The admin tables: one page per query with the total, search by name/USN/e-mail with LIKE's wildcards taken
// literally, filters, sorts, a page past the end, hostile values refused, and exports that honour the filters.
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, studentInput } from "../../test/fixtures.ts";
import { insertStudent } from "./repository.ts";

describe("admin tables", async () => {
  const { app, database } = await createTestApp();
  const auth = bearer(await adminToken(app, database.db));
  const pool = database.pool;
  const defaultDrive = (await pool.query<{ id: string }>("select id from drives where is_default")).rows[0]?.id ?? "";
  const testId = (await pool.query<{ id: string }>("select id from tests where is_default")).rows[0]?.id ?? "";
  const otherDrive = (
    await pool.query<{ id: string }>(
      `insert into drives (test_id, name, organisation, batch, code) values ($1, 'Hillside drive', 'Hillside', '2026', 'HILL26')
       returning id`,
      [testId],
    )
  ).rows[0]?.id as string;

  // Names chosen so that LIKE wildcards typed in a search would match more than they should.
  const people = [
    { name: "Ana 100% Sharma", college: "Hillside College", drive: otherDrive, score: 9, passed: true },
    { name: "Ben_Thomas", college: "Hillside College", drive: otherDrive, score: 3, passed: false },
    { name: "Chitra Back\\slash", college: "Lakeview Institute", drive: defaultDrive, score: 20, passed: true },
    { name: "Dev Rao", college: "Lakeview Institute", drive: defaultDrive, score: 12, passed: null },
    { name: "Esha Iyer", college: "Riverbank College", drive: defaultDrive, score: 25, passed: true },
  ];
  const ids: Record<string, string> = {};
  for (const [index, person] of people.entries()) {
    const student = await insertStudent(database.db, {
      ...studentInput({ name: person.name, college: person.college, usnNo: `1TW24CS9${index}` }),
      driveId: person.drive,
      resumeCodeHash: "",
      registrationKeyHash: null,
    });
    ids[person.name] = student.id;
    await pool.query(`update students set created_at = now() - make_interval(days => $2) where id = $1`, [
      student.id,
      10 - index,
    ]);
    await pool.query(
      `insert into attempts (student_id, drive_id, deadline_at, seconds_per_question, total_questions, timing_mode,
         paced, review_policy, submitted_at, score, marks, passed)
       values ($1, $2, now(), 30, 25, 'per_question', false, 'score_and_ticks', now() - make_interval(hours => $3),
         $4::int, $4::real, $5::boolean)`,
      [student.id, person.drive, 10 - index, person.score, person.passed],
    );
  }

  const get = async (url: string) => {
    const response = await app.inject({ method: "GET", url, headers: auth });
    const json = String(response.headers["content-type"]).startsWith("application/json");
    return { status: response.statusCode, body: json ? response.json() : undefined, raw: response };
  };
  const names = (body: { rows: { name?: string; studentName?: string }[] }) =>
    body.rows.map((row) => row.name ?? row.studentName);

  it("pages students newest first with the total of all matches", async () => {
    const first = await get("/api/students/table?pageSize=2");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect(names(first.body)).toEqual(["Esha Iyer", "Dev Rao"]);
    const last = await get("/api/students/table?pageSize=2&page=3");
    expect(names(last.body)).toEqual(["Ana 100% Sharma"]);
    expect(last.body.total).toBe(5);
    const beyond = await get("/api/students/table?pageSize=2&page=9");
    expect(beyond.body).toMatchObject({ rows: [], total: 5, page: 9 });
    expect(first.body.rows[0]).toMatchObject({ usnNo: "1TW24CS94", college: "Riverbank College", attemptsUsed: 1 });
  });

  it("searches name, USN and e-mail, taking % _ and \\ literally", async () => {
    expect(names((await get("/api/students/table?search=100%25")).body)).toEqual(["Ana 100% Sharma"]);
    expect(names((await get("/api/students/table?search=%25")).body)).toEqual(["Ana 100% Sharma"]);
    expect(names((await get("/api/students/table?search=_")).body)).toEqual(["Ben_Thomas"]);
    expect(names((await get("/api/students/table?search=%5C")).body)).toEqual(["Chitra Back\\slash"]);
    expect(names((await get("/api/students/table?search=1tw24cs93")).body)).toEqual(["Dev Rao"]);
    const byEmail = await get(`/api/students/table?search=${encodeURIComponent("@example.com")}`);
    expect(byEmail.body.total).toBe(5);
  });

  it("filters students by drive and college and sorts them by name", async () => {
    const hillside = await get(`/api/students/table?driveId=${otherDrive}&sort=name&order=asc`);
    expect(names(hillside.body)).toEqual(["Ana 100% Sharma", "Ben_Thomas"]);
    const lakeview = await get("/api/students/table?college=lakeview&sort=name&order=desc");
    expect(names(lakeview.body)).toEqual(["Dev Rao", "Chitra Back\\slash"]);
  });

  it("lists results with USN, college, drive and test; sorts by score; filters by pass/fail, drive, test and college", async () => {
    const byScore = await get("/api/students/results/table?sort=score&order=desc");
    expect(byScore.status).toBe(200);
    expect(names(byScore.body)).toEqual([
      "Esha Iyer",
      "Chitra Back\\slash",
      "Dev Rao",
      "Ana 100% Sharma",
      "Ben_Thomas",
    ]);
    expect(byScore.body.rows[0]).toMatchObject({
      usnNo: "1TW24CS94",
      college: "Riverbank College",
      score: 25,
      totalQuestions: 25,
      percentage: 100,
      passed: true,
    });
    expect(byScore.body.rows[0].driveName).toBeTruthy();
    expect(byScore.body.rows[0].testName).toBeTruthy();
    expect(names((await get("/api/students/results/table?outcome=fail")).body)).toEqual(["Ben_Thomas"]);
    expect(names((await get("/api/students/results/table?outcome=pass&sort=name&order=asc")).body)).toEqual([
      "Ana 100% Sharma",
      "Chitra Back\\slash",
      "Esha Iyer",
    ]);
    expect((await get(`/api/students/results/table?driveId=${otherDrive}`)).body.total).toBe(2);
    expect((await get(`/api/students/results/table?testId=${testId}`)).body.total).toBe(5);
    expect((await get("/api/students/results/table?college=riverbank")).body.total).toBe(1);
    expect(names((await get("/api/students/results/table?search=_")).body)).toEqual(["Ben_Thomas"]);
    const newest = await get("/api/students/results/table?pageSize=1");
    expect(names(newest.body)).toEqual(["Esha Iyer"]);
    expect(newest.body.total).toBe(5);
  });

  it("refuses bad paging, sorting and filter values with a readable 400", async () => {
    for (const query of [
      "page=0",
      "pageSize=101",
      "page=2147483648",
      "sort=password",
      "order=sideways",
      "driveId=not-an-id",
      "outcome=maybe",
      "search=%00",
      `search=${"a".repeat(201)}`,
    ]) {
      const response = await get(`/api/students/results/table?${query}`);
      expect(response.status, query).toBe(400);
      expect(typeof response.body.error, query).toBe("string");
    }
  });

  it("the original lists answer as before when no paging is asked for", async () => {
    const students = await get("/api/students");
    expect(Array.isArray(students.body)).toBe(true);
    expect(students.body).toHaveLength(5);
    const results = await get("/api/students/results/all");
    expect(results.body).toHaveLength(5);
    expect(Object.keys(results.body[0]).sort()).toEqual([
      "_id",
      "score",
      "studentName",
      "submittedAt",
      "totalQuestions",
    ]);
  });

  it("exports only what the filters match, with the header first", async () => {
    const all = parse((await get("/api/students/results/export.csv")).raw.body, { columns: true }) as Record<
      string,
      string
    >[];
    expect(all).toHaveLength(5);
    const failed = parse((await get("/api/students/results/export.csv?outcome=fail")).raw.body, {
      columns: true,
    }) as Record<string, string>[];
    expect(failed.map((row) => row.Student)).toEqual(["Ben_Thomas"]);
    expect(failed[0]).toMatchObject({ USN: "1TW24CS91", College: "Hillside College", Result: "Fail" });
    const students = parse((await get("/api/students/export.csv?search=%25")).raw.body, { columns: true }) as Record<
      string,
      string
    >[];
    expect(students.map((row) => row.Name)).toEqual(["Ana 100% Sharma"]);
  });

  it("the dashboard answers counts, the spread of scores and the drives open now", async () => {
    const dashboard = await get("/api/dashboard");
    expect(dashboard.status).toBe(200);
    expect(dashboard.body).toMatchObject({ students: 5, submitted: 5 });
    expect(dashboard.body.distribution.map((bucket: { count: number }) => bucket.count)).toEqual([1, 1, 1, 0, 2]);
    expect(dashboard.body.openDrives.map((drive: { name: string }) => drive.name)).toContain("Hillside drive");
    const hillside = dashboard.body.openDrives.find((drive: { name: string }) => drive.name === "Hillside drive");
    expect(hillside).toMatchObject({ students: 2, submitted: 2 });
  });

  it("exports marks, and the percentage from marks as the table shows it, after negative marking", async () => {
    // Ana answered 9 right and lost half a mark to a wrong answer.
    await pool.query("update attempts set marks = 8.5 where student_id = $1", [ids["Ana 100% Sharma"]]);
    const table = await get("/api/students/results/table?search=Ana");
    expect(table.body.rows[0]).toMatchObject({ score: 9, marks: 8.5, percentage: 34 });
    const exported = parse((await get("/api/students/results/export.csv?search=Ana")).raw.body, {
      columns: true,
    }) as Record<string, string>[];
    expect(exported[0]).toMatchObject({ "Right answers": "9", Marks: "8.5", Questions: "25", "Score (%)": "34.00" });
  });
});
