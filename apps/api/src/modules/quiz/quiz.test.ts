// Quiz integrity (issue: the quiz cannot be cheated from the browser).
import type { QuizQuestion } from "@trainwise/contract/quiz";
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, registerStudent, seedQuestions, servedInOrder } from "../../test/fixtures.ts";
import { closeOverdueAttempts } from "./service.ts";

const QUESTION_COUNT = 30;

describe("the quiz", async () => {
  const { app, database } = await createTestApp();
  await seedQuestions(database.db, QUESTION_COUNT);
  const correctOptionIds = new Set(
    (await database.pool.query<{ id: string }>("select id from question_options where is_correct")).rows.map(
      (row) => row.id,
    ),
  );

  /**
   * Starts a paced attempt as our own client does. The client sees one question at a time; the test reads every
   * served question, in order and as the student would see it, from the database.
   */
  async function start(appInstance: FastifyInstance = app) {
    const { token } = await registerStudent(appInstance);
    const response = await appInstance.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    const state = response.json();
    expect(state).toMatchObject({ status: "in_progress", paced: true, currentIndex: 0, questions: [] });
    const questions = await servedInOrder(database.pool, state.attemptId);
    expect(state.question).toEqual(questions[0]);
    return { token, questions };
  }

  it("starts no attempt for a HEAD request: only a GET of the questions starts the clock", async () => {
    const { token } = await registerStudent(app);
    const head = await app.inject({ method: "HEAD", url: "/api/quiz/questions", headers: bearer(token) });
    expect(head.statusCode).toBe(405);
    expect(head.headers.allow).toBe("GET");
    const attempts = await database.pool.query(
      "select count(*)::int as n from attempts a join students s on s.id = a.student_id where s.email = $1",
      [(await database.pool.query("select email from students order by created_at desc limit 1")).rows[0].email],
    );
    expect(attempts.rows[0].n).toBe(0);
  });

  /** The right option of a served question, found through the option texts (the test knows the key). */
  const rightOption = (question: QuizQuestion) =>
    question.options.find((option) => option.text.startsWith("right"))?._id ?? "";
  const wrongOption = (question: QuizQuestion) =>
    question.options.find((option) => option.text.startsWith("wrong"))?._id ?? "";

  async function answer(token: string, questionId: string, optionId: string) {
    return app.inject({
      method: "PUT",
      url: "/api/quiz/answers",
      headers: bearer(token),
      payload: { questionId, optionId },
    });
  }
  async function next(token: string, position: number) {
    return app.inject({ method: "POST", url: "/api/quiz/next", headers: bearer(token), payload: { position } });
  }
  async function submit(token: string, answers: { questionId: string; optionId: string }[] = []) {
    return app.inject({ method: "POST", url: "/api/quiz/submit", headers: bearer(token), payload: { answers } });
  }
  async function result(token: string, id: string) {
    return app.inject({ method: "GET", url: `/api/quiz/result/${id}`, headers: bearer(token) });
  }
  /** Moves an attempt's clock back, as if `seconds` had passed since its current question opened. */
  async function age(token: string, seconds: number) {
    const state = await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) });
    await database.pool.query(
      "update attempts set current_started_at = current_started_at - make_interval(secs => $2), started_at = started_at - make_interval(secs => $2), deadline_at = deadline_at - make_interval(secs => $2) where id = $1",
      [state.json().attemptId, seconds],
    );
  }

  it("serves 25 random distinct questions with shuffled options and no correctness field", async () => {
    const { questions } = await start();
    expect(questions).toHaveLength(25);
    expect(new Set(questions.map((question) => question._id)).size).toBe(25);
    for (const question of questions) {
      expect(question.options).toHaveLength(4);
      for (const option of question.options) expect(Object.keys(option).sort()).toEqual(["_id", "html", "text"]);
    }
    const orders = questions.map((question) => question.options.findIndex((option) => option.text.startsWith("right")));
    expect(new Set(orders).size, "the right option is not always in the same place").toBeGreaterThan(1);
  });

  it("resumes the same questions in the same order, with the question and time left", async () => {
    const { token, questions } = await start();
    expect((await answer(token, questions[0]?._id ?? "", rightOption(questions[0] as QuizQuestion))).statusCode).toBe(
      200,
    );
    expect((await next(token, 1)).statusCode).toBe(200);
    await age(token, 12);
    // The original client's call on a paced attempt: the questions whose windows have opened, and not one more.
    const again = await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(token) });
    expect(again.json()).toEqual(questions.slice(0, 2));
    const state = (await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) })).json();
    expect(state).toMatchObject({ status: "in_progress", currentIndex: 1, totalQuestions: 25, secondsPerQuestion: 30 });
    expect(state.secondsLeft).toBeGreaterThanOrEqual(17);
    expect(state.secondsLeft).toBeLessThanOrEqual(18);
    expect(state.answers).toEqual([
      { questionId: questions[0]?._id, optionId: rightOption(questions[0] as QuizQuestion) },
    ]);
  });

  it("scores right and wrong answers; unanswered count as wrong; total is the number served", async () => {
    const { token, questions } = await start();
    // Right on 0, 2, 4; wrong on 1, 3; nothing after.
    for (let position = 0; position < 5; position++) {
      const question = questions[position] as QuizQuestion;
      const optionId = position % 2 === 0 ? rightOption(question) : wrongOption(question);
      expect((await answer(token, question._id, optionId)).statusCode).toBe(200);
      expect((await next(token, position + 1)).statusCode).toBe(200);
    }
    const submitted = await submit(token);
    expect(submitted.statusCode).toBe(200);
    const { resultId } = submitted.json();
    const response = await result(token, resultId);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ resultId, score: 3, totalQuestions: 25 });
    expect(body.answers).toHaveLength(25);
    expect(body.answers.map((entry: { isCorrect: boolean }) => entry.isCorrect).slice(0, 6)).toEqual([
      true,
      false,
      true,
      false,
      true,
      false,
    ]);
    expect(body.answers[0].question.text).toBe(questions[0]?.text);
    // Unanswered questions score like wrong ones but say they were not answered (the result page says so).
    expect(body.answers.map((entry: { answered: boolean }) => entry.answered)).toEqual(
      Array.from({ length: 25 }, (_, position) => position < 5),
    );
  });

  it("counts only served questions, each once, and only their own options", async () => {
    const { token, questions } = await start();
    const notServed = await database.pool.query<{ id: string }>(
      "select q.id from questions q where q.id <> all($1::uuid[]) limit 1",
      [questions.map((question) => question._id)],
    );
    const foreignQuestionId = notServed.rows[0]?.id ?? "";
    const first = questions[0] as QuizQuestion;
    const second = questions[1] as QuizQuestion;

    const foreign = await answer(token, foreignQuestionId, rightOption(first));
    expect(foreign.statusCode).toBe(409);
    expect(foreign.json().error).toBe("That question is not part of your quiz.");
    const borrowed = await answer(token, first._id, rightOption(second));
    expect(borrowed.statusCode).toBe(409);
    expect(borrowed.json().error).toBe("That option does not belong to this question.");
    const ahead = await answer(token, second._id, rightOption(second));
    expect(ahead.statusCode).toBe(409);
    expect(ahead.json().error).toBe("That question is not open yet.");

    // A forged submit: every question answered right, duplicates, questions not served.
    const forged = [
      ...questions.map((question) => ({ questionId: question._id, optionId: rightOption(question) })),
      ...questions.map((question) => ({ questionId: question._id, optionId: rightOption(question) })),
      { questionId: foreignQuestionId, optionId: rightOption(first) },
    ];
    const { resultId } = (await submit(token, forged)).json();
    const body = (await result(token, resultId)).json();
    // Only the open question (the first) could still be answered; the rest had not been reached.
    expect(body.score).toBe(1);
    expect(body.totalQuestions).toBe(25);
    expect(body.score).toBeLessThanOrEqual(body.totalQuestions);
  });

  it("saves the answer Next carries, takes a repeated Next without change, and moves on past a refused answer", async () => {
    const { token, questions } = await start();
    const carry = (position: number, question: QuizQuestion | undefined, optionId: string) =>
      app.inject({
        method: "POST",
        url: "/api/quiz/next",
        headers: bearer(token),
        payload: { position, answer: { questionId: question?._id, optionId } },
      });
    const first = questions[0] as QuizQuestion;
    const moved = await carry(1, first, rightOption(first));
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ currentIndex: 1, question: questions[1] });
    // A retry of that Next (its reply lost): the same question, the answer as it was, and no word of a refusal.
    const retried = await carry(1, first, rightOption(first));
    expect(retried.json()).toEqual(moved.json());
    // Another answer sent with it is not taken, and the reply says so.
    const again = await carry(1, first, wrongOption(first));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      currentIndex: 1,
      question: questions[1],
      refused: "Time is up for that question; its answer can no longer change.",
    });
    // An option of another question is not taken, and does not stop the move.
    const second = questions[1] as QuizQuestion;
    const stray = await carry(2, second, rightOption(first));
    expect(stray.json()).toMatchObject({ currentIndex: 2, question: questions[2] });
    // The timer closed question 3's window (and the grace) while the student sat on it: Next still moves on.
    const third = questions[2] as QuizQuestion;
    await age(token, 30 + 11);
    const late = await carry(4, third, rightOption(third));
    expect(late.statusCode).toBe(200);
    expect(late.json()).toMatchObject({
      currentIndex: 4,
      question: questions[4],
      refused: "Time is up for that question; its answer can no longer change.",
    });
    const state = (await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) })).json();
    expect(state.answers).toEqual([{ questionId: first._id, optionId: rightOption(first) }]);
  });

  it("records when each answer came, which admins see beside the focus losses the page reports", async () => {
    // A page that never reports a lost focus: what it cannot hide is when its answers reach the server.
    const { token, questions } = await start();
    const [first, second, third] = questions as [QuizQuestion, QuizQuestion, QuizQuestion];
    // A placeholder saved at once, then the answer that stands, 25 s into the question's 30.
    expect((await answer(token, first._id, wrongOption(first))).statusCode).toBe(200);
    await age(token, 25);
    expect((await answer(token, first._id, rightOption(first))).statusCode).toBe(200);
    expect((await next(token, 1)).statusCode).toBe(200);
    const carried = await app.inject({
      method: "POST",
      url: "/api/quiz/next",
      headers: bearer(token),
      payload: { position: 2, answer: { questionId: second._id, optionId: rightOption(second) } },
    });
    expect(carried.statusCode).toBe(200);
    const { resultId } = (await submit(token, [{ questionId: third._id, optionId: rightOption(third) }])).json();

    const asAdmin = bearer(await adminToken(app, database.db));
    const detail = (
      await app.inject({ method: "GET", url: `/api/students/results/${resultId}`, headers: asAdmin })
    ).json();
    // Question 1's answer came 25 s into its 30; the three answers that stand came within 3 s of each other.
    expect(detail).toMatchObject({ focusLosses: 0, lateAnswers: 1, burstAnswers: 3 });
    expect(detail.answers.slice(0, 4).map((row: { secondsToAnswer: number | null }) => row.secondsToAnswer)).toEqual([
      25,
      0,
      0,
      null,
    ]);
    const [{ drive_id: driveId }] = (
      await database.pool.query("select drive_id from attempts where id = $1", [resultId])
    ).rows;
    const results = (
      await app.inject({ method: "GET", url: `/api/drives/${driveId}/results`, headers: asAdmin })
    ).json();
    expect(results.find((row: { _id: string }) => row._id === resultId)).toMatchObject({
      focusLosses: 0,
      lateAnswers: 1,
      burstAnswers: 3,
    });
  });

  it("lets the timer move on: an answer to a closed question is refused, the next one is open", async () => {
    const { token, questions } = await start();
    await age(token, 30 + 11);
    const late = await answer(token, questions[0]?._id ?? "", rightOption(questions[0] as QuizQuestion));
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe("Time is up for that question; its answer can no longer change.");
    const open = await answer(token, questions[1]?._id ?? "", rightOption(questions[1] as QuizQuestion));
    expect(open.statusCode).toBe(200);
    expect(open.json()).toMatchObject({ currentIndex: 1 });
  });

  it("refuses answers after the attempt's deadline and closes it, scoring what was saved", async () => {
    const { token, questions } = await start();
    expect((await answer(token, questions[0]?._id ?? "", rightOption(questions[0] as QuizQuestion))).statusCode).toBe(
      200,
    );
    await age(token, 25 * 30 + 11);
    const late = await answer(token, questions[24]?._id ?? "", rightOption(questions[24] as QuizQuestion));
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe("Time is up: your quiz has been submitted.");
    const state = (await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) })).json();
    expect(state.status).toBe("submitted");
    expect((await result(token, state.resultId)).json()).toMatchObject({ score: 1, totalQuestions: 25 });
  });

  it("closes an overdue attempt when it is read, scoring what was saved", async () => {
    const stateOf = async (token: string) =>
      (await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) })).json();

    const viaState = await start();
    const first = viaState.questions[0] as QuizQuestion;
    expect((await answer(viaState.token, first._id, rightOption(first))).statusCode).toBe(200);
    await age(viaState.token, 25 * 30 + 11);
    const state = await stateOf(viaState.token);
    expect(state.status).toBe("submitted");
    expect((await result(viaState.token, state.resultId)).json()).toMatchObject({ score: 1, totalQuestions: 25 });

    const viaResult = await start();
    const { attemptId, status } = await stateOf(viaResult.token);
    expect(status).toBe("in_progress");
    expect((await result(viaResult.token, attemptId)).statusCode).toBe(409);
    const opening = viaResult.questions[0] as QuizQuestion;
    expect((await answer(viaResult.token, opening._id, rightOption(opening))).statusCode).toBe(200);
    await age(viaResult.token, 25 * 30 + 11);
    const read = await result(viaResult.token, attemptId);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ resultId: attemptId, score: 1, totalQuestions: 25 });
  });

  it("closes overdue attempts by itself", async () => {
    const { token, questions } = await start();
    await answer(token, questions[0]?._id ?? "", rightOption(questions[0] as QuizQuestion));
    await age(token, 25 * 30 + 11);
    expect(await closeOverdueAttempts(database.db)).toBeGreaterThanOrEqual(1);
    const { rows } = await database.pool.query(
      "select a.score, a.submitted_at from attempts a join attempt_questions aq on aq.attempt_id = a.id where aq.question_id = $1 and a.submitted_at is not null",
      [questions[0]?._id],
    );
    expect(rows.some((row) => row.score === 1)).toBe(true);
  });

  it("returns the same result when submitted twice, and allows one attempt only", async () => {
    const { token } = await start();
    const first = (await submit(token)).json();
    const second = (await submit(token)).json();
    expect(second).toEqual(first);
    const again = await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(token) });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("You have already completed the quiz. Ask an admin if you need another attempt.");
  });

  it("keeps each student to their own result and away from admin routes", async () => {
    const alice = await start();
    const bob = await start();
    const { resultId } = (await submit(alice.token)).json();
    const peek = await result(bob.token, resultId);
    expect(peek.statusCode).toBe(404);
    expect(peek.json().error).toBe("Result not found.");
    for (const url of ["/api/questions", "/api/students", "/api/students/results/all", "/api/contact"]) {
      expect((await app.inject({ method: "GET", url, headers: bearer(alice.token) })).statusCode).toBe(403);
    }
    const admin = await adminToken(app, database.db);
    expect((await app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(admin) })).statusCode).toBe(
      403,
    );
  });

  it("never sends the answer key to a student, before or after submitting", async () => {
    const { token, questions } = await start();
    const during = [
      await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(token) }),
      await answer(token, questions[0]?._id ?? "", wrongOption(questions[0] as QuizQuestion)),
      await next(token, 1),
      await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) }),
    ];
    for (const response of during) expect(response.body).not.toMatch(/correct/i);
    const submitted = await submit(token);
    expect(submitted.body).not.toMatch(/correct/i);
    const after = await result(token, submitted.json().resultId);
    // The result says whether each answer was right and what the student chose, but not the right option while the
    // drive is open (the default drive never closes), so a wrong answer reveals nothing more than its tick.
    for (const id of correctOptionIds) expect(after.body).not.toContain(id);
    for (const question of questions)
      for (const option of question.options) expect(after.body).not.toContain(option._id);
    expect(after.body).not.toMatch(/"right \d+"/);
    expect(after.json().answers[0]).toEqual({
      questionId: questions[0]?._id,
      isCorrect: false,
      answered: true,
      mark: 0,
      question: { text: questions[0]?.text, html: `<p>${questions[0]?.text}</p>` },
      chosen: [questions[0]?.options.find((option) => option.text.startsWith("wrong"))?.text],
      right: [],
    });
    expect(after.json().review).toMatchObject({ ticksShown: true, rightShown: false, rightFrom: null });
  });

  it("has no questions to serve in an empty bank", async () => {
    const empty = await createTestApp();
    const { token } = await registerStudent(empty.app);
    const response = await empty.app.inject({
      method: "GET",
      url: "/api/quiz/questions?limit=25",
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe("No quiz questions are available yet. Please try again later.");
  });

  it("validates its input", async () => {
    const { token } = await start();
    expect(
      (await app.inject({ method: "GET", url: "/api/quiz/questions?limit=26", headers: bearer(token) })).json().error,
    ).toBe("limit must be at most 25");
    expect((await answer(token, "not-an-id", "also-not")).statusCode).toBe(400);
    const before = await app.inject({
      method: "POST",
      url: "/api/quiz/next",
      headers: bearer(token),
      payload: { position: -1 },
    });
    expect(before.json().fields).toEqual({ position: "position must be at least 1" });
    expect(
      (
        await app.inject({
          method: "POST",
          url: "/api/quiz/submit",
          headers: bearer(token),
          payload: { answers: "all" },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await app.inject({ method: "GET", url: "/api/quiz/result/123", headers: bearer(token) })).json().error,
    ).toBe("Not a valid id");
  });
});
