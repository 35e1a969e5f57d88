// Single, multiple (all or nothing, and partial) and true/false questions through the quiz: what students are
// served, how each answer is taken and marked, and that a client knowing only the original calls (one optionId per
// question, all at once) keeps working.
import type { QuizQuestion } from "@trainwise/contract/quiz";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, registerStudent } from "../../test/fixtures.ts";

describe("question types in the quiz", async () => {
  const { app, database } = await createTestApp();
  const admin = bearer(await adminToken(app, database.db));
  const create = (payload: object) => app.inject({ method: "POST", url: "/api/questions", headers: admin, payload });

  const bank = [
    {
      text: "Single: which is right?",
      category: "Types",
      difficulty: "easy",
      options: [
        { text: "right", isCorrect: true },
        { text: "wrong one", isCorrect: false },
        { text: "wrong two", isCorrect: false },
      ],
    },
    {
      text: "All or nothing: choose a1 and a2",
      category: "Types",
      difficulty: "medium",
      type: "multiple",
      scoring: "all_or_nothing",
      options: [
        { text: "a1", isCorrect: true },
        { text: "a2", isCorrect: true },
        { text: "x1", isCorrect: false },
      ],
    },
    {
      text: "Partial: choose b1, b2 and b3",
      category: "Types",
      difficulty: "hard",
      type: "multiple",
      scoring: "partial",
      options: [
        { text: "b1", isCorrect: true },
        { text: "b2", isCorrect: true },
        { text: "b3", isCorrect: true },
        { text: "y1", isCorrect: false },
        { text: "y2", isCorrect: false },
      ],
    },
    {
      text: "True or false: the sky is blue",
      category: "Types",
      difficulty: "easy",
      type: "true_false",
      options: [
        { text: "False", isCorrect: false },
        { text: "true", isCorrect: true },
      ],
    },
  ];
  for (const question of bank) expect((await create(question)).statusCode).toBe(201);

  const byText = (questions: QuizQuestion[], start: string) => {
    const found = questions.find((question) => question.text.startsWith(start));
    if (!found) throw new Error(`no question ${start}`);
    return found;
  };
  const option = (question: QuizQuestion, text: string) => {
    const found = question.options.find((candidate) => candidate.text === text);
    if (!found) throw new Error(`no option ${text}`);
    return found._id;
  };
  const marksOf = (result: { answers: { question: { text: string }; mark: number; answered: boolean }[] }) =>
    Object.fromEntries(result.answers.map((answer) => [answer.question.text.split(":")[0], answer.mark]));

  it("validates each type: at least one right option, or exactly True and False with one right", async () => {
    const base = { text: "Q?", category: "Types", difficulty: "easy" };
    const refused = async (payload: object) => (await create(payload)).json().fields?.options;
    expect(
      await refused({
        ...base,
        type: "multiple",
        options: [
          { text: "a", isCorrect: false },
          { text: "b", isCorrect: false },
        ],
      }),
    ).toBe("Mark at least one option as correct");
    expect(
      await refused({
        ...base,
        options: [
          { text: "a", isCorrect: false },
          { text: "b", isCorrect: false },
        ],
      }),
    ).toBe("Mark at least one option as correct");
    // Several full-mark options make a single answer Moodle holds too (several-right.test.ts); true/false has one.
    expect(
      await refused({
        ...base,
        type: "true_false",
        options: [
          { text: "True", isCorrect: true },
          { text: "False", isCorrect: true },
        ],
      }),
    ).toBe("Mark exactly one option as correct");
    expect(
      await refused({
        ...base,
        type: "true_false",
        options: [
          { text: "True", isCorrect: true },
          { text: "False", isCorrect: false },
          { text: "Maybe", isCorrect: false },
        ],
      }),
    ).toBe("A true/false question has exactly two options, True and False");
    expect(
      await refused({
        ...base,
        type: "true_false",
        options: [
          { text: "Yes", isCorrect: true },
          { text: "No", isCorrect: false },
        ],
      }),
    ).toBe("A true/false question has exactly two options, True and False");
    expect((await create({ ...base, type: "essay", options: [] })).json().fields?.type).toBe(
      "Type must be single, multiple or true_false",
    );
  });

  it("stores the type and scoring, true/false options as True then False, and lists them", async () => {
    const listed = (
      await app.inject({ method: "GET", url: "/api/questions?category=Types", headers: admin })
    ).json() as { text: string; type: string; scoring: string; options: { text: string; isCorrect: boolean }[] }[];
    const trueFalse = listed.find((question) => question.text.startsWith("True or false"));
    expect(trueFalse).toMatchObject({
      type: "true_false",
      scoring: "all_or_nothing",
      options: [
        { text: "True", isCorrect: true },
        { text: "False", isCorrect: false },
      ],
    });
    expect(listed.find((question) => question.text.startsWith("Partial"))).toMatchObject({
      type: "multiple",
      scoring: "partial",
    });
    // A question made the original way (no type) is a single-answer question.
    expect(listed.find((question) => question.text.startsWith("Single"))).toMatchObject({
      type: "single",
      scoring: "all_or_nothing",
    });
  });

  it("keeps the original client working: one optionId per question, all at once, scored as before", async () => {
    const { token } = await registerStudent(app);
    const served = await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(token) });
    expect(served.statusCode).toBe(200);
    const questions = served.json() as QuizQuestion[];
    expect(questions).toHaveLength(4);
    for (const question of questions) {
      for (const shown of question.options) expect(Object.keys(shown).sort()).toEqual(["_id", "html", "text"]);
    }
    expect(byText(questions, "All or nothing").type).toBe("multiple");
    expect(
      byText(questions, "True or false")
        .options.map((shown) => shown.text)
        .sort(),
    ).toEqual(["False", "True"]);

    const single = byText(questions, "Single");
    const allOrNothing = byText(questions, "All or nothing");
    const partial = byText(questions, "Partial");
    const trueFalse = byText(questions, "True or false");
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(token),
      payload: {
        answers: [
          { questionId: single._id, optionId: option(single, "right") },
          // One right option of two: not all of them.
          { questionId: allOrNothing._id, optionId: option(allOrNothing, "a1") },
          // One right option of three: a third of the mark.
          { questionId: partial._id, optionId: option(partial, "b1") },
          { questionId: trueFalse._id, optionId: option(trueFalse, "True") },
        ],
      },
    });
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json().refused).toEqual([]);
    const result = (
      await app.inject({ method: "GET", url: `/api/quiz/result/${submitted.json().resultId}`, headers: bearer(token) })
    ).json();
    expect(result).toMatchObject({ score: 2, totalQuestions: 4, percentage: "58.33" });
    expect(result.marks).toBeCloseTo(2 + 1 / 3, 5);
    const marks = marksOf(result);
    expect(marks.Single).toBe(1);
    expect(marks["All or nothing"]).toBe(0);
    expect(marks.Partial).toBeCloseTo(1 / 3, 5);
    expect(marks["True or false"]).toBe(1);
  });

  it("takes several options in optionIds, marks all-or-nothing and partial, and floors partial at 0", async () => {
    const { token } = await registerStudent(app);
    const questions = (
      await app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(token) })
    ).json() as QuizQuestion[];
    const single = byText(questions, "Single");
    const allOrNothing = byText(questions, "All or nothing");
    const partial = byText(questions, "Partial");
    const trueFalse = byText(questions, "True or false");
    const save = (payload: object) =>
      app.inject({ method: "PUT", url: "/api/quiz/answers", headers: bearer(token), payload });

    const tooMany = await save({
      questionId: single._id,
      optionIds: [option(single, "right"), option(single, "wrong one")],
    });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().error).toBe("This question takes one answer only.");
    const foreign = await save({
      questionId: partial._id,
      optionIds: [option(partial, "b1"), option(single, "right")],
    });
    expect(foreign.json().error).toBe("That option does not belong to this question.");
    expect((await save({ questionId: partial._id, optionIds: [] })).statusCode).toBe(400);
    expect(
      (await save({ questionId: partial._id, optionId: option(partial, "b1"), optionIds: [option(partial, "b2")] }))
        .statusCode,
    ).toBe(400);

    expect(
      (
        await save({
          questionId: allOrNothing._id,
          optionIds: [option(allOrNothing, "a2"), option(allOrNothing, "a1")],
        })
      ).statusCode,
    ).toBe(200);
    // Two right, one wrong, of three right: (2 - 1) / 3.
    expect(
      (
        await save({
          questionId: partial._id,
          optionIds: [option(partial, "b1"), option(partial, "b2"), option(partial, "y1")],
        })
      ).statusCode,
    ).toBe(200);
    const state = (await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) })).json();
    expect(state.answers).toContainEqual({
      questionId: partial._id,
      optionIds: [option(partial, "b1"), option(partial, "b2"), option(partial, "y1")],
    });

    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(token),
      payload: { answers: [{ questionId: trueFalse._id, optionIds: [option(trueFalse, "False")] }] },
    });
    expect(submitted.json().refused).toEqual([]);
    const result = (
      await app.inject({ method: "GET", url: `/api/quiz/result/${submitted.json().resultId}`, headers: bearer(token) })
    ).json();
    const marks = marksOf(result);
    expect(marks["All or nothing"]).toBe(1);
    expect(marks.Partial).toBeCloseTo(1 / 3, 5);
    expect(marks["True or false"]).toBe(0);
    expect(marks.Single).toBe(0);
    expect(
      result.answers.find((answer: { question: { text: string } }) => answer.question.text.startsWith("Single")),
    ).toMatchObject({ answered: false, isCorrect: false });
    expect(result.score).toBe(1);
    expect(result.marks).toBeCloseTo(1 + 1 / 3, 5);
  });

  it("floors a partial mark at 0 and charges negative marking only for answers that score nothing", async () => {
    const { token } = await registerStudent(app);
    const questions = (
      await app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(token) })
    ).json() as QuizQuestion[];
    await database.pool.query(
      "update attempts set negative_mark = 0.25 where submitted_at is null and student_id = (select id from students order by created_at desc limit 1)",
    );
    const partial = byText(questions, "Partial");
    const allOrNothing = byText(questions, "All or nothing");
    const single = byText(questions, "Single");
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(token),
      payload: {
        answers: [
          // One right, two wrong: (1 - 2) / 3 is below 0, so 0, and a wrong answer.
          { questionId: partial._id, optionIds: [option(partial, "b1"), option(partial, "y1"), option(partial, "y2")] },
          { questionId: allOrNothing._id, optionIds: [option(allOrNothing, "a1"), option(allOrNothing, "a2")] },
          { questionId: single._id, optionId: option(single, "wrong one") },
        ],
      },
    });
    const result = (
      await app.inject({ method: "GET", url: `/api/quiz/result/${submitted.json().resultId}`, headers: bearer(token) })
    ).json();
    expect(marksOf(result).Partial).toBe(0);
    expect(result.score).toBe(1);
    expect(result.marks).toBeCloseTo(1 - 0.25 * 2, 5);
  });

  it("carries a multiple answer through our paced client's one-statement Next and save", async () => {
    const { token } = await registerStudent(app);
    let state = (await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) })).json();
    expect(state.paced).toBe(true);
    const answerFor = (question: QuizQuestion) => {
      if (question.type === "multiple") {
        const right = question.options.filter((shown) => /^[ab]\d$/.test(shown.text)).map((shown) => shown._id);
        return { questionId: question._id, optionIds: right };
      }
      const right = question.options.find((shown) => ["right", "True"].includes(shown.text));
      return { questionId: question._id, optionId: right?._id };
    };
    let question: QuizQuestion = state.question;
    for (let position = 1; position < 4; position++) {
      const moved = await app.inject({
        method: "POST",
        url: "/api/quiz/next",
        headers: bearer(token),
        payload: { position, answer: answerFor(question) },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      question = moved.json().question;
    }
    expect(
      (
        await app.inject({
          method: "PUT",
          url: "/api/quiz/answers",
          headers: bearer(token),
          payload: answerFor(question),
        })
      ).statusCode,
    ).toBe(200);
    state = (
      await app.inject({ method: "POST", url: "/api/quiz/submit", headers: bearer(token), payload: { answers: [] } })
    ).json();
    const result = (
      await app.inject({ method: "GET", url: `/api/quiz/result/${state.resultId}`, headers: bearer(token) })
    ).json();
    expect(result).toMatchObject({ score: 4, totalQuestions: 4, marks: 4, percentage: "100.00" });
  });
  it("counts a multiple answer as answered on the live board", async () => {
    const { input, token } = await registerStudent(app, { name: "Mala Multiple" });
    const questions = (
      await app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(token) })
    ).json() as QuizQuestion[];
    const partial = byText(questions, "Partial");
    const saved = await app.inject({
      method: "PUT",
      url: "/api/quiz/answers",
      headers: bearer(token),
      payload: { questionId: partial._id, optionIds: [option(partial, "b1"), option(partial, "b2")] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const drives = (await app.inject({ method: "GET", url: "/api/drives", headers: admin })).json() as {
      _id: string;
      isDefault: boolean;
    }[];
    const defaultDrive = drives.find((drive) => drive.isDefault);
    const live = await app.inject({ method: "GET", url: `/api/drives/${defaultDrive?._id}/live`, headers: admin });
    expect(live.statusCode, live.body).toBe(200);
    const row = (live.json().students as { name: string; answered: number }[]).find(
      (student) => student.name === input.name,
    );
    // The board read the single option's column only, and showed this student with nothing answered.
    expect(row).toMatchObject({ answered: 1 });
  });
});

describe("options with weights of their own in the quiz (issue 23, rows 1 and 2)", async () => {
  const { app, database } = await createTestApp();
  const admin = bearer(await adminToken(app, database.db));
  const create = (payload: object) => app.inject({ method: "POST", url: "/api/questions", headers: admin, payload });
  const weighted = [
    {
      text: "Spectrum: what is between orange and green?",
      category: "Weights",
      type: "multiple",
      scoring: "partial",
      options: [
        { text: "yellow", isCorrect: true, weight: 50 },
        { text: "red", isCorrect: false, weight: -100 },
        { text: "off-beige", isCorrect: true, weight: 50 },
        { text: "black", isCorrect: false, weight: -100 },
      ],
    },
    {
      text: "Seventy: which is best?",
      category: "Weights",
      type: "multiple",
      scoring: "partial",
      options: [
        { text: "first", isCorrect: true, weight: 70 },
        { text: "second", isCorrect: true, weight: 30 },
        { text: "third", isCorrect: false, weight: 0 },
        { text: "fourth", isCorrect: false, weight: -100 },
      ],
    },
    {
      text: "Eiffel: where is the tower?",
      category: "Weights",
      options: [
        { text: "Paris", isCorrect: true },
        { text: "France", isCorrect: false, weight: 50 },
        { text: "Mars", isCorrect: false, weight: -33.33333 },
      ],
    },
  ];
  for (const question of weighted) {
    const created = await create(question);
    expect(created.statusCode, created.body).toBe(201);
  }

  it("refuses a weight Moodle has no grade for, or one that disagrees with the option's correctness, in plain words", async () => {
    const base = { text: "W?", category: "Weights", type: "multiple", scoring: "partial" };
    const refused = async (options: object[]) => (await create({ ...base, options })).json().fields;
    expect(
      await refused([
        { text: "a", isCorrect: true, weight: 33 },
        { text: "b", isCorrect: false },
      ]),
    ).toEqual({ "options.0.weight": expect.stringMatching(/^Weight 33 is not a grade Moodle allows\. Use one of/) });
    expect(
      await refused([
        { text: "a", isCorrect: true, weight: -50 },
        { text: "b", isCorrect: false },
      ]),
    ).toEqual({ "options.0.weight": "A correct option needs a weight above 0" });
    expect(
      (
        await create({
          text: "S?",
          category: "Weights",
          options: [
            { text: "a", isCorrect: true, weight: 50 },
            { text: "b", isCorrect: false },
          ],
        })
      ).json().fields,
    ).toEqual({ "options.0.weight": "A correct option of a single-answer question is worth 100" });
  });

  it("lists each option's weight in the bank, and serves none of them to students", async () => {
    const listed = (
      await app.inject({ method: "GET", url: "/api/questions?category=Weights", headers: admin })
    ).json() as { text: string; options: { weight: number }[] }[];
    expect(listed.find((question) => question.text.startsWith("Eiffel"))?.options.map((o) => o.weight)).toEqual([
      100, 50, -33.33333,
    ]);
    const { token } = await registerStudent(app);
    const served = (
      await app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(token) })
    ).json() as QuizQuestion[];
    expect(served).toHaveLength(3);
    for (const question of served) {
      for (const shown of question.options) expect(Object.keys(shown).sort()).toEqual(["_id", "html", "text"]);
    }
  });

  it("marks by Moodle's rules: 0 for yellow, off-beige and red, 0.7 for the 70% option, half for France", async () => {
    const { token } = await registerStudent(app);
    const questions = (
      await app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(token) })
    ).json() as QuizQuestion[];
    const find = (start: string) => questions.find((question) => question.text.startsWith(start)) as QuizQuestion;
    const ids = (question: QuizQuestion, ...texts: string[]) =>
      question.options.filter((shown) => texts.includes(shown.text)).map((shown) => shown._id);
    const spectrum = find("Spectrum");
    const seventy = find("Seventy");
    const eiffel = find("Eiffel");
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(token),
      payload: {
        answers: [
          { questionId: spectrum._id, optionIds: ids(spectrum, "yellow", "off-beige", "red") },
          { questionId: seventy._id, optionIds: ids(seventy, "first") },
          { questionId: eiffel._id, optionId: ids(eiffel, "France")[0] },
        ],
      },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const result = (
      await app.inject({ method: "GET", url: `/api/quiz/result/${submitted.json().resultId}`, headers: bearer(token) })
    ).json();
    const marks = Object.fromEntries(
      result.answers.map((answer: { question: { text: string }; mark: number }) => [
        answer.question.text.split(":")[0],
        answer.mark,
      ]),
    );
    expect(marks.Spectrum).toBe(0);
    expect(marks.Seventy).toBeCloseTo(0.7, 6);
    expect(marks.Eiffel).toBe(0.5);
    expect(result.score).toBe(0);
    expect(result.marks).toBeCloseTo(1.2, 5);
  });
});
