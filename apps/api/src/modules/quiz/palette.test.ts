// Issue 26, item 2: the palette of a quiz timed as a whole. The student opens questions in any order, marks them
// for review and clears answers; the server keeps each of these, so a reload rebuilds the same palette, and it
// stays the only judge of time and of what is answered. A paced quiz keeps its one-way flow and has no palette.
import type { AttemptState, QuizQuestion } from "@trainwise/contract/quiz";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, seedCategory, studentInput } from "../../test/fixtures.ts";

type InProgress = Extract<AttemptState, { status: "in_progress" }>;

describe("the palette of a quiz timed as a whole", async () => {
  const { app, database } = await createTestApp();
  const asAdmin = bearer(await adminToken(app, database.db));
  let addresses = 0;
  afterEach(() => vi.useRealTimers());

  async function driveOn(name: string, timingMode: "whole_quiz" | "per_question") {
    await seedCategory(database.pool, name, 4);
    const test = await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: asAdmin,
      payload: { name, categories: [name], questionCount: 4, timingMode, secondsPerQuestion: 30 },
    });
    expect(test.statusCode, test.body).toBe(201);
    const drive = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: asAdmin,
      payload: { name: `${name} drive`, organisation: "Lakeview Institute", testId: test.json()._id },
    });
    expect(drive.statusCode, drive.body).toBe(201);
    return drive.json().code as string;
  }

  /** A student of the drive `code`, started on the quiz through our client's call. */
  async function started(code: string) {
    const registered = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: studentInput({ driveCode: code }),
      remoteAddress: `10.26.2.${++addresses}`,
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const headers = bearer(registered.json().token as string);
    const start = await app.inject({ method: "POST", url: "/api/quiz/start", headers });
    expect(start.statusCode, start.body).toBe(200);
    return { headers, state: start.json() as InProgress };
  }

  const palette = (headers: Record<string, string>, payload: object) =>
    app.inject({ method: "PUT", url: "/api/quiz/palette", headers, payload });
  const attempt = async (headers: Record<string, string>) =>
    (await app.inject({ method: "GET", url: "/api/quiz/attempt", headers })).json() as InProgress;
  const right = (question: QuizQuestion) => question.options.find((option) => option.text.startsWith("right"))?._id;

  it("keeps what was opened, marked and cleared, so that a reload shows the same palette", async () => {
    const { headers, state } = await started(await driveOn("Palette kept", "whole_quiz"));
    expect(state).toMatchObject({ paced: false, visited: [], marked: [] });
    const [first, second, third] = state.questions as [QuizQuestion, QuizQuestion, QuizQuestion];

    // Opened out of order: the third, then the second, marked for review and answered.
    for (const change of [{ position: 2 }, { position: 1, marked: true }]) {
      const changed = await palette(headers, change);
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ currentIndex: 0 });
      expect(changed.json().secondsLeft).toBeGreaterThan(100);
    }
    const answered = await app.inject({
      method: "PUT",
      url: "/api/quiz/answers",
      headers,
      payload: { questionId: second._id, optionId: right(second) },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    const reloaded = await attempt(headers);
    expect(reloaded.visited).toEqual([second._id, third._id]);
    expect(reloaded.marked).toEqual([second._id]);
    expect(reloaded.answers).toEqual([{ questionId: second._id, optionId: right(second) }]);

    // Cleared: no answer at all, as before one was chosen; still marked until unmarked.
    expect((await palette(headers, { position: 1, clear: true })).statusCode).toBe(200);
    const cleared = await attempt(headers);
    expect(cleared.answers).toEqual([]);
    expect(cleared.marked).toEqual([second._id]);
    const { rows } = await database.pool.query(
      `select selected_option_id, selected_option_ids, answered_at, visited_at is not null as visited
       from attempt_questions where attempt_id = $1 and position = 1`,
      [state.attemptId],
    );
    expect(rows).toEqual([{ selected_option_id: null, selected_option_ids: null, answered_at: null, visited: true }]);
    expect((await palette(headers, { position: 1, marked: false })).statusCode).toBe(200);
    expect((await attempt(headers)).marked).toEqual([]);

    // Opening a question again keeps when it was first opened, and writes nothing (the row's version stays).
    const version = () =>
      database.pool.query(
        "select visited_at, xmin::text from attempt_questions where attempt_id = $1 and position = 2",
        [state.attemptId],
      );
    const before = await version();
    expect((await palette(headers, { position: 2 })).statusCode).toBe(200);
    expect((await palette(headers, { position: 2, marked: false })).statusCode).toBe(200);
    expect((await version()).rows).toEqual(before.rows);

    // The cleared answer is not scored; the first question's, sent at submit, is.
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers,
      payload: { answers: [{ questionId: first._id, optionId: right(first) }] },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const { rows: scored } = await database.pool.query("select score from attempts where id = $1", [state.attemptId]);
    expect(scored).toEqual([{ score: 1 }]);
  });

  it("refuses a paced quiz, a question outside the quiz and a closed attempt, and keeps each palette its own", async () => {
    const paced = await started(await driveOn("Palette paced", "per_question"));
    const refused = await palette(paced.headers, { position: 0, marked: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      "This quiz gives each question its own time, one after another: it has no palette.",
    );

    const code = await driveOn("Palette bounds", "whole_quiz");
    const { headers, state } = await started(code);
    const outside = await palette(headers, { position: 4, marked: true });
    expect(outside.statusCode).toBe(409);
    expect(outside.json().message).toBe("That question is not part of your quiz.");

    // Another student's palette is their own: the same position changes only their own attempt.
    const other = await started(code);
    expect((await palette(other.headers, { position: 0, marked: true })).statusCode).toBe(200);
    expect((await attempt(headers)).marked).toEqual([]);

    // Past the deadline and its grace, nothing changes and the attempt is closed.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + (4 * 30 + 120) * 1000);
    const late = await palette(headers, { position: 0, marked: true });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe("Time is up: your quiz has been submitted.");
    const { rows } = await database.pool.query(
      "select count(*)::int as marked from attempt_questions where attempt_id = $1 and marked_for_review",
      [state.attemptId],
    );
    expect(rows).toEqual([{ marked: 0 }]);
  });

  it("refuses a change it cannot read, with a message", async () => {
    const { headers } = await started(await driveOn("Palette input", "whole_quiz"));
    for (const payload of [{ position: -1 }, { position: 0, clear: false }, { position: 0, marked: "yes" }, {}]) {
      const refused = await palette(headers, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().message).toBeTruthy();
    }
  });
});
