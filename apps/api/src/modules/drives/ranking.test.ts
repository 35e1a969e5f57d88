// A drive's ranking and shortlists (issue 26): who ranks where and why, what each cut keeps, the recruiter's CSV per
// college and branch, and that the ranks say they are provisional while an attempt could still move them.
import type { QuizQuestion } from "@trainwise/contract/quiz";
import type { Ranking } from "@trainwise/contract/ranking";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, registerStudent, seedCategory } from "../../test/fixtures.ts";

describe("a drive's ranking and shortlists", async () => {
  const { app, database } = await createTestApp();
  const asAdmin = bearer(await adminToken(app, database.db));
  const asViewer = bearer(await adminToken(app, database.db, "ranking-viewer", "viewer"));
  await seedCategory(database.pool, "Ranking", 3);

  async function driveFor(name: string, passMark: number | null) {
    const test = await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: asAdmin,
      payload: { name, categories: ["Ranking"], questionCount: 3, timingMode: "whole_quiz", passMark },
    });
    expect(test.statusCode, test.body).toBe(201);
    const drive = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: asAdmin,
      payload: { name: `${name} drive`, organisation: "Placement cell", testId: test.json()._id },
    });
    expect(drive.statusCode, drive.body).toBe(201);
    return drive.json() as { _id: string; code: string };
  }

  /**
   * A candidate who answers `right` of the three questions right and the rest wrong, and whose attempt is then
   * set to have taken `seconds` (its start moved back from its submission).
   */
  async function candidate(
    drive: { code: string },
    who: { name: string; college: string; course: string; right: number; seconds: number },
  ) {
    const { token, input } = await registerStudent(app, {
      driveCode: drive.code,
      name: who.name,
      college: who.college,
      course: who.course,
    });
    const served = (
      await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(token) })
    ).json() as QuizQuestion[];
    const answers = served.map((question, index) => ({
      questionId: question._id,
      optionId:
        question.options.find((option) => option.text.startsWith(index < who.right ? "right" : "wrong"))?._id ?? "",
    }));
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(token),
      payload: { answers },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    await database.pool.query(
      `update attempts set started_at = submitted_at - make_interval(secs => $2) where id = $1`,
      [submitted.json().resultId, who.seconds],
    );
    return { token, input, attemptId: submitted.json().resultId as string };
  }

  async function ranking(driveId: string, query = "", headers = asAdmin) {
    const response = await app.inject({ method: "GET", url: `/api/drives/${driveId}/ranking${query}`, headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Ranking;
  }

  const NORTH = "North Campus College";
  const SOUTH = "South Campus College";
  // Asha and Bala tie: the same score, and 100.2 and 100.9 seconds are both 1 min 40 s. Chitra is as right but slower;
  // Dev passes nobody's 70 %; Esha answered nothing right.
  const field = [
    { name: "Asha", college: NORTH, course: "CSE", right: 3, seconds: 100.2 },
    { name: "Bala", college: NORTH, course: "CSE", right: 3, seconds: 100.9 },
    { name: "Chitra", college: SOUTH, course: "CSE", right: 3, seconds: 120 },
    { name: "Dev", college: SOUTH, course: "CSE", right: 2, seconds: 30 },
    { name: "Esha", college: NORTH, course: "ECE", right: 0, seconds: 10 },
  ];
  const placement = await driveFor("Placement round", 70);
  for (const who of field) await candidate(placement, who);

  it("ranks by score, then whole seconds taken, ties sharing a rank, with percentiles by score", async () => {
    const all = await ranking(placement._id);
    expect(all.rows.map((row) => [row.name, row.rank, row.percentile, row.secondsTaken, row.passed])).toEqual([
      ["Asha", 1, "100.00", 100, true],
      ["Bala", 1, "100.00", 100, true],
      ["Chitra", 3, "100.00", 120, true],
      ["Dev", 4, "40.00", 30, false],
      ["Esha", 5, "20.00", 10, false],
    ]);
    expect(all).toMatchObject({ candidates: 5, shortlisted: 5, hasPassMark: true });
    expect(all.rule).toContain("then by less time taken (to the second)");
    expect(all.rows[3]).toMatchObject({ marks: 2, totalQuestions: 3, percentage: "66.67", college: SOUTH });
  });

  it("cuts the shortlist to those who passed, or to the top N with everyone tied at the last rank", async () => {
    const names = (ranked: Ranking) => ranked.rows.map((row) => row.name);
    expect(names(await ranking(placement._id, "?cut=pass"))).toEqual(["Asha", "Bala", "Chitra"]);
    expect(names(await ranking(placement._id, "?cut=top&top=1"))).toEqual(["Asha", "Bala"]);
    expect(names(await ranking(placement._id, "?cut=top&top=2"))).toEqual(["Asha", "Bala"]);
    expect(names(await ranking(placement._id, "?cut=top&top=4"))).toEqual(["Asha", "Bala", "Chitra", "Dev"]);
    const missing = await app.inject({
      method: "GET",
      url: `/api/drives/${placement._id}/ranking?cut=top`,
      headers: asAdmin,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain("Say how many top candidates to keep");
    for (const bad of ["?cut=best", "?cut=top&top=0", "?cut=top&top=2.5", `?college=${"x".repeat(201)}`]) {
      const refused = await app.inject({
        method: "GET",
        url: `/api/drives/${placement._id}/ranking${bad}`,
        headers: asAdmin,
      });
      expect(refused.statusCode, bad).toBe(400);
    }
  });

  it("counts each college and branch, and keeps the drive's ranks inside one college's shortlist", async () => {
    const passed = await ranking(placement._id, "?cut=pass");
    expect(passed.groups).toEqual([
      { college: NORTH, course: "CSE", candidates: 2, shortlisted: 2 },
      { college: NORTH, course: "ECE", candidates: 1, shortlisted: 0 },
      { college: SOUTH, course: "CSE", candidates: 2, shortlisted: 1 },
    ]);
    const south = await ranking(placement._id, `?cut=pass&college=${encodeURIComponent(SOUTH)}`);
    expect(south.rows.map((row) => [row.name, row.rank])).toEqual([["Chitra", 3]]);
    expect(south.shortlisted).toBe(1);
    const northCse = await ranking(placement._id, `?college=${encodeURIComponent(NORTH)}&course=CSE`);
    expect(northCse.rows.map((row) => row.name)).toEqual(["Asha", "Bala"]);
    // A filter is a name, matched exactly: not a pattern, and not SQL.
    expect((await ranking(placement._id, "?college=%25")).rows).toEqual([]);
    expect((await ranking(placement._id, `?college=${encodeURIComponent("' or true --")}`)).rows).toEqual([]);
  });

  it("exports a college's shortlist as a recruiter's sheet, in rank order, and audits who took it", async () => {
    const csv = await app.inject({
      method: "GET",
      url: `/api/drives/${placement._id}/shortlist.csv?cut=top&top=3&college=${encodeURIComponent(NORTH)}`,
      headers: asViewer,
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    // Named for the drive and college, and provisional: the drive is still open.
    expect(csv.headers["content-disposition"]).toContain(
      `shortlist-${placement.code.replace(/[^A-Za-z0-9]+/g, "-")}-North-Campus-College-provisional.csv`,
    );
    const lines = csv.body.trim().split("\n");
    expect(lines[0]).toBe(
      "Rank,Percentile,Name,Email,Phone,USN,College,Branch/Course,Year,Marks,Out of,Score (%),Result,Time taken," +
        "Time taken (s),Submitted,Auto-submitted,Drive,Test,Sections",
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(
      /^1,100\.00,Asha,[^,]+,9876543210,[^,]+,North Campus College,CSE,2025,3,3,100\.00,Pass,1 min 40 s,100,/,
    );
    expect(lines[2]).toMatch(
      /^1,100\.00,Bala,.*,1 min 40 s,100,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,No,Placement round drive,Placement round,$/,
    );
    const audit = await database.pool.query(
      `select admin_username, entity_id, after::text from audit_log where action = 'export.shortlist'`,
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ admin_username: "ranking-viewer" });
    expect(JSON.stringify(audit.rows[0])).toContain("North Campus College");
  });

  it("ranks a candidate who took the test twice by their better attempt, once", async () => {
    const drive = await driveFor("Two tries", null);
    const first = await candidate(drive, { name: "Farah", college: NORTH, course: "CSE", right: 1, seconds: 40 });
    await database.pool.query(`update students set attempts_allowed = 2 where email = $1`, [first.input.email]);
    const served = (
      await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(first.token) })
    ).json() as QuizQuestion[];
    const again = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(first.token),
      payload: {
        answers: served.map((question) => ({
          questionId: question._id,
          optionId: question.options.find((option) => option.text.startsWith("right"))?._id ?? "",
        })),
      },
    });
    expect(again.statusCode, again.body).toBe(200);
    await candidate(drive, { name: "Gita", college: NORTH, course: "CSE", right: 2, seconds: 40 });
    const ranked = await ranking(drive._id);
    expect(ranked.rows.map((row) => [row.name, row.rank, row.marks, row.attemptId === again.json().resultId])).toEqual([
      ["Farah", 1, 3, true],
      ["Gita", 2, 2, false],
    ]);
    // Without a pass mark nobody passed: the page says so rather than offering an empty shortlist as final.
    expect(ranked.hasPassMark).toBe(false);
    expect((await ranking(drive._id, "?cut=pass")).rows).toEqual([]);
  });

  it("says the ranks are provisional while an attempt could still move them, and final once none can", async () => {
    const drive = await driveFor("Still running", null);
    await candidate(drive, { name: "Hari", college: NORTH, course: "CSE", right: 2, seconds: 60 });
    const late = await registerStudent(app, { driveCode: drive.code, name: "Indu" });
    await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(late.token) });
    expect(await ranking(drive._id, "", asViewer)).toMatchObject({ final: false, unfinished: 1, candidates: 1 });
    const closed = await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });
    expect(closed.statusCode, closed.body).toBe(200);
    // Closing lets a running attempt finish: the ranks wait for it.
    expect(await ranking(drive._id)).toMatchObject({ final: false, unfinished: 1 });
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(late.token),
      payload: { answers: [] },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(await ranking(drive._id)).toMatchObject({ final: true, unfinished: 0, candidates: 2 });
  });

  it("stays provisional while an attempt whose time is up waits to be closed, and caps its time at its deadline", async () => {
    // An outside attack closed a drive whose attempts had run out unseen: "final" at once, three of five candidates
    // missing, and each timed-out candidate's time taken set by when the sweep or their next request came.
    const drive = await driveFor("Timed out", null);
    await candidate(drive, { name: "Jaya", college: NORTH, course: "CSE", right: 1, seconds: 50 });
    const slow = await registerStudent(app, { driveCode: drive.code, name: "Kiran" });
    const served = (
      await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(slow.token) })
    ).json() as QuizQuestion[];
    const saved = await app.inject({
      method: "PUT",
      url: "/api/quiz/answers",
      headers: bearer(slow.token),
      payload: {
        questionId: served[0]?._id,
        optionId: served[0]?.options.find((option) => option.text.startsWith("right"))?._id,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // The drive closes (its attempts may finish); this one's whole time, 50 seconds, ran out two minutes ago, and
    // nothing has closed it yet.
    await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });
    await database.pool.query(
      `update attempts set started_at = now() - interval '170 seconds', deadline_at = now() - interval '120 seconds'
       where student_id = (select id from students where email = $1)`,
      [slow.input.email],
    );
    expect(await ranking(drive._id)).toMatchObject({ final: false, unfinished: 1, candidates: 1 });
    const shortlist = await app.inject({
      method: "GET",
      url: `/api/drives/${drive._id}/shortlist.csv`,
      headers: asAdmin,
    });
    expect(shortlist.headers["content-disposition"]).toContain("-provisional.csv");
    // The student's next request closes it, two minutes after its deadline: it took its 50 seconds, not 170.
    await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(slow.token) });
    const final = await ranking(drive._id);
    expect(final).toMatchObject({ final: true, unfinished: 0, candidates: 2 });
    expect(final.rows.map((row) => [row.name, row.rank, row.secondsTaken, row.autoSubmitted])).toEqual([
      ["Jaya", 1, 50, false],
      ["Kiran", 1, 50, true],
    ]);
  });

  it("streams the CSV from one snapshot: submissions arriving meanwhile neither repeat nor shift a candidate", async () => {
    const drive = await driveFor("Snapshot", null);
    const seed = await candidate(drive, { name: "Seed", college: NORTH, course: "CSE", right: 1, seconds: 60 });
    // 2,500 more candidates, cloned from the seed in SQL: more than two of the export's batches.
    await database.pool.query(
      `with made as (
         insert into students (name, email, phone, usn_no, college, course, "group", year, drive_id)
         select 'Clone ' || lpad(n::text, 4, '0'), 'clone' || n || '@snapshot.example', s.phone, 'SNAP' || n,
           s.college, s.course, s."group", s.year, s.drive_id
         from students s, generate_series(1, 2500) n where s.email = $1
         returning id, name)
       insert into attempts (student_id, started_at, deadline_at, submitted_at, seconds_per_question, total_questions,
         drive_id, timing_mode, paced, review_policy, score, marks, current_position, current_started_at)
       select made.id, a.started_at, a.deadline_at, a.submitted_at, a.seconds_per_question, a.total_questions,
         a.drive_id, a.timing_mode, a.paced, a.review_policy, (right(made.name, 4)::int % 4), (right(made.name, 4)::int % 4),
         a.current_position, a.current_started_at
       from made, attempts a where a.id = $2`,
      [seed.input.email, seed.attemptId],
    );
    const { shortlistBatches } = await import("./ranking.ts");
    const batches = shortlistBatches(database.pool, drive._id, { cut: "all" });
    const first = await batches.next();
    // Five better candidates arrive after the first batch was read.
    await database.pool.query(
      `update attempts set marks = 3, score = 3 where id in (
         select a.id from attempts a join students s on s.id = a.student_id
         where s.drive_id = $1 and s.name like 'Clone %' order by s.name desc limit 5)`,
      [drive._id],
    );
    const rows = first.done ? [] : [...first.value];
    for await (const batch of batches) rows.push(...batch);
    expect(rows).toHaveLength(2501);
    expect(new Set(rows.map((row) => row.student_id)).size).toBe(2501);
    // The ranks as they were when the export began: non-decreasing, the first the best of the clones then.
    expect(rows.map((row) => row.rank)).toEqual([...rows.map((row) => row.rank)].sort((a, b) => a - b));
    expect(rows[0]?.marks).toBe(3);
    expect(rows.filter((row) => row.marks === 3)).toHaveLength(625);
  });

  it("names a college's file in its own script, treats an empty filter as none, and keeps a negative score a number", async () => {
    const drive = await driveFor("Scripts", null);
    const kannada = "ಕರ್ನಾಟಕ ಎಂಜಿನಿಯರಿಂಗ್ ಕಾಲೇಜು";
    const mysore = "ಮೈಸೂರು ವಿಶ್ವವಿದ್ಯಾಲಯ";
    const first = await candidate(drive, { name: "Lata", college: kannada, course: "CSE", right: 0, seconds: 30 });
    await candidate(drive, { name: "Mani", college: mysore, course: "CSE", right: 1, seconds: 30 });
    await database.pool.query("update attempts set marks = -1 where id = $1", [first.attemptId]);
    const names = [];
    for (const college of [kannada, mysore]) {
      const csv = await app.inject({
        method: "GET",
        url: `/api/drives/${drive._id}/shortlist.csv?college=${encodeURIComponent(college)}`,
        headers: asAdmin,
      });
      expect(csv.statusCode, csv.body).toBe(200);
      const disposition = csv.headers["content-disposition"] as string;
      const encoded = disposition.match(/filename\*=UTF-8''(.+)$/)?.[1] ?? "";
      expect(decodeURIComponent(encoded)).toBe(
        `shortlist-${drive.code}-${college.replaceAll(" ", "-")}-provisional.csv`,
      );
      names.push(encoded);
      if (college === kannada) expect(csv.body.split("\n")[1]).toMatch(/,-1,3,-33\.33,,/);
    }
    expect(names[0]).not.toBe(names[1]);
    for (const empty of ["?college=", "?college=%20", "?course="]) {
      expect(
        (await ranking(drive._id, empty)).rows.map((row) => row.name),
        empty,
      ).toEqual(["Mani", "Lata"]);
    }
  });

  it("is for admins: a student's token is forbidden, no token unauthorised, an unknown drive is not found", async () => {
    const { token } = await registerStudent(app, { driveCode: placement.code });
    for (const [headers, status] of [
      [bearer(token), 403],
      [{}, 401],
    ] as const) {
      const refused = await app.inject({ method: "GET", url: `/api/drives/${placement._id}/ranking`, headers });
      expect(refused.statusCode).toBe(status);
      const csv = await app.inject({ method: "GET", url: `/api/drives/${placement._id}/shortlist.csv`, headers });
      expect(csv.statusCode).toBe(status);
    }
    const unknown = await app.inject({
      method: "GET",
      url: "/api/drives/00000000-0000-4000-8000-000000000000/ranking",
      headers: asAdmin,
    });
    expect(unknown.statusCode).toBe(404);
  });
});
