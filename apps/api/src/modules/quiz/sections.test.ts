// A test in sections (issue 26, decision 034): each section draws its own questions, in the test's order, marks
// them with its own negative mark, and may set a cut-off that passing needs beside the pass mark. Through the
// real API: the admin's test, the student's attempt and result, the outline a candidate reads first.
import type { LiveBoard } from "@trainwise/contract/live-board";
import type { AttemptState, QuizQuestion, ReleasedResult } from "@trainwise/contract/quiz";
import { extractText } from "unpdf";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { addRightWrongQuestion, adminToken, bearer, registerStudent, sitQuiz } from "../../test/fixtures.ts";
import { closeOverdueAttempts } from "./service.ts";

type InProgress = Extract<AttemptState, { status: "in_progress" }>;

const SECTIONS = [
  { name: "Quantitative Aptitude", categories: ["Sections quant"], questionCount: 3, negativeMark: 0.5, cutOff: 50 },
  { name: "Verbal Ability", categories: ["Sections verbal"], questionCount: 2 },
  { name: "Technical", categories: ["Sections tech"], questionCount: 2, cutOff: 100 },
];

describe("a test in sections", async () => {
  const { app, database } = await createTestApp();
  const admin = bearer(await adminToken(app, database.db));

  const addQuestion = (category: string, text: string) => addRightWrongQuestion(app, admin, category, text);
  for (let index = 1; index <= 3; index++) await addQuestion("Sections quant", `Quant ${index}`);
  for (let index = 1; index <= 2; index++) await addQuestion("Sections verbal", `Verbal ${index}`);
  for (let index = 1; index <= 2; index++) await addQuestion("Sections tech", `Tech ${index}`);

  async function createTest(payload: object) {
    return app.inject({ method: "POST", url: "/api/tests", headers: admin, payload });
  }
  async function driveOf(testId: string) {
    const drive = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: admin,
      payload: { name: `Sections drive ${testId}`, testId },
    });
    expect(drive.statusCode, drive.body).toBe(201);
    return drive.json() as { _id: string; code: string };
  }

  const placement = await createTest({
    name: "Placement round",
    timingMode: "whole_quiz",
    passMark: 60,
    sections: SECTIONS,
  });
  const { _id: driveId, code: placementCode } = await driveOf(placement.json()._id);

  /** A student sits the placement test, answering by `pick` (question text → "right", "wrong" or none). */
  async function sit(pick: (text: string) => "right" | "wrong" | undefined) {
    const { state, resultId, token } = await sitQuiz(app, placementCode, pick);
    const result = await app.inject({ method: "GET", url: `/api/quiz/result/${resultId}`, headers: bearer(token) });
    expect(result.statusCode, result.body).toBe(200);
    return { state, result: result.json() as ReleasedResult, token };
  }

  it("stores a test's sections in order, and its length, bank and marking are its sections'", () => {
    expect(placement.statusCode, placement.body).toBe(201);
    const test = placement.json();
    // Each section's own timing is stored too, read only when the test is timed per section (its defaults here).
    const ownTime = { timing: "section_clock", secondsPerQuestion: 30 };
    expect(test.sections).toEqual([
      { ...SECTIONS[0], difficultyMix: null, ...ownTime },
      { ...SECTIONS[1], difficultyMix: null, negativeMark: 0, cutOff: null, ...ownTime },
      { ...SECTIONS[2], difficultyMix: null, negativeMark: 0, ...ownTime },
    ]);
    expect(test.questionCount).toBe(7);
    // The draw and the marking are the sections': the test's own are cleared (its categories would otherwise add up
    // past the limit a test's own list has, and a test read back could not be saved again).
    expect(test.categories).toEqual([]);
    expect(test.negativeMark).toBe(0);
    expect(test.sectionsAvailable).toEqual([3, 2, 2]);
    expect(test.available).toBe(7);
  });

  it("refuses sections that cannot make a test, saying why", async () => {
    const refusals: [object, string][] = [
      [{ sections: [SECTIONS[0]] }, "A test with sections has at least two"],
      [{ sections: [SECTIONS[0], { ...SECTIONS[1], name: "quantitative aptitude" }] }, "a name of its own"],
      [
        { sections: [SECTIONS[0], { ...SECTIONS[1], questionCount: 199 }] },
        "A test's sections add up to at most 200 questions",
      ],
      [{ sections: [SECTIONS[0], { ...SECTIONS[1], cutOff: 101 }] }, "Cut-off must be at most 100"],
      [{ sections: [SECTIONS[0], { ...SECTIONS[1], name: " " }] }, "Section name"],
      [{ sections: Array.from({ length: 9 }, (_, index) => ({ name: `S${index}` })) }, "at most 8 sections"],
    ];
    for (const [payload, message] of refusals) {
      const refused = await createTest({ name: "Refused sections", ...payload });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error).toContain(message);
    }
  });

  it("serves each section's own questions in the test's order, and says where each section starts", async () => {
    const { state } = await sit(() => undefined);
    expect(state.sections).toEqual([
      { name: "Quantitative Aptitude", firstPosition: 0, questionCount: 3 },
      { name: "Verbal Ability", firstPosition: 3, questionCount: 2 },
      { name: "Technical", firstPosition: 5, questionCount: 2 },
    ]);
    const kinds = state.questions.map((question: QuizQuestion) => question.text.split(" ")[0]);
    expect(kinds).toEqual(["Quant", "Quant", "Quant", "Verbal", "Verbal", "Tech", "Tech"]);
  });

  it("marks each section with its own negative mark, and passing needs every cut-off and the pass mark", async () => {
    // Quant: 2 right, 1 wrong at -0.5 = 1.5 of 3 (50%, its cut-off); Verbal none; Tech both right.
    const strong = await sit((text) =>
      text === "Quant 3" ? "wrong" : text.startsWith("Verbal") ? undefined : "right",
    );
    expect(strong.result.sections).toEqual([
      {
        name: "Quantitative Aptitude",
        questionCount: 3,
        score: 2,
        marks: 1.5,
        percentage: "50.00",
        cutOff: 50,
        metCutOff: true,
      },
      {
        name: "Verbal Ability",
        questionCount: 2,
        score: 0,
        marks: 0,
        percentage: "0.00",
        cutOff: null,
        metCutOff: null,
      },
      { name: "Technical", questionCount: 2, score: 2, marks: 2, percentage: "100.00", cutOff: 100, metCutOff: true },
    ]);
    expect([strong.result.score, strong.result.marks, strong.result.percentage]).toEqual([4, 3.5, "50.00"]);
    // Every cut-off met, but 50% is below the pass mark of 60%.
    expect(strong.result.passed).toBe(false);

    const everyRight = await sit(() => "right");
    expect([everyRight.result.marks, everyRight.result.passed]).toEqual([7, true]);

    // Everything right but one Technical question: 6 of 7 overall (85.71%), yet Technical's cut-off is 100%.
    const oneShort = await sit((text) => (text === "Tech 2" ? "wrong" : "right"));
    expect(oneShort.result.marks).toBe(6);
    expect(oneShort.result.sections.map((section) => section.metCutOff)).toEqual([true, null, false]);
    expect(oneShort.result.passed).toBe(false);

    const stored = await database.db.execute<{ section_marks: unknown; marks: number }>(
      `select section_marks, marks from attempts where id = '${oneShort.result.resultId}'`,
    );
    expect(stored.rows[0]?.section_marks).toEqual([
      { score: 3, marks: 3, metCutOff: true },
      { score: 2, marks: 2, metCutOff: null },
      { score: 1, marks: 1, metCutOff: false },
    ]);
  });

  it("prints each section's marks and cut-off on the scorecard, and what passing took", async () => {
    const { result, token } = await sit((text) => (text === "Tech 2" ? "wrong" : "right"));
    const response = await app.inject({
      method: "GET",
      url: `/api/quiz/result/${result.resultId}/scorecard`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    const { text } = await extractText(new Uint8Array(response.rawPayload), { mergePages: true });
    const flat = text.replace(/\s+/g, " ");
    expect(flat).toContain("Quantitative Aptitude 3 of 3 marks (100.00%), cut-off 50% met");
    expect(flat).toContain("Verbal Ability 2 of 2 marks (100.00%)");
    expect(flat).toContain("Technical 1 of 2 marks (50.00%), cut-off 100% not met");
    expect(flat).toContain("Result Not passed (pass mark 60% and every section's cut-off)");
  });

  it("shows each section's part to the admin: the drive's results, View Results and both exports", async () => {
    const results = await app.inject({ method: "GET", url: `/api/drives/${driveId}/results`, headers: admin });
    expect(results.statusCode, results.body).toBe(200);
    const oneShort = (results.json() as { marks: number; sections: unknown[] }[]).find((row) => row.marks === 6);
    expect(oneShort?.sections).toEqual([
      expect.objectContaining({ name: "Quantitative Aptitude", score: 3, marks: 3, metCutOff: true }),
      expect.objectContaining({ name: "Verbal Ability", score: 2, marks: 2, metCutOff: null }),
      expect.objectContaining({ name: "Technical", score: 1, marks: 1, percentage: "50.00", metCutOff: false }),
    ]);
    const table = await app.inject({
      method: "GET",
      url: `/api/students/results/table?driveId=${driveId}&pageSize=50`,
      headers: admin,
    });
    expect(table.statusCode, table.body).toBe(200);
    const rows = table.json().rows as { marks: number; sections: unknown[] }[];
    expect(rows.find((row) => row.marks === 6)?.sections).toEqual(oneShort?.sections);
    for (const url of [`/api/drives/${driveId}/results.csv`, `/api/students/results/export.csv?driveId=${driveId}`]) {
      const csv = await app.inject({ method: "GET", url, headers: admin });
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.body.split("\n")[0]?.endsWith(",Answers in a burst,Sections")).toBe(true);
      expect(csv.body).toContain(
        ',"Quantitative Aptitude: 3 of 3 (100.00%), cut-off 50% met; Verbal Ability: 2 of 2 (100.00%); ' +
          'Technical: 1 of 2 (50.00%), cut-off 100% not met"\n',
      );
      expect(csv.body).toContain(
        ',"Quantitative Aptitude: 1.5 of 3 (50.00%), cut-off 50% met; Verbal Ability: 0 of 2 (0.00%); ' +
          'Technical: 2 of 2 (100.00%), cut-off 100% met"\n',
      );
    }
  });

  it("reads a sectioned test's outline before the clock: names, lengths, marking and cut-offs, not its bank", async () => {
    const registration = await app.inject({ method: "GET", url: `/api/auth/student/drive?code=${placementCode}` });
    const { token } = await registerStudent(app, { driveCode: placementCode });
    const intro = await app.inject({ method: "GET", url: "/api/quiz/intro", headers: bearer(token) });
    expect(intro.statusCode, intro.body).toBe(200);
    const ownTime = { timing: "section_clock", secondsPerQuestion: 30 };
    const outline = [
      { name: "Quantitative Aptitude", questionCount: 3, negativeMark: 0.5, cutOff: 50, ...ownTime },
      { name: "Verbal Ability", questionCount: 2, negativeMark: 0, cutOff: null, ...ownTime },
      { name: "Technical", questionCount: 2, negativeMark: 0, cutOff: 100, ...ownTime },
    ];
    expect(intro.json().sections).toEqual(outline);
    expect(registration.statusCode, registration.body).toBe(200);
    expect(registration.json().test.sections).toEqual(outline);
  });

  it("breaks ties in a drive's ranks by the sections the admin orders, before the time taken", async () => {
    const sectioned = await createTest({
      name: "Tie-breaks",
      timingMode: "whole_quiz",
      sections: [SECTIONS[0], { ...SECTIONS[1], questionCount: 2 }],
    });
    const drive = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: admin,
      payload: { name: "Tie-break drive", testId: sectioned.json()._id, tieBreakSections: ["Verbal Ability"] },
    });
    expect(drive.statusCode, drive.body).toBe(201);
    expect(drive.json().tieBreakSections).toEqual(["Verbal Ability"]);
    // Each 3 of 5 right: all Quant (fastest), all Verbal (slowest), and between the two.
    const candidates = [
      { name: "Quant First", right: (text: string) => text.startsWith("Quant"), seconds: 50 },
      { name: "Verbal First", right: (text: string) => text.startsWith("Verbal") || text === "Quant 1", seconds: 200 },
      { name: "Between", right: (text: string) => ["Quant 1", "Quant 2", "Verbal 1"].includes(text), seconds: 100 },
    ];
    for (const candidate of candidates) {
      const { token } = await registerStudent(app, { driveCode: drive.json().code, name: candidate.name });
      const started = (await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) })).json();
      const answers = (started as InProgress).questions.map((question) => ({
        questionId: question._id,
        optionId: question.options.find(
          (option) => option.text === (candidate.right(question.text) ? "right" : "wrong"),
        )?._id,
      }));
      // Wrong answers cost Quant 0.5 each: leave them unanswered, so every candidate has 3 marks.
      const given = answers.filter((_, index) => candidate.right((started as InProgress).questions[index]?.text ?? ""));
      const submitted = await app.inject({
        method: "POST",
        url: "/api/quiz/submit",
        headers: bearer(token),
        payload: { answers: given },
      });
      expect(submitted.statusCode, submitted.body).toBe(200);
      await database.pool.query(
        "update attempts set started_at = submitted_at - make_interval(secs => $2) where id = $1",
        [submitted.json().resultId, candidate.seconds],
      );
    }
    const order = async () => {
      const ranking = await app.inject({
        method: "GET",
        url: `/api/drives/${drive.json()._id}/ranking`,
        headers: admin,
      });
      expect(ranking.statusCode, ranking.body).toBe(200);
      const { rows, rule } = ranking.json() as { rows: { name: string; rank: number; marks: number }[]; rule: string };
      expect(rows.map((row) => row.marks)).toEqual([3, 3, 3]);
      return { ranks: rows.map((row) => [row.rank, row.name]), rule };
    };
    expect(await order()).toEqual({
      ranks: [
        [1, "Verbal First"],
        [2, "Between"],
        [3, "Quant First"],
      ],
      rule: expect.stringMatching(
        /^Ranked by score, then by the score in Verbal Ability, then by less time taken \(to the second\); candidates equal in all of these share a rank\./,
      ),
    });

    // Another order, through the drive's edit: Quant first.
    const edited = await app.inject({
      method: "PUT",
      url: `/api/drives/${drive.json()._id}`,
      headers: admin,
      payload: {
        name: "Tie-break drive",
        testId: sectioned.json()._id,
        tieBreakSections: ["Quantitative Aptitude", "Verbal Ability"],
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await order()).ranks).toEqual([
      [1, "Quant First"],
      [2, "Between"],
      [3, "Verbal First"],
    ]);
    // None: the time decides.
    await app.inject({
      method: "PUT",
      url: `/api/drives/${drive.json()._id}`,
      headers: admin,
      payload: { name: "Tie-break drive", testId: sectioned.json()._id, tieBreakSections: [] },
    });
    expect((await order()).ranks).toEqual([
      [1, "Quant First"],
      [2, "Between"],
      [3, "Verbal First"],
    ]);
    const csv = await app.inject({
      method: "GET",
      url: `/api/drives/${drive.json()._id}/shortlist.csv`,
      headers: admin,
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body.split("\n")[0]?.endsWith(",Drive,Test,Sections")).toBe(true);
    expect(csv.body).toContain(
      '"Quantitative Aptitude: 1 of 3 (33.33%), cut-off 50% not met; Verbal Ability: 2 of 2 (100.00%)"',
    );

    // Only the test's own sections, each once.
    for (const [tieBreakSections, message] of [
      [["Reasoning"], "Reasoning is not one of them"],
      [["Verbal Ability", "Verbal Ability"], "Each section breaks ties once"],
    ] as const) {
      const refused = await app.inject({
        method: "PUT",
        url: `/api/drives/${drive.json()._id}`,
        headers: admin,
        payload: { name: "Tie-break drive", testId: sectioned.json()._id, tieBreakSections },
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error).toContain(message);
    }
  });

  it("refuses sections that could draw the same question, and lets a category's difficulties go to different sections", async () => {
    const quant = { categories: ["Sections quant"], questionCount: 1 };
    const refusals: [object[], string][] = [
      [
        [
          { name: "First", ...quant },
          { name: "Second", categories: ["Sections verbal", "Sections quant"], questionCount: 1 },
        ],
        "Sections First and Second both draw Sections quant questions: give each category to one section",
      ],
      [
        [
          { name: "Anything", categories: [], questionCount: 1 },
          { name: "Second", ...quant },
        ],
        "Section Anything draws from every category, so it would take questions Second draws too: choose its categories",
      ],
      [
        [
          { name: "First", ...quant },
          { name: "Easy quant", categories: ["Sections quant"], difficultyMix: { easy: 1, medium: 0, hard: 0 } },
        ],
        "Sections First and Easy quant both draw Sections quant questions: give each category, or each of its difficulties, to one section",
      ],
    ];
    for (const [sections, message] of refusals) {
      const refused = await createTest({ name: "Overlapping sections", timingMode: "whole_quiz", sections });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error).toContain(message);
    }
    const split = await createTest({
      name: "Quant by difficulty",
      timingMode: "whole_quiz",
      sections: [
        { name: "Easy quant", categories: ["Sections quant"], difficultyMix: { easy: 2, medium: 0, hard: 0 } },
        { name: "Hard quant", categories: ["Sections quant"], difficultyMix: { easy: 0, medium: 0, hard: 1 } },
      ],
    });
    expect(split.statusCode, split.body).toBe(201);
  });

  it("never draws a question twice, even from sections stored sharing the bank", async () => {
    const stored = await createTest({ name: "Shared bank", timingMode: "whole_quiz", sections: SECTIONS.slice(0, 2) });
    expect(stored.statusCode, stored.body).toBe(201);
    // Sections no longer saved this way: the draw still takes each question once.
    const shared = [
      { name: "First", categories: ["Sections quant", "Sections verbal"], difficultyMix: null, questionCount: 4 },
      { name: "Second", categories: ["Sections verbal", "Sections quant"], difficultyMix: null, questionCount: 1 },
    ].map((section) => ({ ...section, negativeMark: 0, cutOff: null }));
    await database.pool.query("update tests set sections = $2, question_count = 5 where id = $1", [
      stored.json()._id,
      JSON.stringify(shared),
    ]);
    const { code } = await driveOf(stored.json()._id);
    for (let round = 0; round < 5; round++) {
      const { token } = await registerStudent(app, { driveCode: code });
      const started = await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) });
      const questions = (started.json() as InProgress).questions.map((question) => question._id);
      expect(questions).toHaveLength(5);
      expect(new Set(questions).size).toBe(5);
    }
  });

  it("refuses to start a secure test one of whose sections runs short, though the bank as a whole would do", async () => {
    // Questions no candidate has seen: 2 for a section of 3, and plenty for the other.
    for (let index = 1; index <= 2; index++) await addQuestion("Fresh verbal", `Fresh verbal ${index}`);
    for (let index = 1; index <= 5; index++) await addQuestion("Fresh quant", `Fresh quant ${index}`);
    const short = await createTest({
      name: "Short section",
      timingMode: "whole_quiz",
      reviewPolicy: "score_only",
      secure: true,
      sections: [
        { name: "Verbal", categories: ["Fresh verbal"], questionCount: 3 },
        { name: "Quant", categories: ["Fresh quant"], questionCount: 1 },
      ],
    });
    expect(short.statusCode, short.body).toBe(201);
    // The tests page says so before any start: what each section can draw, and 3 of the 4 asked for in all.
    expect(short.json().sectionsAvailable).toEqual([2, 5]);
    expect(short.json().available).toBe(3);
    const { token } = await registerStudent(app, { driveCode: (await driveOf(short.json()._id)).code });
    const started = await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) });
    expect(started.statusCode, started.body).toBe(409);
    expect(started.json().error).toContain("too few questions");
  });

  describe("as an outside attack bent it", () => {
    it("refuses a negative mark the marks could not hold, in a section or on the test", async () => {
      for (const negativeMark of [1e-50, 1e-320, 0.00001, 0.33333]) {
        for (const payload of [{ negativeMark }, { sections: [{ ...SECTIONS[0], negativeMark }, SECTIONS[1]] }]) {
          const refused = await createTest({ name: "Tiny negative mark", ...payload });
          expect(refused.statusCode, refused.body).toBe(400);
          expect(refused.json().error).toContain("Negative marking takes at most 4 decimals");
        }
      }
      const kept = await createTest({
        name: "A third off",
        sections: [{ ...SECTIONS[0], negativeMark: 0.3333 }, SECTIONS[1]],
      });
      expect(kept.statusCode, kept.body).toBe(201);
    });

    it("decides a cut-off and the pass mark on exact marks: 6 right and 4 wrong at 0.1 is 56%", async () => {
      for (let index = 1; index <= 10; index++) await addQuestion("Sections exact", `Exact ${index}`);
      const wrongOnFour = (text: string) =>
        ["Exact 7", "Exact 8", "Exact 9", "Exact 10"].includes(text) ? "wrong" : "right";
      const sectioned = await createTest({
        name: "Exact cut-off",
        timingMode: "whole_quiz",
        sections: [
          { name: "Exact", categories: ["Sections exact"], questionCount: 10, negativeMark: 0.1, cutOff: 56 },
          { name: "Verbal", categories: ["Sections verbal"], questionCount: 1 },
        ],
      });
      const plain = await createTest({
        name: "Exact pass mark",
        timingMode: "whole_quiz",
        categories: ["Sections exact"],
        questionCount: 10,
        negativeMark: 0.1,
        passMark: 56,
      });
      for (const [test, section] of [
        [sectioned, true],
        [plain, false],
      ] as const) {
        const { token } = await registerStudent(app, { driveCode: (await driveOf(test.json()._id)).code });
        const started = (await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) })).json();
        const answers = (started as InProgress).questions
          .filter((question) => question.text.startsWith("Exact"))
          .map((question) => ({
            questionId: question._id,
            optionId: question.options.find((option) => option.text === wrongOnFour(question.text))?._id,
          }));
        const submitted = await app.inject({
          method: "POST",
          url: "/api/quiz/submit",
          headers: bearer(token),
          payload: { answers },
        });
        const result = (
          await app.inject({
            method: "GET",
            url: `/api/quiz/result/${submitted.json().resultId}`,
            headers: bearer(token),
          })
        ).json() as ReleasedResult;
        if (section) {
          expect(result.sections[0]).toMatchObject({ score: 6, marks: 5.6, percentage: "56.00", metCutOff: true });
        } else {
          expect([result.marks, result.percentage]).toEqual([5.6, "56.00"]);
        }
        expect(result.passed).toBe(true);
      }
    });

    it("refuses to start a test one of whose sections has no question, rather than count its cut-off as met", async () => {
      const ghost = await createTest({
        name: "Ghost section",
        timingMode: "whole_quiz",
        sections: [
          { name: "Ghost", categories: ["sections quant"], questionCount: 3, cutOff: 50 },
          { name: "Verbal", categories: ["Sections verbal"], questionCount: 2 },
        ],
      });
      expect(ghost.json().sectionsAvailable).toEqual([0, 2]);
      expect(ghost.json().available).toBe(2);
      const { token } = await registerStudent(app, { driveCode: (await driveOf(ghost.json()._id)).code });
      const started = await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) });
      expect(started.statusCode, started.body).toBe(409);
      expect(started.json().error).toBe(
        "This test cannot start: its section Ghost has no questions in the bank. Please tell the invigilator.",
      );
    });

    it("saves again a sectioned test exactly as it reads it back, however many categories its sections name", async () => {
      const many = (prefix: string) => Array.from({ length: 30 }, (_, index) => `${prefix} ${index}`);
      const created = await createTest({
        name: "Many categories",
        sections: [
          { name: "First", categories: many("First"), questionCount: 2 },
          { name: "Second", categories: many("Second"), questionCount: 2 },
        ],
      });
      expect(created.statusCode, created.body).toBe(201);
      const { _id, isDefault, archived, available, sectionsAvailable, createdAt, ...settings } = created.json();
      const saved = await app.inject({ method: "PUT", url: `/api/tests/${_id}`, headers: admin, payload: settings });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().sections).toEqual(created.json().sections);
    });

    it("refuses section names that look the same on a screen", async () => {
      for (const [first, second] of [
        ["Café", "Cafe\u0301"],
        ["Quant  A", "quant a"],
        ["STRASSE", "straße"],
      ]) {
        const refused = await createTest({
          name: "Look-alike sections",
          sections: [
            { ...SECTIONS[0], name: first },
            { ...SECTIONS[1], name: second },
          ],
        });
        expect(refused.statusCode, refused.body).toBe(400);
        expect(refused.json().error).toContain("Each section needs a name of its own");
      }
    });

    it("closes every other overdue attempt when one cannot be scored, and names the one that could not", async () => {
      const closers: string[] = [];
      for (let round = 0; round < 2; round++) {
        const { token } = await registerStudent(app, { driveCode: placementCode });
        const started = await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) });
        closers.push(started.json().attemptId);
      }
      const [broken, sound] = closers as [string, string];
      await database.pool.query(
        `update attempts set deadline_at = now() - interval '1 hour', started_at = now() - interval '2 hours',
           current_started_at = now() - interval '2 hours' where id = any($1::uuid[])`,
        [closers],
      );
      // A stored section the scoring cannot read, as a value the database could not hold once made it.
      await database.pool.query(
        `update attempts set sections = '[{"name":"x","questionCount":"many"}]' where id = $1`,
        [broken],
      );
      const failed: string[] = [];
      await closeOverdueAttempts(database.db, (attemptId) => failed.push(attemptId));
      expect(failed).toEqual([broken]);
      const { rows } = await database.pool.query<{ id: string; submitted: boolean }>(
        "select id, submitted_at is not null as submitted from attempts where id = any($1::uuid[])",
        [closers],
      );
      expect(Object.fromEntries(rows.map((row) => [row.id, row.submitted]))).toEqual({
        [broken]: false,
        [sound]: true,
      });
      // Out of the way of the other tests' sweeps.
      await database.pool.query("delete from attempts where id = $1", [broken]);
    });
  });
  it("shows the live board each student's section while the attempt runs, and each section's part once submitted", async () => {
    const { _id: liveDriveId, code } = await driveOf(placement.json()._id);
    const running = await registerStudent(app, { driveCode: code, name: "Live Running" });
    const started = await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(running.token) });
    expect(started.statusCode, started.body).toBe(200);
    await sitQuiz(app, code, (text) => (text.startsWith("Quant") ? "right" : undefined));

    const board = await app.inject({ method: "GET", url: `/api/drives/${liveDriveId}/live`, headers: admin });
    expect(board.statusCode, board.body).toBe(200);
    const { students, positions } = board.json() as LiveBoard;
    const byName = Object.fromEntries(students.map((student) => [student.name, student]));
    // Timed as a whole, the student moves freely through every section: no question and no section is "theirs".
    expect(byName["Live Running"]).toMatchObject({ state: "in_progress", position: null, section: null, sections: [] });
    expect(students.find((student) => student.state === "submitted")?.sections).toEqual([
      {
        name: "Quantitative Aptitude",
        questionCount: 3,
        score: 3,
        marks: 3,
        percentage: "100.00",
        cutOff: 50,
        metCutOff: true,
      },
      {
        name: "Verbal Ability",
        questionCount: 2,
        score: 0,
        marks: 0,
        percentage: "0.00",
        cutOff: null,
        metCutOff: null,
      },
      { name: "Technical", questionCount: 2, score: 0, marks: 0, percentage: "0.00", cutOff: 100, metCutOff: false },
    ]);
    // The per-question table names each question's section, as the students were served them.
    const layout = SECTIONS.flatMap((section) => Array<string>(section.questionCount).fill(section.name));
    expect(positions.map((row) => row.section)).toEqual(layout.slice(0, positions.length));
    expect(positions.length).toBeGreaterThan(0);
  });
});
