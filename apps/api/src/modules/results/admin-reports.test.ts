// What the admin screens and exports read about results (decision 027): question text rendered as students see
// it, one set of export columns in the admin's words, times in the drive's time zone, auto-submission marked, the
// dashboard's average after negative marking, and item analysis read by a viewer without the key.
import type { ItemAnalysis } from "@trainwise/contract/analysis";
import type { QuizQuestion } from "@trainwise/contract/quiz";
import type { ResultDetail } from "@trainwise/contract/students";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, registerStudent } from "../../test/fixtures.ts";
import { createAdmin } from "../admins/repository.ts";

const CATEGORY = "Admin reports";
/** The same questions again for the secure drive: a practice drive's keys are seen, so a secure test draws others. */
const SECURE_CATEGORY = "Admin reports secure";
const QUESTIONS = [
  { text: "What is $x^2$ when `x = 3`?", options: ["$9$", "`6`"] },
  { text: "Which prints 4?\n\n```python\nprint(2 + 2)\n```", options: ["The first", "None"] },
];
const EXPORT_HEADER =
  "Student,Email,USN,College,Drive,Test,Right answers,Marks,Questions,Score (%),Result,Submitted,Time zone," +
  "Auto-submitted,Left the quiz (times),Late answers,Answers in a burst,Sections";

describe("admin reports", async () => {
  const { app, database } = await createTestApp();
  const owner = bearer(await adminToken(app, database.db));
  await createAdmin(database.db, "report-viewer", "viewer test password", "viewer");
  const viewer = bearer(
    (
      await app.inject({
        method: "POST",
        url: "/api/auth/admin/login",
        payload: { username: "report-viewer", password: "viewer test password" },
      })
    ).json().token,
  );
  for (const [question, category] of [CATEGORY, SECURE_CATEGORY].flatMap((category) =>
    QUESTIONS.map((question) => [question, category] as const),
  )) {
    const created = await app.inject({
      method: "POST",
      url: "/api/questions",
      headers: owner,
      payload: {
        text: question.text,
        category,
        difficulty: "easy",
        options: question.options.map((text, index) => ({ text, isCorrect: index === 0 })),
      },
    });
    expect(created.statusCode, created.body).toBe(201);
  }

  async function makeDrive(name: string, secure: boolean) {
    const test = await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: owner,
      payload: {
        name,
        categories: [secure ? SECURE_CATEGORY : CATEGORY],
        questionCount: QUESTIONS.length,
        timingMode: "whole_quiz",
        reviewPolicy: secure ? "score_only" : "score_and_ticks",
        secure,
      },
    });
    expect(test.statusCode, test.body).toBe(201);
    const drive = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: owner,
      payload: { name, testId: test.json()._id, timeZone: "Asia/Kolkata" },
    });
    expect(drive.statusCode, drive.body).toBe(201);
    return drive.json() as { _id: string; code: string };
  }

  /** A student of the drive answers every question with its first (right) option or its second (wrong) one. */
  async function take(driveCode: string, right: boolean, name = "Asha Rao") {
    const { token } = await registerStudent(app, { driveCode, name });
    const served = (
      await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(token) })
    ).json() as QuizQuestion[];
    const answers = served.map((question) => {
      const wanted = QUESTIONS.find((bank) => bank.text === question.text)?.options[right ? 0 : 1];
      const option = question.options.find((candidate) => candidate.text === wanted);
      return { questionId: question._id, optionId: option?._id ?? "" };
    });
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(token),
      payload: { answers },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    return submitted.json().resultId as string;
  }

  const practice = await makeDrive("Practice reports", false);
  const rightAttempt = await take(practice.code, true, "Asha Rao");
  const wrongAttempt = await take(practice.code, false, "Ben Das");

  it("gives each answer's question and options rendered as the student saw them", async () => {
    const detail = (
      await app.inject({ method: "GET", url: `/api/students/results/${rightAttempt}`, headers: owner })
    ).json() as ResultDetail;
    const math = detail.answers.find((answer) => answer.question.startsWith("What is"));
    expect(math?.questionHtml).toContain('class="katex"');
    expect(math?.questionHtml).toContain("<code>x = 3</code>");
    expect(math?.questionHtml).not.toContain("$x^2$");
    expect(math?.chosenHtml).toContain('class="katex"');
    expect(math?.correctHtml).toContain('class="katex"');
    const code = detail.answers.find((answer) => answer.question.startsWith("Which prints"));
    expect(code?.questionHtml).toContain('<pre><code class="hljs language-python">');
    expect(code?.questionHtml).not.toContain("```");
    expect(detail.timeZone).toBe("Asia/Kolkata");
    expect(detail.autoSubmitted).toBe(false);
  });

  it("exports results in the admin's words with the same columns from the table and from the drive", async () => {
    // An evening exam in India: 20:00 UTC is 01:30 the next day where the drive is sat.
    await database.pool.query("update attempts set submitted_at = '2026-11-20T20:00:00Z' where id = $1", [
      rightAttempt,
    ]);
    // The other ran out of time: its deadline passed before it was submitted (the sweep's doing).
    await database.pool.query(
      `update attempts set deadline_at = '2026-11-20T19:00:00Z', started_at = '2026-11-20T18:59:00Z',
         submitted_at = '2026-11-20T19:00:30Z' where id = $1`,
      [wrongAttempt],
    );
    const fromTable = await app.inject({
      method: "GET",
      url: `/api/students/results/export.csv?driveId=${practice._id}`,
      headers: owner,
    });
    const fromDrive = await app.inject({
      method: "GET",
      url: `/api/drives/${practice._id}/results.csv`,
      headers: owner,
    });
    for (const csv of [fromTable.body, fromDrive.body]) {
      expect(csv.split("\n")[0]).toBe(EXPORT_HEADER);
      const rows = parse(csv, { columns: true }) as Record<string, string>[];
      const asha = rows.find((row) => row.Student === "Asha Rao");
      const ben = rows.find((row) => row.Student === "Ben Das");
      expect(asha).toMatchObject({
        Drive: "Practice reports",
        Test: "Practice reports",
        "Right answers": "2",
        Marks: "2",
        Questions: "2",
        "Score (%)": "100.00",
        Submitted: "2026-11-21 01:30:00",
        "Time zone": "Asia/Kolkata",
        "Auto-submitted": "No",
      });
      expect(ben).toMatchObject({ Submitted: "2026-11-21 00:30:30", "Auto-submitted": "Yes", "Score (%)": "0.00" });
    }
    const table = (
      await app.inject({
        method: "GET",
        url: `/api/students/results/table?driveId=${practice._id}&sort=name&order=asc`,
        headers: owner,
      })
    ).json();
    expect(
      table.rows.map((row: { studentName: string; autoSubmitted: boolean; timeZone: string }) => [
        row.studentName,
        row.autoSubmitted,
        row.timeZone,
      ]),
    ).toEqual([
      ["Asha Rao", false, "Asia/Kolkata"],
      ["Ben Das", true, "Asia/Kolkata"],
    ]);
    const drive = (
      await app.inject({ method: "GET", url: `/api/drives/${practice._id}/results`, headers: owner })
    ).json();
    expect(drive.map((row: { autoSubmitted: boolean }) => row.autoSubmitted).sort()).toEqual([false, true]);
  });

  it("exports students with the same words and the drive's time", async () => {
    const csv = await app.inject({ method: "GET", url: "/api/students/export.csv?search=Asha", headers: owner });
    expect(csv.body.split("\n")[0]).toBe(
      "Name,Email,Phone,USN,College,Course,Group,Year,Drive,Registered,Time zone,Attempts used,Attempts allowed," +
        "Extra time (×)",
    );
    const [asha] = parse(csv.body, { columns: true }) as Record<string, string>[];
    expect(asha).toMatchObject({ Name: "Asha Rao", Drive: "Practice reports", "Time zone": "Asia/Kolkata" });
    expect(asha?.Registered).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it("averages the dashboard's scores after negative marking, as the other screens do", async () => {
    // Every submitted attempt loses half a mark: 2 right of 2 is 1.5 marks, 75 %, not the 100 % right answers say.
    await database.pool.query("update attempts set marks = score - 0.5 where submitted_at is not null");
    const { rows } = await database.pool.query<{ average: number }>(
      `select avg(coalesce(marks, score, 0)::float / nullif(total_questions, 0) * 100) as average
       from attempts where submitted_at is not null`,
    );
    const dashboard = (await app.inject({ method: "GET", url: "/api/dashboard", headers: viewer })).json();
    expect(dashboard.averagePercentage).toBeCloseTo(Number(rows[0]?.average), 2);
    const counted = dashboard.distribution.reduce((sum: number, bucket: { count: number }) => sum + bucket.count, 0);
    // An attempt below zero is in the lowest band, not left out.
    expect(counted).toBe(dashboard.submitted);
    expect(dashboard.items[0].html).toMatch(/<(p|pre)/);
    await database.pool.query("update attempts set marks = score where submitted_at is not null");
  });

  it("lets a viewer read item analysis, without the key until the drive releases it", async () => {
    const url = `/api/drives/${practice._id}/analysis`;
    const asViewer = await app.inject({ method: "GET", url, headers: viewer });
    expect(asViewer.statusCode, asViewer.body).toBe(200);
    const report = asViewer.json() as ItemAnalysis;
    expect(report).toMatchObject({ keyHidden: true, marksHidden: false, keyShownFrom: null });
    expect(report.questions).toHaveLength(QUESTIONS.length);
    expect(report.questions.map((question) => question.facility)).toEqual([50, 50]);
    for (const option of report.questions.flatMap((question) => question.options)) {
      expect(option).toMatchObject({ isCorrect: null, chosen: null, share: null });
    }
    expect(asViewer.body).not.toContain('"isCorrect":true');
    // The examiner's report keeps the key.
    const asOwner = (await app.inject({ method: "GET", url, headers: owner })).json() as ItemAnalysis;
    expect(asOwner.keyHidden).toBe(false);
    expect(asOwner.questions.flatMap((question) => question.options).filter((option) => option.isCorrect)).toHaveLength(
      2,
    );
    // The test's report reads the same drive, so it hides the same key.
    const testId = (await database.pool.query("select test_id from drives where id = $1", [practice._id])).rows[0]
      .test_id as string;
    const testReport = (
      await app.inject({ method: "GET", url: `/api/tests/${testId}/analysis`, headers: viewer })
    ).json() as ItemAnalysis;
    expect(testReport.keyHidden).toBe(true);
    expect(testReport.questions.flatMap((question) => question.options).some((option) => option.isCorrect)).toBe(false);
    // Its CSV, which marks the right options, stays the examiners'.
    expect((await app.inject({ method: "GET", url: `${url}.csv`, headers: viewer })).statusCode).toBe(403);

    // Once the drive has closed and no attempt can still answer, the key is out and the viewer reads it too.
    expect(
      (await app.inject({ method: "POST", url: `/api/drives/${practice._id}/close`, headers: owner })).statusCode,
    ).toBe(200);
    const released = (await app.inject({ method: "GET", url, headers: viewer })).json() as ItemAnalysis;
    expect(released.keyHidden).toBe(false);
    expect(
      released.questions.flatMap((question) => question.options).filter((option) => option.isCorrect),
    ).toHaveLength(2);
  });

  it("shows a viewer no question's figures of a secure drive before it releases", async () => {
    const secure = await makeDrive("Secure reports", true);
    await take(secure.code, true, "Chitra Iyer");
    const report = (
      await app.inject({ method: "GET", url: `/api/drives/${secure._id}/analysis`, headers: viewer })
    ).json() as ItemAnalysis;
    expect(report).toMatchObject({ keyHidden: true, marksHidden: true, questions: [] });
    expect(report.summary.attempts).toBe(1);
  });
});
