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
      "Mark exactly one option as correct",
    ],
    [
      {
        options: [
          { text: "A", isCorrect: true },
          { text: "B", isCorrect: true },
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
