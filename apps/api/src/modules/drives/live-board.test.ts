// The live board of a drive: each student's state from what the quiz already stored, the stream that follows it
// across instances, who may watch it, and how streams end when an instance drains.
import net from "node:net";
import { applyLiveChanges, type LiveBoard, type LiveChanges, type LiveStudent } from "@trainwise/contract/live-board";
import type { QuizQuestion } from "@trainwise/contract/quiz";
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { drain } from "../../drain.ts";
import { createSecondInstance, createTestApp } from "../../test/app.ts";
import { openEventStream } from "../../test/event-stream.ts";
import { adminToken, bearer, seedQuestions, studentInput } from "../../test/fixtures.ts";
import { LiveBoards } from "./live-board.ts";
import { LIVE_STREAM } from "./live-stream.ts";

/** Reads a live board stream from a listening instance. */
const openStream = (app: FastifyInstance, driveId: string, token: string) =>
  openEventStream(app, `/api/drives/${driveId}/live/stream`, token);

const rowOf = (board: { students: LiveStudent[] }, name: string) =>
  board.students.find((student) => student.name === name);

describe("the live board of a drive", async () => {
  const first = await createTestApp();
  const { app, database } = first;
  await seedQuestions(database.db, 10);
  const admin = await adminToken(app, database.db);
  const asAdmin = bearer(admin);

  async function driveOf(questionCount: number, secondsPerQuestion = 30) {
    const test = await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: asAdmin,
      payload: { name: `Live ${questionCount}`, questionCount, secondsPerQuestion, timingMode: "per_question" },
    });
    expect(test.statusCode, test.body).toBe(201);
    const drive = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: asAdmin,
      payload: { name: "Live drive", organisation: "Sunrise Engineering College", testId: test.json()._id },
    });
    expect(drive.statusCode, drive.body).toBe(201);
    return drive.json() as { _id: string; code: string };
  }

  async function register(
    on: FastifyInstance,
    driveCode: string,
    name: string,
    identity: { email?: string; usnNo?: string } = {},
  ) {
    const response = await on.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: { ...studentInput({ name, ...identity }), driveCode },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().token as string;
  }

  async function start(on: FastifyInstance, token: string) {
    const response = await on.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { attemptId: string; question: QuizQuestion };
  }

  async function board(driveId: string): Promise<LiveBoard> {
    const response = await app.inject({ method: "GET", url: `/api/drives/${driveId}/live`, headers: asAdmin });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  it("shows who has not started, who is on which question, who submitted with what score, and who went quiet", async () => {
    const drive = await driveOf(3);
    await register(app, drive.code, "Asha Not-started");
    const onQuestionTwo = await register(app, drive.code, "Bala On-question-two");
    const done = await register(app, drive.code, "Chitra Submitted");
    const quiet = await register(app, drive.code, "Dev Quiet");

    const first = await start(app, onQuestionTwo);
    const right = first.question.options[0]?._id as string;
    const next = await app.inject({
      method: "POST",
      url: "/api/quiz/next",
      headers: bearer(onQuestionTwo),
      payload: { position: 1, answer: { questionId: first.question._id, optionId: right } },
    });
    expect(next.statusCode, next.body).toBe(200);
    await app.inject({
      method: "POST",
      url: "/api/quiz/focus",
      headers: bearer(onQuestionTwo),
      payload: { position: 1 },
    });

    const submitted = await start(app, done);
    const served = (
      await database.pool.query<{ questionId: string; optionId: string }>(
        `select aq.question_id as "questionId", o.id as "optionId" from attempt_questions aq
         join question_options o on o.question_id = aq.question_id and o.is_correct
         where aq.attempt_id = $1 order by aq.position`,
        [submitted.attemptId],
      )
    ).rows;
    const submit = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(done),
      // A paced attempt takes the answer to the open question with Submit: the first question, answered right.
      payload: { answers: served.slice(0, 1) },
    });
    expect(submit.statusCode, submit.body).toBe(200);

    // Nothing heard from this student for two minutes: their attempt's start and question opening are that old.
    const silent = await start(app, quiet);
    await database.pool.query(
      `update attempts set started_at = now() - interval '2 minutes', current_started_at = now() - interval '2 minutes'
       where id = $1`,
      [silent.attemptId],
    );

    const live = await board(drive._id);
    expect(live.counts).toEqual({ not_started: 1, in_progress: 1, quiet: 1, submitted: 1, auto_submitted: 0 });
    expect(live.students.map((student) => student.name)).toEqual([
      "Asha Not-started",
      "Bala On-question-two",
      "Chitra Submitted",
      "Dev Quiet",
    ]);
    expect(rowOf(live, "Asha Not-started")).toMatchObject({ state: "not_started", position: null, score: null });
    expect(rowOf(live, "Bala On-question-two")).toMatchObject({
      state: "in_progress",
      position: 2,
      totalQuestions: 3,
      answered: 1,
      focusLosses: 1,
      score: null,
    });
    expect(rowOf(live, "Chitra Submitted")).toMatchObject({
      state: "submitted",
      score: 1,
      totalQuestions: 3,
      percentage: 33.33,
    });
    // Two minutes of 30-second windows: the clock has taken the silent student to the last question.
    expect(rowOf(live, "Dev Quiet")).toMatchObject({ state: "quiet", position: 3 });
    expect(live.averagePercentage).toBe(33.33);
    expect(live.focusLosses).toBe(1);
    // Three students reached question 1, two question 2 (one moved on, one's time ran out), one question 3.
    expect(live.positions).toEqual([
      { position: 1, section: null, reached: 3, answered: 2, unanswered: 1 },
      { position: 2, section: null, reached: 2, answered: 0, unanswered: 1 },
      { position: 3, section: null, reached: 1, answered: 0, unanswered: 0 },
    ]);
  });

  it("shows what the server saw of when answers came, beside the focus losses a page may never report", async () => {
    const drive = await driveOf(3);
    const hurried = await register(app, drive.code, "Esha Burst");
    const slow = await register(app, drive.code, "Farid Late");

    // Three answers typed in back to back, from a page that reports no lost focus.
    let question = (await start(app, hurried)).question;
    for (const position of [1, 2]) {
      const moved = await app.inject({
        method: "POST",
        url: "/api/quiz/next",
        headers: bearer(hurried),
        payload: { position, answer: { questionId: question._id, optionId: question.options[0]?._id } },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      question = moved.json().question;
    }
    const answered = await app.inject({
      method: "PUT",
      url: "/api/quiz/answers",
      headers: bearer(hurried),
      payload: { questionId: question._id, optionId: question.options[0]?._id },
    });
    expect(answered.statusCode, answered.body).toBe(200);

    // The first question answered 25 s into its 30.
    const late = await start(app, slow);
    await database.pool.query(
      "update attempts set current_started_at = current_started_at - interval '25 seconds' where id = $1",
      [late.attemptId],
    );
    const saved = await app.inject({
      method: "PUT",
      url: "/api/quiz/answers",
      headers: bearer(slow),
      payload: { questionId: late.question._id, optionId: late.question.options[0]?._id },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const live = await board(drive._id);
    expect(rowOf(live, "Esha Burst")).toMatchObject({ answered: 3, focusLosses: 0, burstAnswers: 3, lateAnswers: 0 });
    expect(rowOf(live, "Farid Late")).toMatchObject({ answered: 1, focusLosses: 0, burstAnswers: 0, lateAnswers: 1 });
  });

  it("counts an answer saved within the last minute as being heard from the student", async () => {
    // Ten minutes a question, so moving the attempt's times two minutes back leaves its question open.
    const drive = await driveOf(3, 600);
    const token = await register(app, drive.code, "Esha Answering");
    const attempt = await start(app, token);
    await database.pool.query(
      `update attempts set started_at = now() - interval '2 minutes', current_started_at = now() - interval '2 minutes'
       where id = $1`,
      [attempt.attemptId],
    );
    expect(rowOf(await board(drive._id), "Esha Answering")?.state).toBe("quiet");
    const saved = await app.inject({
      method: "PUT",
      url: "/api/quiz/answers",
      headers: bearer(token),
      payload: { questionId: attempt.question._id, optionId: attempt.question.options[1]?._id },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(rowOf(await board(drive._id), "Esha Answering")).toMatchObject({ state: "in_progress", answered: 1 });
  });

  it("follows the server's clock: a student whose questions time out is on the question it has opened, not quiet", async () => {
    const drive = await driveOf(5, 20);
    const token = await register(app, drive.code, "Ira Timed-out");
    const attempt = await start(app, token);
    // 45 s ago, with nothing answered and nothing asked: two 20-second windows have run out.
    const back = async (seconds: number) =>
      database.pool.query(
        `update attempts set started_at = started_at - make_interval(secs => $2),
           current_started_at = current_started_at - make_interval(secs => $2),
           deadline_at = deadline_at - make_interval(secs => $2) where id = $1`,
        [attempt.attemptId, seconds],
      );
    await back(45);
    let live = await board(drive._id);
    // Before: "Question 1 of 5", and question 2 and 3 reached by nobody.
    expect(rowOf(live, "Ira Timed-out")).toMatchObject({ state: "in_progress", position: 3, totalQuestions: 5 });
    expect(live.positions).toEqual([
      { position: 1, section: null, reached: 1, answered: 0, unanswered: 1 },
      { position: 2, section: null, reached: 1, answered: 0, unanswered: 1 },
      { position: 3, section: null, reached: 1, answered: 0, unanswered: 0 },
    ]);

    // 75 s on, a third window has run out; the page, whose timer ran out too, asks for the question the clock
    // has already opened. Nothing else was heard for 75 s: quiet until that Next.
    await back(30);
    expect(rowOf(await board(drive._id), "Ira Timed-out")).toMatchObject({ state: "quiet", position: 4 });
    const next = await app.inject({
      method: "POST",
      url: "/api/quiz/next",
      headers: bearer(token),
      payload: { position: 3 },
    });
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json()).toMatchObject({ currentIndex: 3 });
    // The Next keeps the clock as it was (the fourth window's time left) and is heard: before, "Gone quiet".
    expect(next.json().secondsLeft).toBeLessThanOrEqual(5);
    live = await board(drive._id);
    expect(rowOf(live, "Ira Timed-out")).toMatchObject({ state: "in_progress", position: 4, answered: 0 });
    expect(live.positions.map((row) => row.unanswered)).toEqual([1, 1, 1, 0]);
  });

  it("lists every roster line, a no-show as not started, and an attempt whose time ran out as auto-submitted", async () => {
    const drive = await driveOf(2);
    const roster = await app.inject({
      method: "PUT",
      url: `/api/drives/${drive._id}/roster`,
      headers: { ...asAdmin, "content-type": "text/csv" },
      payload:
        "email,usn\nanu.listed@example.com,1SR24CS301\nbanu.listed@example.com,\n,1SR24CS303\n" +
        "absent.listed@example.com,1SR24CS304\n",
    });
    expect(roster.statusCode, roster.body).toBe(200);
    const anu = await register(app, drive.code, "Anu Submits", {
      email: "anu.listed@example.com",
      usnNo: "1SR24CS301",
    });
    const banu = await register(app, drive.code, "Banu Runs-out", { email: "BANU.listed@example.com" });
    // Not on the roster: this drive takes anyone with its code.
    await register(app, drive.code, "Chandra Walk-in", { email: "chandra@example.com" });

    const submitted = await start(app, anu);
    const submit = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(anu),
      payload: { answers: [] },
    });
    expect(submit.statusCode, submit.body).toBe(200);
    expect(submitted.attemptId).toBeTruthy();
    // Banu's time ran out a minute ago; the server closes the attempt when she (or its sweep) next calls.
    const overdue = await start(app, banu);
    await database.pool.query(
      `update attempts set started_at = started_at - interval '2 minutes',
         current_started_at = current_started_at - interval '2 minutes',
         deadline_at = deadline_at - interval '2 minutes' where id = $1`,
      [overdue.attemptId],
    );
    const late = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(banu),
      payload: { answers: [] },
    });
    expect(late.statusCode, late.body).toBe(200);

    const live = await board(drive._id);
    // Before: the two lines nobody registered by were missing ("Not started 1"), and both attempts "Submitted".
    expect(live.counts).toEqual({ not_started: 3, in_progress: 0, quiet: 0, submitted: 1, auto_submitted: 1 });
    expect(live.students.map((row) => [row.name, row.state])).toEqual([
      ["1SR24CS303", "not_started"],
      ["absent.listed@example.com", "not_started"],
      ["Anu Submits", "submitted"],
      ["Banu Runs-out", "auto_submitted"],
      ["Chandra Walk-in", "not_started"],
    ]);
    expect(rowOf(live, "absent.listed@example.com")).toMatchObject({
      studentId: null,
      usnNo: "1SR24CS304",
      position: null,
      reloads: 0,
    });
    expect(rowOf(live, "Banu Runs-out")).toMatchObject({ score: 0, position: 2, totalQuestions: 2 });
    expect(rowOf(live, "Chandra Walk-in")?.studentId).toBe(rowOf(live, "Chandra Walk-in")?.id);

    // The no-show registers: their line's row gives way to the student's.
    await register(app, drive.code, "Dina Late", { email: "absent.listed@example.com", usnNo: "1SR24CS304" });
    const after = await board(drive._id);
    expect(rowOf(after, "absent.listed@example.com")).toBeUndefined();
    expect(rowOf(after, "Dina Late")).toMatchObject({ state: "not_started", usnNo: "1SR24CS304" });
    expect(after.counts.not_started).toBe(3);
  });

  it("counts a reload apart from focus losses, and hears the student in it", async () => {
    const drive = await driveOf(3, 600);
    const token = await register(app, drive.code, "Jaya Reloads");
    const attempt = await start(app, token);
    await database.pool.query(
      `update attempts set started_at = now() - interval '2 minutes', current_started_at = now() - interval '2 minutes'
       where id = $1`,
      [attempt.attemptId],
    );
    expect(rowOf(await board(drive._id), "Jaya Reloads")?.state).toBe("quiet");
    // The page loads again and resumes the attempt it has.
    const resumed = await start(app, token);
    expect(resumed.attemptId).toBe(attempt.attemptId);
    const live = await board(drive._id);
    expect(rowOf(live, "Jaya Reloads")).toMatchObject({ state: "in_progress", reloads: 1, focusLosses: 0 });
    expect(live).toMatchObject({ reloads: 1, focusLosses: 0 });
  });

  it("refuses the board and its stream without an admin token, and an unknown drive", async () => {
    const drive = await driveOf(2);
    for (const url of [`/api/drives/${drive._id}/live`, `/api/drives/${drive._id}/live/stream`]) {
      expect((await app.inject({ method: "GET", url })).statusCode).toBe(401);
      const student = await register(app, drive.code, "Farah Curious");
      expect((await app.inject({ method: "GET", url, headers: bearer(student) })).statusCode).toBe(403);
    }
    const unknown = "00000000-0000-4000-8000-000000000000";
    const missing = await app.inject({ method: "GET", url: `/api/drives/${unknown}/live/stream`, headers: asAdmin });
    expect(missing.statusCode).toBe(404);
  });

  it("streams a change made through another instance on the same database", async () => {
    const watched = await createSecondInstance(first);
    await watched.app.listen({ host: "127.0.0.1", port: 0 });
    const drive = await driveOf(3);
    const stream = await openStream(watched.app, drive._id, admin);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toContain("text/event-stream");
    expect(stream.response.headers.get("cache-control")).toBe("no-store");
    expect(stream.response.headers.get("x-accel-buffering")).toBe("no");
    const initial = (await stream.next((event) => event.event === "board")).data as LiveBoard;
    expect(initial.students).toEqual([]);

    // The student registers and starts on the first instance; the admin's stream is on the second.
    const token = await register(app, drive.code, "Gita Elsewhere");
    const joined = await stream.next(
      (event) => event.event === "changes" && rowOf(event.data as LiveChanges, "Gita Elsewhere") !== undefined,
    );
    expect((joined.data as LiveChanges).counts.not_started).toBe(1);
    await start(app, token);
    const started = await stream.next(
      (event) =>
        event.event === "changes" && rowOf(event.data as LiveChanges, "Gita Elsewhere")?.state === "in_progress",
    );
    expect(rowOf(started.data as LiveChanges, "Gita Elsewhere")).toMatchObject({ position: 1, totalQuestions: 3 });

    // Leaving stops the reading on that instance.
    stream.close();
    await stream.reading;
    await expect.poll(() => countWatched(watched.app)).toBe(0);
  });

  it("keeps a watched board's answers and focus losses current, and reads a submitted attempt's once", async () => {
    const drive = await driveOf(3, 600);
    const token = await register(app, drive.code, "Hari Watched");
    const attempt = await start(app, token);
    // Short intervals so that the test waits for reads, not seconds.
    const boards = new LiveBoards(database.db, { intervalMs: 20, tallyEveryMs: 100 });
    let board: LiveBoard | undefined;
    const stop = boards.watch(drive._id, {
      board: (whole) => {
        board = whole;
      },
      changes: (changes) => {
        if (board) board = applyLiveChanges(board, changes);
      },
      end: () => {},
    });
    await expect.poll(() => board && rowOf(board, "Hari Watched")?.state).toBe("in_progress");
    await app.inject({ method: "POST", url: "/api/quiz/focus", headers: bearer(token), payload: { position: 0 } });
    await app.inject({
      method: "PUT",
      url: "/api/quiz/answers",
      headers: bearer(token),
      payload: { questionId: attempt.question._id, optionId: attempt.question.options[0]?._id },
    });
    await expect.poll(() => board && rowOf(board, "Hari Watched")).toMatchObject({ answered: 1, focusLosses: 1 });
    expect(board?.positions[0]).toMatchObject({ reached: 1, answered: 1 });
    const submit = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(token),
      payload: { answers: [] },
    });
    expect(submit.statusCode, submit.body).toBe(200);
    await expect.poll(() => board && rowOf(board, "Hari Watched")?.state).toBe("submitted");
    expect(board && rowOf(board, "Hari Watched")).toMatchObject({ answered: 1, focusLosses: 1, totalQuestions: 3 });
    stop();
    expect(boards.watchedDrives).toBe(0);
  });

  it("ends the stream of an admin disabled on another instance within seconds, not at the stream's end", async () => {
    const watched = await createSecondInstance(first);
    await watched.app.listen({ host: "127.0.0.1", port: 0 });
    const drive = await driveOf(2);
    const created = await app.inject({
      method: "POST",
      url: "/api/admins",
      headers: asAdmin,
      payload: { username: "stream-viewer", role: "viewer", method: "password" },
    });
    expect(created.statusCode, created.body).toBe(200);
    const { admin: viewer, password: generated } = created.json();
    const login = await app.inject({
      method: "POST",
      url: "/api/auth/admin/login",
      payload: { username: "stream-viewer", password: generated },
    });
    expect(login.statusCode, login.body).toBe(200);
    const stream = await openStream(watched.app, drive._id, login.json().token);
    await stream.next((event) => event.event === "board");

    const disabled = await app.inject({ method: "POST", url: `/api/admins/${viewer.id}/disable`, headers: asAdmin });
    expect(disabled.statusCode).toBe(200);
    // The stream would otherwise run for five minutes; the test's own timeout is far shorter.
    await stream.reading;
    expect(stream.ended).toBe(true);
    // Students who arrive after it learn nothing of them.
    await register(app, drive.code, "After Disable");
    expect(stream.events.some((event) => JSON.stringify(event.data).includes("After Disable"))).toBe(false);
    await expect.poll(() => countWatched(watched.app)).toBe(0);
  });

  it("holds one admin session to a handful of open streams, and frees a place when one closes", async () => {
    const watched = await createSecondInstance(first);
    await watched.app.listen({ host: "127.0.0.1", port: 0 });
    const drive = await driveOf(2);
    const session = await adminToken(app, database.db);
    const streams = [];
    for (let opened = 0; opened < LIVE_STREAM.perSession; opened++) {
      const stream = await openStream(watched.app, drive._id, session);
      await stream.next((event) => event.event === "board");
      streams.push(stream);
    }
    const url = `/api/drives/${drive._id}/live/stream`;
    const refused = await watched.app.inject({ method: "GET", url, headers: bearer(session) });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(
      "You have 5 live boards open already. Close one (in another tab or window) to follow this one.",
    );
    // Another session of the same admin has places of its own.
    const other = await openStream(watched.app, drive._id, admin);
    await other.next((event) => event.event === "board");
    // A closed stream gives its place back as soon as the server sees the connection go.
    const [closing] = streams;
    closing?.close();
    await closing?.reading;
    await expect
      .poll(async () => {
        const again = await openStream(watched.app, drive._id, session);
        if (again.response.ok) streams.push(again);
        return again.response.status;
      })
      .toBe(200);
    for (const stream of [...streams, other]) stream.close();
    await expect.poll(() => countWatched(watched.app)).toBe(0);
  });

  it("gives back the place of a stream whose connection closed while the drive was looked up", async () => {
    const watched = await createSecondInstance(first);
    await watched.app.listen({ host: "127.0.0.1", port: 0 });
    const address = watched.app.server.address();
    if (!address || typeof address === "string") throw new Error("the app is not listening");
    const drive = await driveOf(2);
    const session = await adminToken(app, database.db);
    // More boards than a session may hold, each asked for and abandoned at once (a reload storm).
    for (let asked = 0; asked <= LIVE_STREAM.perSession; asked++) {
      await new Promise<void>((resolve, reject) => {
        const socket = net.connect(address.port, "127.0.0.1", () => {
          socket.end(
            `GET /api/drives/${drive._id}/live/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
              `Authorization: Bearer ${session}\r\nAccept: text/event-stream\r\n\r\n`,
          );
          socket.destroy();
          resolve();
        });
        socket.on("error", reject);
      });
    }
    // Before: every abandoned stream kept its place for five minutes, and this one was refused with a 429.
    await expect
      .poll(async () => {
        const stream = await openStream(watched.app, drive._id, session);
        stream.close();
        return stream.response.status;
      })
      .toBe(200);
    await expect.poll(() => countWatched(watched.app)).toBe(0);
  });

  it("ends its streams when the instance drains, so the drain does not wait for them", async () => {
    const draining = await createSecondInstance(first);
    await draining.app.listen({ host: "127.0.0.1", port: 0 });
    const drive = await driveOf(2);
    const stream = await openStream(draining.app, drive._id, admin);
    await stream.next((event) => event.event === "board");
    // A deadline far beyond the test's timeout: only streams that really end let the drain finish.
    await drain(draining.app, { quietMs: 200, longestMs: 120_000 });
    await stream.reading;
    expect(stream.ended).toBe(true);
    const open = await new Promise<number>((resolve) =>
      draining.app.server.getConnections((_e, count) => resolve(count)),
    );
    expect(open).toBe(0);
  });
});

/** How many drives an instance reads for its live boards right now. */
function countWatched(app: FastifyInstance): number {
  return app.liveBoards.watchedDrives;
}
