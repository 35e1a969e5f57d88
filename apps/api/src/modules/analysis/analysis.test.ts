// Item analysis: students answer with choices this file fixes, and every figure the API gives (facility,
// discrimination over the 27 % groups, option shares, flags, score statistics) is computed here from those
// choices and compared.
import type { ItemAnalysis } from "@trainwise/contract/analysis";
import type { TestInput } from "@trainwise/contract/drives";
import type { QuizQuestion } from "@trainwise/contract/quiz";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { addRightWrongQuestion, adminToken, bearer, registerStudent, sitQuiz } from "../../test/fixtures.ts";

const LETTERS = ["A", "B", "C", "D"] as const;
type Letter = (typeof LETTERS)[number];
/** Question number (1–5) → the letter chosen, or null for no answer. */
type Choices = Record<number, Letter | null>;

/** The bank: five questions of one category; the correct letter of each, and its text. */
const BANK = [
  { n: 1, text: "Item one: which is a prime?", correct: "A" },
  { n: 2, text: "Item two: which is even?", correct: "B" },
  // A text a spreadsheet would take for a formula: the CSV must keep it as text.
  { n: 3, text: "=SUM(1,2) is what?", correct: "C" },
  { n: 4, text: "Item four: which is a vowel?", correct: "D" },
  { n: 5, text: "Item five: which is odd?", correct: "A" },
] as const;

/**
 * Twenty students by ability i = 0..19: question 1 is answered right by the stronger ones, question 2 by the
 * weaker ones only (negative discrimination), question 3 by nobody (wrong choices spread, some blank),
 * question 4 by everyone, question 5 by the strongest ten and one more.
 */
function choicesOf(i: number): Choices {
  return {
    1: i >= 8 ? "A" : i % 3 === 0 ? null : i % 2 ? "B" : "C",
    2: i < 7 ? "B" : "A",
    3: i % 5 === 0 ? null : ((["A", "B", "D"] as const)[i % 3] ?? null),
    4: "D",
    5: i >= 10 || i === 3 ? "A" : i % 2 ? "C" : "B",
  };
}

interface Taken {
  attemptId: string;
  choices: Choices;
}

const correctOf = (n: number) => BANK.find((question) => question.n === n)?.correct;
const scoreOf = (choices: Choices) => BANK.filter((question) => choices[question.n] === question.correct).length;
const percentOfAll = (part: number, whole: number) => Math.round((part / whole) * 10000) / 100;

/** What the report must say, worked out from the students' choices alone. */
function expectedAnalysis(taken: Taken[]) {
  const n = taken.length;
  const scored = taken.map((attempt) => ({ ...attempt, percent: (scoreOf(attempt.choices) / BANK.length) * 100 }));
  const byId = (a: Taken, b: Taken) => (a.attemptId < b.attemptId ? -1 : a.attemptId > b.attemptId ? 1 : 0);
  const g = n < 10 ? 0 : Math.ceil(0.27 * n);
  const ranked = [...scored].sort((a, b) => b.percent - a.percent || byId(a, b));
  const upper = ranked.slice(0, g);
  const lower = ranked.slice(n - g);
  const percents = scored.map((attempt) => attempt.percent).sort((a, b) => a - b);
  const mean = percents.reduce((sum, value) => sum + value, 0) / n;
  const median = n % 2 ? percents[(n - 1) / 2] : ((percents[n / 2 - 1] ?? 0) + (percents[n / 2] ?? 0)) / 2;
  const sd = n > 1 ? Math.sqrt(percents.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1)) : null;
  const rightShare = (group: Taken[], q: number) =>
    group.filter((attempt) => attempt.choices[q] === correctOf(q)).length / group.length;
  const questions = BANK.map(({ n: q }) => {
    const right = taken.filter((attempt) => attempt.choices[q] === correctOf(q)).length;
    const discrimination = g === 0 ? null : Math.round((rightShare(upper, q) - rightShare(lower, q)) * 100) / 100;
    const flags: string[] = [];
    if (discrimination !== null && discrimination < 0) flags.push("negative_discrimination");
    if (n >= 10 && right === 0) flags.push("nobody_right");
    if (n >= 10 && right === n) flags.push("everyone_right");
    return {
      served: n,
      right,
      facility: percentOfAll(right, n),
      discrimination,
      notAnsweredShare: percentOfAll(taken.filter((attempt) => attempt.choices[q] === null).length, n),
      shares: LETTERS.map((letter) => percentOfAll(taken.filter((attempt) => attempt.choices[q] === letter).length, n)),
      flags,
    };
  });
  const scores = taken.map((attempt) => scoreOf(attempt.choices));
  const scoreMean = scores.reduce((sum, value) => sum + value, 0) / n;
  const variance = scores.reduce((sum, value) => sum + (value - scoreMean) ** 2, 0) / n;
  const pq = questions.reduce((sum, question) => sum + (question.right / n) * (1 - question.right / n), 0);
  const k = BANK.length;
  const kr20 = n >= 10 && variance > 0 ? Math.round((k / (k - 1)) * (1 - pq / variance) * 100) / 100 : null;
  return { n, g, mean, median, sd, kr20, questions };
}

describe("item analysis", async () => {
  const { app, database } = await createTestApp();
  const admin = bearer(await adminToken(app, database.db));
  // Option texts name their question and letter ("Q3 B"), so a choice is found by text in any shuffled order.
  await database.pool.query(
    `with made as (
       insert into questions (text, category, difficulty, created_at)
       select b.text, 'Item analysis', 'medium', now() + b.n * interval '1 second'
       from jsonb_to_recordset($1::jsonb) as b(n int, text text, correct text)
       returning id, text
     )
     insert into question_options (question_id, text, is_correct, weight, position)
     select made.id, 'Q' || b.n || ' ' || l.letter, l.letter = b.correct, case when l.letter = b.correct then 100 else 0 end,
            l.position
     from made join jsonb_to_recordset($1::jsonb) as b(n int, text text, correct text) on b.text = made.text,
       (values ('A', 0), ('B', 1), ('C', 2), ('D', 3)) as l(letter, position)`,
    [JSON.stringify(BANK)],
  );

  async function createDrive(testId: string, name: string) {
    const response = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: admin,
      payload: { name, testId },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { _id: string; code: string };
  }
  async function createTest(name: string) {
    const input: TestInput = {
      name,
      categories: ["Item analysis"],
      questionCount: BANK.length,
      timingMode: "whole_quiz",
    };
    const response = await app.inject({ method: "POST", url: "/api/tests", headers: admin, payload: input });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { _id: string };
  }

  /** One student of the drive answers with `choices` through the original calls; the attempt's id comes back. */
  async function take(driveCode: string, choices: Choices): Promise<Taken> {
    const { token } = await registerStudent(app, { driveCode });
    const served = await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(token) });
    const questions = served.json() as QuizQuestion[];
    expect(questions).toHaveLength(BANK.length);
    const answers = questions.flatMap((question) => {
      const n = BANK.find((entry) => entry.text === question.text)?.n ?? 0;
      const letter = choices[n];
      const option = question.options.find((candidate) => candidate.text === `Q${n} ${letter}`);
      return letter && option ? [{ questionId: question._id, optionId: option._id }] : [];
    });
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(token),
      payload: { answers },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().refused).toEqual([]);
    return { attemptId: submitted.json().resultId, choices };
  }

  async function analysis(url: string) {
    const response = await app.inject({ method: "GET", url, headers: admin });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ItemAnalysis;
  }

  function expectMatches(report: ItemAnalysis, taken: Taken[]) {
    const expected = expectedAnalysis(taken);
    expect(report.summary.attempts).toBe(expected.n);
    expect(report.summary.groupSize).toBe(expected.g);
    expect(report.summary.mean).toBeCloseTo(expected.mean, 2);
    expect(report.summary.median).toBeCloseTo(expected.median ?? Number.NaN, 2);
    if (expected.sd === null) expect(report.summary.standardDeviation).toBeNull();
    else expect(report.summary.standardDeviation).toBeCloseTo(expected.sd, 2);
    if (expected.kr20 === null) expect(report.summary.kr20).toBeNull();
    else expect(report.summary.kr20).toBeCloseTo(expected.kr20, 2);
    // A test without sections: no section anywhere.
    expect(report.summary.sections).toEqual([]);
    expect(report.questions).toHaveLength(BANK.length);
    for (const [index, { text, correct }] of BANK.entries()) {
      const question = report.questions.find((candidate) => candidate.text === text);
      const want = expected.questions[index];
      expect(question, text).toBeDefined();
      if (!question || !want) continue;
      expect(question.served, text).toBe(want.served);
      expect(question.right, text).toBe(want.right);
      expect(question.facility, text).toBeCloseTo(want.facility, 2);
      if (want.discrimination === null) expect(question.discrimination, text).toBeNull();
      else expect(question.discrimination, text).toBeCloseTo(want.discrimination, 2);
      expect(question.notAnsweredShare, text).toBeCloseTo(want.notAnsweredShare, 2);
      expect(
        question.options.map((option) => option.share),
        text,
      ).toEqual(want.shares);
      expect(question.options.filter((option) => option.isCorrect).map((option) => option.text)).toEqual([
        `Q${index + 1} ${correct}`,
      ]);
      expect([...question.flags].sort(), text).toEqual([...want.flags].sort());
      expect(question.section, text).toBeNull();
    }
  }

  const mainTest = await createTest("Analysed test");
  const cohortDrive = await createDrive(mainTest._id, "Cohort of twenty");
  const loneDrive = await createDrive(mainTest._id, "One student");
  const emptyDrive = await createDrive(mainTest._id, "Nobody came");
  const cohort: Taken[] = [];
  for (let i = 0; i < 20; i++) cohort.push(await take(cohortDrive.code, choicesOf(i)));
  const lone = await take(loneDrive.code, choicesOf(12));

  it("gives each question's facility, discrimination over the 27 % groups, option shares and flags", async () => {
    const report = await analysis(`/api/drives/${cohortDrive._id}/analysis`);
    expect(report.scope).toMatchObject({ kind: "drive", name: "Cohort of twenty", testName: "Analysed test" });
    expectMatches(report, cohort);
    // The cohort was built for these: make sure the fixed answers really exercise every flag.
    const flagsOf = (n: number) => report.questions.find((question) => question.text === BANK[n - 1]?.text)?.flags;
    expect(flagsOf(2)).toContain("negative_discrimination");
    expect(flagsOf(3)).toContain("nobody_right");
    expect(flagsOf(4)).toContain("everyone_right");
    expect(flagsOf(1)).toEqual([]);
    // Each row shows its question and options as students saw them.
    for (const question of report.questions) {
      expect(question.html).toBe(`<p>${question.text}</p>`);
      for (const option of question.options) expect(option.html).toBe(option.text);
    }
  });

  it("analyses a test across all its drives", async () => {
    const report = await analysis(`/api/tests/${mainTest._id}/analysis`);
    expect(report.scope).toMatchObject({ kind: "test", name: "Analysed test" });
    expectMatches(report, [...cohort, lone]);
  });

  it("answers a drive with no submitted attempts with empty figures", async () => {
    const report = await analysis(`/api/drives/${emptyDrive._id}/analysis`);
    expect(report.summary).toMatchObject({
      attempts: 0,
      mean: null,
      median: null,
      standardDeviation: null,
      kr20: null,
      groupSize: 0,
    });
    expect(report.questions).toEqual([]);
  });

  it("gives no discrimination and no flags for one attempt, only its facility and choices", async () => {
    const report = await analysis(`/api/drives/${loneDrive._id}/analysis`);
    expectMatches(report, [lone]);
    expect(report.summary.groupSize).toBe(0);
    expect(report.questions.every((question) => question.discrimination === null && question.flags.length === 0)).toBe(
      true,
    );
  });

  it("leaves out unfinished attempts", async () => {
    const { token } = await registerStudent(app, { driveCode: emptyDrive.code });
    await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(token) });
    expect((await analysis(`/api/drives/${emptyDrive._id}/analysis`)).summary.attempts).toBe(0);
  });

  it("handles a cohort whose scores are all the same: zero spread, no reliability, zero discrimination", async () => {
    const sameTest = await createTest("Everyone alike");
    const drive = await createDrive(sameTest._id, "Alike");
    const alike: Taken[] = [];
    const choices: Choices = { 1: "A", 2: "A", 3: "C", 4: "D", 5: "B" };
    for (let i = 0; i < 10; i++) alike.push(await take(drive.code, choices));
    const report = await analysis(`/api/drives/${drive._id}/analysis`);
    expectMatches(report, alike);
    expect(report.summary.standardDeviation).toBe(0);
    expect(report.summary.kr20).toBeNull();
    expect(report.questions.map((question) => question.discrimination)).toEqual([0, 0, 0, 0, 0]);
  });

  it("exports the per-question table as CSV with formula-looking text kept as text", async () => {
    const response = await app.inject({
      method: "GET",
      url: `/api/drives/${cohortDrive._id}/analysis.csv`,
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/csv");
    const lines = response.body.trim().split("\n");
    expect(lines[0]).toBe(
      "question,category,retired,served,right,facilityPercent,discrimination,notAnsweredPercent,options,flags,section",
    );
    expect(lines).toHaveLength(BANK.length + 1);
    // Served without sections: the last cell is empty.
    for (const line of lines.slice(1)) expect(line.endsWith(","), line).toBe(true);
    expect(response.body).toContain("'=SUM(1,2) is what?");
    expect(response.body).not.toMatch(/(^|,)"?=SUM/m);
    expect(response.body).toContain("Nobody right");
  });

  it("retires a question: the report marks it, new attempts cannot draw it, and it can come back", async () => {
    const report = await analysis(`/api/drives/${cohortDrive._id}/analysis`);
    const target = report.questions.find((question) => question.text === BANK[2].text);
    if (!target) throw new Error("question 3 missing");
    const available = async () =>
      (
        (await app.inject({ method: "GET", url: "/api/tests", headers: admin })).json() as {
          _id: string;
          available: number;
        }[]
      ).find((test) => test._id === mainTest._id)?.available;
    expect(await available()).toBe(5);

    const retire = await app.inject({
      method: "PUT",
      url: `/api/analysis/questions/${target.questionId}/retirement`,
      headers: admin,
      payload: { retired: true },
    });
    expect(retire.statusCode, retire.body).toBe(200);
    const after = await analysis(`/api/drives/${cohortDrive._id}/analysis`);
    expect(after.questions.find((question) => question.questionId === target.questionId)?.retired).toBe(true);
    expect(after.questions.filter((question) => question.retired)).toHaveLength(1);
    expect(await available()).toBe(4);

    const restore = await app.inject({
      method: "PUT",
      url: `/api/analysis/questions/${target.questionId}/retirement`,
      headers: admin,
      payload: { retired: false },
    });
    expect(restore.statusCode).toBe(200);
    expect(await available()).toBe(5);
    const missing = await app.inject({
      method: "PUT",
      url: "/api/analysis/questions/00000000-0000-4000-8000-000000000000/retirement",
      headers: admin,
      payload: { retired: true },
    });
    expect(missing.statusCode).toBe(404);
    const bad = await app.inject({
      method: "PUT",
      url: `/api/analysis/questions/${target.questionId}/retirement`,
      headers: admin,
      payload: { retired: "yes" },
    });
    expect(bad.statusCode).toBe(400);
  });

  describe("a test in sections", () => {
    /** Each section draws every question of its own category, so which section serves a question is fixed. */
    const APTITUDE = {
      name: "Aptitude",
      categories: ["Analysis aptitude"],
      questionCount: 2,
      negativeMark: 0.5,
      cutOff: 50,
    };
    const VERBAL = { name: "Verbal", categories: ["Analysis verbal"], questionCount: 2 };

    const addQuestion = (category: string, text: string) => addRightWrongQuestion(app, admin, category, text);

    /** A student of the drive answers by `pick` (question text → "right", "wrong" or none) and submits. */
    const sit = (driveCode: string, pick: Record<string, "right" | "wrong">) =>
      sitQuiz(app, driveCode, (text) => pick[text]);

    const sectionOf = (report: ItemAnalysis) =>
      Object.fromEntries(report.questions.map((question) => [question.text, question.section]));

    it("gives each question its section and each section's marks and cut-offs, in the summary and the CSV", async () => {
      for (const text of ["Alpha one", "Alpha two"]) await addQuestion("Analysis aptitude", text);
      for (const text of ["Beta one", "Beta two"]) await addQuestion("Analysis verbal", text);
      const input = { name: "Sectioned analysis", timingMode: "whole_quiz", sections: [APTITUDE, VERBAL] };
      const created = await app.inject({ method: "POST", url: "/api/tests", headers: admin, payload: input });
      expect(created.statusCode, created.body).toBe(201);
      const testId = (created.json() as { _id: string })._id;
      const first = await createDrive(testId, "Sections first drive");

      // Aptitude (2 questions, −0.5 a wrong answer, cut-off 50%): 2/2 = 100% met; 1 − 0.5 = 0.5/2 = 25% not met;
      // nothing answered = 0% not met. Verbal (no cut-off): 100%, 50%, 0%.
      await sit(first.code, { "Alpha one": "right", "Alpha two": "right", "Beta one": "right", "Beta two": "right" });
      await sit(first.code, { "Alpha one": "right", "Alpha two": "wrong", "Beta one": "right" });
      await sit(first.code, { "Beta one": "wrong", "Beta two": "wrong" });

      const report = await analysis(`/api/drives/${first._id}/analysis`);
      expect(sectionOf(report)).toEqual({
        "Alpha one": "Aptitude",
        "Alpha two": "Aptitude",
        "Beta one": "Verbal",
        "Beta two": "Verbal",
      });
      expect(report.summary.sections).toEqual([
        { name: "Aptitude", attempts: 3, mean: 41.67, median: 25, metCutOff: 1 },
        { name: "Verbal", attempts: 3, mean: 50, median: 50, metCutOff: null },
      ]);

      const csv = await app.inject({ method: "GET", url: `/api/drives/${first._id}/analysis.csv`, headers: admin });
      expect(csv.statusCode).toBe(200);
      const [header, ...lines] = csv.body.trim().split("\n");
      expect(header?.split(",").at(-1)).toBe("section");
      expect(Object.fromEntries(lines.map((line) => [line.split(",")[0], line.split(",").at(-1)]))).toEqual({
        "Alpha one": "Aptitude",
        "Alpha two": "Aptitude",
        "Beta one": "Verbal",
        "Beta two": "Verbal",
      });

      // The test is edited: Verbal becomes "Written", and comes first. Attempts keep the sections they were served.
      const edited = await app.inject({
        method: "PUT",
        url: `/api/tests/${testId}`,
        headers: admin,
        payload: { ...input, sections: [{ ...VERBAL, name: "Written" }, APTITUDE] },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      const second = await createDrive(testId, "Sections second drive");
      // Written: 100% four times; Aptitude: 100% twice, 0% twice (nothing answered).
      for (let i = 0; i < 4; i++) {
        const aptitude: Record<string, "right"> = i < 2 ? { "Alpha one": "right", "Alpha two": "right" } : {};
        await sit(second.code, { ...aptitude, "Beta one": "right", "Beta two": "right" });
      }
      const later = await analysis(`/api/drives/${second._id}/analysis`);
      expect(later.summary.sections).toEqual([
        { name: "Written", attempts: 4, mean: 100, median: 100, metCutOff: null },
        { name: "Aptitude", attempts: 4, mean: 50, median: 50, metCutOff: 2 },
      ]);

      // Across both drives: the Beta questions were served in Written four times and in Verbal three, so they are
      // Written's (not the first name, nor the first served). Sections come in the test's order now, then Verbal,
      // which it no longer has.
      const whole = await analysis(`/api/tests/${testId}/analysis`);
      expect(sectionOf(whole)).toEqual({
        "Alpha one": "Aptitude",
        "Alpha two": "Aptitude",
        "Beta one": "Written",
        "Beta two": "Written",
      });
      // Aptitude over seven attempts: 100, 25, 0, 100, 100, 0, 0 → mean 325 / 7 = 46.43, median 25.
      expect(whole.summary.sections).toEqual([
        { name: "Written", attempts: 4, mean: 100, median: 100, metCutOff: null },
        { name: "Aptitude", attempts: 7, mean: 46.43, median: 25, metCutOff: 3 },
        { name: "Verbal", attempts: 3, mean: 50, median: 50, metCutOff: null },
      ]);
    });
  });

  it("is for admins only", async () => {
    const { token } = await registerStudent(app, { driveCode: emptyDrive.code });
    for (const url of [
      `/api/drives/${cohortDrive._id}/analysis`,
      `/api/drives/${cohortDrive._id}/analysis.csv`,
      `/api/tests/${mainTest._id}/analysis`,
      `/api/tests/${mainTest._id}/analysis.csv`,
    ]) {
      expect((await app.inject({ method: "GET", url })).statusCode, url).toBe(401);
      expect((await app.inject({ method: "GET", url, headers: bearer(token) })).statusCode, url).toBe(403);
    }
    const retire = { method: "PUT" as const, url: `/api/analysis/questions/${cohort[0]?.attemptId}/retirement` };
    expect((await app.inject({ ...retire, payload: { retired: true } })).statusCode).toBe(401);
    expect((await app.inject({ ...retire, headers: bearer(token), payload: { retired: true } })).statusCode).toBe(403);
  });

  it("refuses hostile ids with 400 and unknown ones with 404", async () => {
    for (const id of ["abc", "1 or 1=1", "%27%3B%20drop%20table%20attempts%3B--", "..%2F..%2Fetc", "0".repeat(90)]) {
      for (const url of [`/api/drives/${id}/analysis`, `/api/tests/${id}/analysis.csv`]) {
        const response = await app.inject({ method: "GET", url, headers: admin });
        expect(response.statusCode, url).toBe(400);
        expect(response.json().fields?.id).toBe("Not a valid id");
      }
    }
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect(
      (await app.inject({ method: "GET", url: `/api/drives/${unknown}/analysis`, headers: admin })).statusCode,
    ).toBe(404);
    expect(
      (await app.inject({ method: "GET", url: `/api/tests/${unknown}/analysis`, headers: admin })).statusCode,
    ).toBe(404);
  });
});
