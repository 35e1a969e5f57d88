// The served questions' texts that an instance keeps (question-contents.ts, issue 25): served at the revision the
// serving statement read, read again once the bank's row has changed; and the answer stored with a served
// question is always one of the options it was served with (the check that replaced a foreign key).
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, registerStudent } from "../../test/fixtures.ts";
import { servedQuizQuestions } from "./question-contents.ts";
import { questionContents } from "./repository/attempt-reads.ts";

describe("served questions kept in memory", async () => {
  const { app, database } = await createTestApp();
  const admin = bearer(await adminToken(app, database.db));
  const question = (text: string) => ({
    text,
    category: "Kept texts",
    difficulty: "easy",
    options: [
      { text: "*One*", isCorrect: true },
      { text: "Two", isCorrect: false },
    ],
  });

  /** A drive of one question from `category`; what it returns registers a student and starts (unawaited). */
  async function oneQuestionDrive(category: string) {
    const test = await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: admin,
      payload: { name: category, categories: [category], questionCount: 1, timingMode: "whole_quiz" },
    });
    const drive = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: admin,
      payload: { name: `${category} drive`, testId: test.json()._id },
    });
    return async () => {
      const { token } = await registerStudent(app, { driveCode: drive.json().code });
      return { token, started: app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) }) };
    };
  }

  it("serves the text of the revision a statement read, and reads the bank again after a change", async () => {
    const created = await app.inject({
      method: "POST",
      url: "/api/questions",
      headers: admin,
      payload: question("Before the change: **$x^2$**"),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json()._id as string;
    const [before] = await questionContents(database.db, [id]);
    if (!before) throw new Error("the question was not read");
    const reversed = before.options.map((option) => option._id).reverse();
    const [served] = await servedQuizQuestions(database.db, [
      { questionId: id, optionOrder: reversed, revision: before.revision },
    ]);
    expect(served?.text).toBe("Before the change: **$x^2$**");
    expect(served?.html).toContain("katex");
    expect(served?.options.map((option) => option._id)).toEqual(reversed);
    expect(served?.options.map((option) => option.html)).toEqual(["Two", "<em>One</em>"]);
    for (const option of served?.options ?? []) expect(Object.keys(option).sort()).toEqual(["_id", "html", "text"]);

    // Nobody was asked it yet, so the admin's change is made in place: a new revision of the same question.
    const changed = await app.inject({
      method: "PUT",
      url: `/api/questions/${id}`,
      headers: admin,
      payload: question("After the change"),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()._id).toBe(id);
    const [after] = await questionContents(database.db, [id]);
    if (!after) throw new Error("the question was not read");
    expect(after.revision).not.toBe(before.revision);
    const [servedAfter] = await servedQuizQuestions(database.db, [
      { questionId: id, optionOrder: after.options.map((option) => option._id), revision: after.revision },
    ]);
    expect(servedAfter?.text).toBe("After the change");
    expect(servedAfter?.options.map((option) => option.text)).toEqual(["*One*", "Two"]);
  });

  it("serves a start the question as an admin's change mid-start left it, text and options together", async () => {
    // An outside review's race: a question served once (kept at its revision), its student removed so that nobody
    // holds it and the admin may change it in place, the change landing between a start's draw and its insert.
    const category = "Changed mid-start";
    const created = await app.inject({
      method: "POST",
      url: "/api/questions",
      headers: admin,
      payload: { ...question("Before the change"), category },
    });
    const id = created.json()._id as string;
    const startIn = await oneQuestionDrive(category);
    const first = await startIn();
    expect((await first.started).json().questions[0].text).toBe("Before the change");
    const pool = database.db.$client;
    await pool.query(
      "delete from students where id in (select student_id from attempts a join attempt_questions aq on aq.attempt_id = a.id where aq.question_id = $1)",
      [id],
    );

    // The admin's change (what updateQuestion writes for a question nobody holds), held open while a start runs.
    const change = await pool.connect();
    try {
      await change.query("begin");
      await change.query("select id from questions where id = $1 for update", [id]);
      await change.query("update questions set text = 'After the change', updated_at = now() where id = $1", [id]);
      await change.query("delete from question_options where question_id = $1", [id]);
      await change.query(
        `insert into question_options (question_id, text, is_correct, weight, position)
         values ($1, 'Three', true, 100, 0), ($1, 'Four', false, 0, 1)`,
        [id],
      );
      const second = await startIn();
      // The start has drawn the question and now waits for the change: let the change land.
      for (let tries = 0; ; tries++) {
        const { rows } = await pool.query(
          "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
        );
        if (rows[0].n > 0) break;
        if (tries > 100) throw new Error("the start never waited for the change");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await change.query("commit");
      const started = await second.started;
      expect(started.statusCode, started.body).toBe(200);
      const [served] = started.json().questions;
      expect(served.text).toBe("After the change");
      expect(served.options.map((option: { text: string }) => option.text).sort()).toEqual(["Four", "Three"]);
      const resumed = await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(second.token) });
      expect(resumed.statusCode, resumed.body).toBe(200);
      expect(resumed.json().questions[0]).toEqual(served);
    } finally {
      change.release();
    }
  });

  it("stores an answer only among the options its question was served with", async () => {
    const startIn = await oneQuestionDrive("Kept texts");
    const other = await app.inject({
      method: "POST",
      url: "/api/questions",
      headers: admin,
      payload: { ...question("Another question"), category: "Elsewhere" },
    });
    const started = await (await startIn()).started;
    expect(started.statusCode, started.body).toBe(200);
    const pool = database.db.$client;
    const attemptId = started.json().attemptId as string;
    const foreignOption = other.json().options[0]._id as string;
    // An option of the bank, but not of the served question: a foreign key let this through.
    await expect(
      pool.query("update attempt_questions set selected_option_id = $1 where attempt_id = $2", [
        foreignOption,
        attemptId,
      ]),
    ).rejects.toThrow(/attempt_questions_choice_served/);
    await expect(
      pool.query("update attempt_questions set selected_option_ids = array[$1::uuid] where attempt_id = $2", [
        foreignOption,
        attemptId,
      ]),
    ).rejects.toThrow(/attempt_questions_choice_served/);
    const servedOption = started.json().questions[0].options[0]._id as string;
    await expect(
      pool.query(
        "update attempt_questions set selected_option_id = $1, selected_option_ids = array[$1::uuid] where attempt_id = $2",
        [servedOption, attemptId],
      ),
    ).rejects.toThrow(/attempt_questions_choice_served/);
    await pool.query("update attempt_questions set selected_option_id = $1 where attempt_id = $2", [
      servedOption,
      attemptId,
    ]);
  });
});
