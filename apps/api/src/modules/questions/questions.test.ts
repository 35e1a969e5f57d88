import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, registerStudent } from "../../test/fixtures.ts";

const newQuestion = {
  text: "Which planet is known as the red planet?",
  category: "General",
  difficulty: "easy",
  options: [
    { text: "Mars", isCorrect: true },
    { text: "Venus", isCorrect: false },
    { text: "Jupiter", isCorrect: false },
  ],
};

describe("/api/questions", async () => {
  const { app, database } = await createTestApp();
  const token = await adminToken(app, database.db);
  const create = (payload: object) =>
    app.inject({ method: "POST", url: "/api/questions", headers: bearer(token), payload });
  const list = async () => (await app.inject({ method: "GET", url: "/api/questions", headers: bearer(token) })).json();

  it("creates a question that appears at the top with its options and the correct one marked", async () => {
    await create({ ...newQuestion, text: "An older question?" });
    const response = await create(newQuestion);
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({ text: newQuestion.text, category: "General", difficulty: "easy" });
    expect(
      created.options.map((option: { text: string; isCorrect: boolean }) => [option.text, option.isCorrect]),
    ).toEqual([
      ["Mars", true],
      ["Venus", false],
      ["Jupiter", false],
    ]);
    expect((await list())[0]._id).toBe(created._id);
  });

  it("defaults the difficulty to medium", async () => {
    const { difficulty: _difficulty, ...withoutDifficulty } = newQuestion;
    expect((await create(withoutDifficulty)).json().difficulty).toBe("medium");
  });

  it.each([
    [{ text: " " }, "text", "Question is required"],
    [{ category: "" }, "category", "Category is required"],
    [{ difficulty: "extreme" }, "difficulty", "Difficulty must be easy, medium or hard"],
    [{ options: [{ text: "Only", isCorrect: true }] }, "options", "Add at least two options"],
    [
      {
        options: [
          { text: "A", isCorrect: false },
          { text: "B", isCorrect: false },
        ],
      },
      "options",
      "Mark at least one option as correct",
    ],
    [
      {
        type: "true_false",
        options: [
          { text: "True", isCorrect: true },
          { text: "False", isCorrect: true },
        ],
      },
      "options",
      "Mark exactly one option as correct",
    ],
    [
      {
        options: [
          { text: " ", isCorrect: true },
          { text: "B", isCorrect: false },
        ],
      },
      "options.0.text",
      "Option text is required",
    ],
    [
      {
        options: [
          { text: "ﬁle", isCorrect: true },
          { text: "file", isCorrect: false },
        ],
      },
      "options",
      'Two options read the same: "file"',
    ],
    [
      {
        options: [
          { text: "a", isCorrect: true },
          { text: "a\u200b", isCorrect: false },
        ],
      },
      "options.1.text",
      "Option text must not contain invisible characters or characters that change the text's direction",
    ],
    [
      { category: "Uni\u202e" },
      "category",
      "Category must not contain invisible characters or characters that change the text's direction",
    ],
  ])("refuses %o with a clear message", async (change, field, message) => {
    const before = (await list()).length;
    const response = await create({ ...newQuestion, ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields[field]).toBe(message);
    expect((await list()).length).toBe(before);
  });

  it("deletes a question nobody was asked, and archives one a student was served", async () => {
    const unused = (await create({ ...newQuestion, text: "Delete me?" })).json();
    const deleted = await app.inject({ method: "DELETE", url: `/api/questions/${unused._id}`, headers: bearer(token) });
    expect(deleted.statusCode).toBe(200);
    expect((await list()).some((question: { _id: string }) => question._id === unused._id)).toBe(false);
    expect((await database.pool.query("select 1 from questions where id = $1", [unused._id])).rowCount).toBe(0);

    const { token: studentToken } = await registerStudent(app);
    const served = (
      await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(studentToken) })
    ).json();
    const askedId = served[0]._id;
    expect(
      (await app.inject({ method: "DELETE", url: `/api/questions/${askedId}`, headers: bearer(token) })).statusCode,
    ).toBe(200);
    expect((await list()).some((question: { _id: string }) => question._id === askedId)).toBe(false);
    const { rows } = await database.pool.query("select archived_at from questions where id = $1", [askedId]);
    expect(rows[0].archived_at).not.toBeNull();
    const again = await app.inject({ method: "DELETE", url: `/api/questions/${askedId}`, headers: bearer(token) });
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe("Question not found.");
  });
});

describe("editing, filtering and CSV", async () => {
  const { app, database } = await createTestApp();
  const token = await adminToken(app, database.db);
  const auth = bearer(token);
  const create = (payload: object) => app.inject({ method: "POST", url: "/api/questions", headers: auth, payload });
  const importCsv = (csv: string) =>
    app.inject({
      method: "POST",
      url: "/api/questions/import",
      headers: { ...auth, "content-type": "text/csv" },
      payload: csv,
    });
  const count = async () =>
    Number((await database.pool.query("select count(*) from questions where archived_at is null")).rows[0].count);

  it("edits a question nobody was asked in place", async () => {
    const created = (await create(newQuestion)).json();
    const response = await app.inject({
      method: "PUT",
      url: `/api/questions/${created._id}`,
      headers: auth,
      payload: {
        ...newQuestion,
        text: "Which planet is red?",
        options: [
          { text: "Mars", isCorrect: false },
          { text: "Mercury", isCorrect: true },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ _id: created._id, text: "Which planet is red?" });
    expect(response.json().options.map((option: { isCorrect: boolean }) => option.isCorrect)).toEqual([false, true]);
  });

  it("filters by category, difficulty and text, and pages with a total", async () => {
    for (let index = 0; index < 5; index++)
      await create({ ...newQuestion, category: "Paging", text: `Paged question ${index}?` });
    const page = await app.inject({
      method: "GET",
      url: "/api/questions?category=Paging&page=2&pageSize=2",
      headers: auth,
    });
    expect(page.headers["x-total-count"]).toBe("5");
    expect(page.json().map((question: { text: string }) => question.text)).toEqual([
      "Paged question 2?",
      "Paged question 1?",
    ]);
    const search = await app.inject({ method: "GET", url: "/api/questions?search=question%203", headers: auth });
    expect(search.json().map((question: { text: string }) => question.text)).toEqual(["Paged question 3?"]);
    const hard = await app.inject({ method: "GET", url: "/api/questions?difficulty=hard", headers: auth });
    expect(hard.json()).toEqual([]);
    const odd = await app.inject({ method: "GET", url: "/api/questions?search=%25_%5C", headers: auth });
    expect(odd.json()).toEqual([]);
    const categories = await app.inject({ method: "GET", url: "/api/questions/categories", headers: auth });
    expect(categories.json()).toContain("Paging");
  });

  it("imports a good file whole", async () => {
    const before = await count();
    const csv = [
      "text,category,difficulty,correct,option1,option2,option3",
      "What is 2 + 2?,Aptitude,easy,2,3,4,5",
      '"Which, with a comma?",Reasoning,Hard,1,"Yes, this",No,',
    ].join("\n");
    const response = await importCsv(csv);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ imported: 2, skipped: 0 });
    expect(await count()).toBe(before + 2);
    const imported = (await app.inject({ method: "GET", url: "/api/questions?search=comma", headers: auth })).json();
    expect(imported[0]).toMatchObject({ text: "Which, with a comma?", difficulty: "hard" });
    expect(imported[0].options).toEqual([
      expect.objectContaining({ text: "Yes, this", isCorrect: true }),
      expect.objectContaining({ text: "No", isCorrect: false }),
    ]);
  });

  it("rejects a file with bad rows whole, naming every bad line", async () => {
    const before = await count();
    const csv = [
      "text,category,difficulty,correct,option1,option2",
      "A fine question?,Aptitude,easy,1,Yes,No",
      ",Aptitude,easy,1,Yes,No",
      "Bad difficulty?,Aptitude,extreme,1,Yes,No",
      "Correct out of range?,Aptitude,easy,5,Yes,No",
      "One option only?,Aptitude,easy,1,Yes,",
    ].join("\n");
    const response = await importCsv(csv);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe("Nothing was imported: 4 problems in the file.");
    expect(response.json().fields).toEqual({
      "line 3": "Question is required",
      "line 4": "Difficulty must be easy, medium or hard",
      "line 5": "correct must be the number of one of the 2 options",
      "line 6": "Add at least two options",
    });
    expect(await count()).toBe(before);
  });

  it("rejects a file without the needed columns, an empty file and broken CSV", async () => {
    expect((await importCsv("question,answer\nA,B")).json().fields).toEqual({
      file: "Missing columns: text, category, difficulty, correct, option1, option2.",
    });
    expect((await importCsv("")).json().fields).toEqual({ file: "The file has no questions." });
    expect(
      (await importCsv('text,category,difficulty,correct,option1,option2\n"unclosed,A,easy,1,a,b')).statusCode,
    ).toBe(400);
  });

  it("exports the bank as CSV that imports again, and offers a template", async () => {
    const exported = await app.inject({ method: "GET", url: "/api/questions/export.csv", headers: auth });
    expect(exported.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(exported.headers["content-disposition"]).toBe('attachment; filename="questions.csv"');
    expect(exported.body.split("\n")[0]).toBe(
      "text,category,difficulty,type,scoring,correct,weights,option1,option2,option3,option4,option5,option6,option7,option8,option9,option10",
    );
    const before = await count();
    expect((await importCsv(exported.body)).json()).toEqual({ imported: before, skipped: 0 });
    const template = await app.inject({ method: "GET", url: "/api/questions/template.csv", headers: auth });
    expect((await importCsv(template.body)).json()).toEqual({ imported: 3, skipped: 0 });
  });
});
