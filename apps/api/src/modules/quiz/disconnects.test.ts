// Disconnect credits (issue 27, item 3; decision 040), through two instances of the real API on one database, as a
// candidate whose connection drops would meet them, and as one who would bend them: a silence longer than the
// drive's grace is given back once, up to the drive's most, as the clock stood when the grace ran out; a student
// who kept answering was not silent; a drive without credits gives nothing and writes nothing.

import type { Drive } from "@trainwise/contract/drives";
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { createSecondInstance, createTestApp } from "../../test/app.ts";
import { adminToken, attemptTimePasses, bearer, seedQuestions, startedStudent } from "../../test/fixtures.ts";
import { closeOverdueAttempts } from "./service.ts";

describe("a lost connection's time comes back", async () => {
  const product = await createTestApp();
  const { app, database } = product;
  const second = await createSecondInstance(product);
  await seedQuestions(database.db, 30);
  const admin = bearer(await adminToken(app, database.db));

  async function driveWith(test: Record<string, unknown>, drive: Record<string, unknown>) {
    const made = await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: admin,
      payload: { name: `Credits ${Math.random()}`, questionCount: 5, ...test },
    });
    expect(made.statusCode, made.body).toBe(201);
    return app.inject({
      method: "POST",
      url: "/api/drives",
      headers: admin,
      payload: { name: `Credits ${Math.random()}`, testId: made.json()._id, ...drive },
    });
  }
  async function creditingDrive(test: Record<string, unknown>, graceSeconds = 60, creditMinutes = 5) {
    const drive = await driveWith(test, {
      disconnectGraceSeconds: graceSeconds,
      disconnectCreditMinutes: creditMinutes,
    });
    expect(drive.statusCode, drive.body).toBe(201);
    return drive.json() as Drive;
  }
  const wholeQuiz = { timingMode: "whole_quiz", secondsPerQuestion: 60 };
  const heartbeat = async (token: string, instance: FastifyInstance = app) => {
    const response = await instance.inject({ method: "POST", url: "/api/quiz/heartbeat", headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().creditedSeconds as number;
  };
  const attemptOf = async (token: string) =>
    (await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) })).json();
  const credits = async (attemptId: string) =>
    (
      await database.pool.query<{ seconds: number; silent_from: Date; heard_at: Date }>(
        "select seconds, silent_from, heard_at from attempt_credits where attempt_id = $1::uuid",
        [attemptId],
      )
    ).rows;
  const attemptRow = async (attemptId: string) =>
    (
      await database.pool.query<{ credited: number; added: number; contact: Date | null }>(
        `select credited_seconds as credited, added_seconds as added, last_contact_at as contact
         from attempts where id = $1::uuid`,
        [attemptId],
      )
    ).rows[0];

  it("keeps a drive's grace and most, both or neither, in the bounds an admin reads", async () => {
    const drive = await creditingDrive(wholeQuiz, 90, 10);
    expect(drive).toMatchObject({ disconnectGraceSeconds: 90, disconnectCreditMinutes: 10 });
    const one = await driveWith(wholeQuiz, { disconnectGraceSeconds: 60 });
    expect(one.statusCode).toBe(400);
    expect(one.body).toContain("both a grace and the most time given back, or neither");
    // A grace shorter than two heartbeats would take one late heartbeat for a lost connection.
    const short = await driveWith(wholeQuiz, { disconnectGraceSeconds: 10, disconnectCreditMinutes: 5 });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain("Disconnect grace");
    const plain = await driveWith(wholeQuiz, {});
    expect(plain.json()).toMatchObject({ disconnectGraceSeconds: null, disconnectCreditMinutes: null });
  });

  it("gives a silence beyond the grace back once, through another instance, as the clock stood when the grace ran out", async () => {
    const drive = await creditingDrive(wholeQuiz);
    const candidate = await startedStudent(app, database.pool, drive.code);
    expect(await heartbeat(candidate.token)).toBe(0);
    const leftBefore = (await attemptOf(candidate.token)).secondsLeft as number;

    // The connection drops for 100 s: 40 s beyond the 60 s grace.
    await attemptTimePasses(database.pool, candidate.attemptId, 100);
    const credited = await heartbeat(candidate.token, second.app);
    expect(credited).toBeGreaterThanOrEqual(40);
    expect(credited).toBeLessThan(41);
    const left = (await attemptOf(candidate.token)).secondsLeft as number;
    expect(left).toBeGreaterThanOrEqual(leftBefore - 62);
    expect(left).toBeLessThanOrEqual(leftBefore - 59);
    // Written on the attempt for its admins, apart from time invigilators added; once only.
    const [credit, ...more] = await credits(candidate.attemptId);
    expect(more).toEqual([]);
    expect(credit?.seconds).toBe(credited);
    expect((credit?.heard_at.getTime() ?? 0) - (credit?.silent_from.getTime() ?? 0)).toBeGreaterThanOrEqual(100_000);
    expect(await attemptRow(candidate.attemptId)).toMatchObject({ credited, added: 0 });
    expect(await heartbeat(candidate.token)).toBe(0);
    expect(await credits(candidate.attemptId)).toHaveLength(1);

    // The live board shows what was given back; once submitted, the attempt's page lists the credit.
    const board = await app.inject({ method: "GET", url: `/api/drives/${drive._id}/live`, headers: admin });
    expect(board.statusCode, board.body).toBe(200);
    const row = board
      .json()
      .students.find((student: { studentId: string }) => student.studentId === candidate.studentId);
    expect(row).toMatchObject({ creditedSeconds: credited, addedSeconds: 0, state: "in_progress" });
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(candidate.token),
      payload: { answers: [] },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const detail = await app.inject({
      method: "GET",
      url: `/api/students/results/${candidate.attemptId}`,
      headers: admin,
    });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().credits).toEqual([
      { silentFrom: credit?.silent_from.toISOString(), heardAt: credit?.heard_at.toISOString(), seconds: credited },
    ]);
  });

  it("keeps a candidate whose page beats off the live board's quiet list, and puts a silent one on it", async () => {
    const drive = await creditingDrive(wholeQuiz);
    const [beating, silent] = [
      await startedStudent(app, database.pool, drive.code),
      await startedStudent(app, database.pool, drive.code),
    ];
    // Ten minutes with nothing answered: one page beat throughout (its last beat now), the other was not heard.
    for (const candidate of [beating, silent]) await attemptTimePasses(database.pool, candidate.attemptId, 600);
    await database.pool.query("update attempts set last_contact_at = now() where id = $1::uuid", [beating.attemptId]);
    const board = await app.inject({ method: "GET", url: `/api/drives/${drive._id}/live`, headers: admin });
    const stateOf = (studentId: string) =>
      board.json().students.find((student: { studentId: string }) => student.studentId === studentId)?.state;
    expect(stateOf(beating.studentId)).toBe("in_progress");
    expect(stateOf(silent.studentId)).toBe("quiet");
  });

  it("gives no more than the drive's most in all, however long or often the page is silent", async () => {
    const drive = await creditingDrive(wholeQuiz, 30, 1);
    const candidate = await startedStudent(app, database.pool, drive.code);
    await attemptTimePasses(database.pool, candidate.attemptId, 130);
    expect(await heartbeat(candidate.token)).toBe(60);
    await attemptTimePasses(database.pool, candidate.attemptId, 90);
    expect(await heartbeat(candidate.token)).toBe(0);
    expect((await attemptRow(candidate.attemptId))?.credited).toBe(60);
    expect(await credits(candidate.attemptId)).toHaveLength(1);
  });

  it("hears every request while sitting: a page that reads is not silent, and an answer after a silence lands on the clock given back", async () => {
    const drive = await creditingDrive({ timingMode: "per_question", secondsPerQuestion: 20 }, 30, 5);
    const reader = await startedStudent(app, database.pool, drive.code);
    // Reading the attempt every 20 s, questions served as their windows open, for 100 s: never silent (an outside
    // attack read four later questions this way and then had the time given back to answer them).
    for (let read = 0; read < 5; read++) {
      await attemptTimePasses(database.pool, reader.attemptId, 20);
      const seen = await second.app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(reader.token) });
      expect(seen.statusCode, seen.body).toBe(200);
    }
    expect(await heartbeat(reader.token)).toBe(0);
    expect(await credits(reader.attemptId)).toEqual([]);

    // A page whose first request after 100 s of silence is an answer: the time comes back before it is taken.
    const whole = await creditingDrive(wholeQuiz);
    const answering = await startedStudent(app, database.pool, whole.code);
    await attemptTimePasses(database.pool, answering.attemptId, 100);
    const question = answering.state.questions[0] as { _id: string; options: { _id: string }[] };
    const saved = await app.inject({
      method: "PUT",
      url: "/api/quiz/answers",
      headers: bearer(answering.token),
      payload: { questionId: question._id, optionId: question.options[0]?._id },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const [credit] = await credits(answering.attemptId);
    expect(credit?.seconds).toBeGreaterThanOrEqual(40);
    // The next heartbeat gets nothing more, and says what came back in all, for the page to read its clock.
    const beat = await app.inject({ method: "POST", url: "/api/quiz/heartbeat", headers: bearer(answering.token) });
    expect(beat.json()).toEqual({ creditedSeconds: 0, creditedInAll: credit?.seconds });
    // The page learns of it from its attempt, which says what was given back.
    const attempt = await attemptOf(answering.token);
    expect(attempt.creditedSeconds).toBe(credit?.seconds);
    expect(attempt.secondsLeft).toBeGreaterThanOrEqual(238);
  });

  it("gives back a silence that an invigilator's added time or a pause came in the middle of", async () => {
    const drive = await creditingDrive(wholeQuiz);
    const [added, paused] = [
      await startedStudent(app, database.pool, drive.code),
      await startedStudent(app, database.pool, drive.code),
    ];
    // Five minutes added at the start moved the open clock's start into the future: not a sign of life.
    const adding = await app.inject({
      method: "POST",
      url: `/api/students/${added.studentId}/add-time`,
      headers: admin,
      payload: { minutes: 5 },
    });
    expect(adding.statusCode, adding.body).toBe(200);
    await attemptTimePasses(database.pool, added.attemptId, 100);
    expect(await heartbeat(added.token)).toBeGreaterThanOrEqual(40);

    // Silent for 90 s, then the drive pauses and resumes: the 30 s beyond the grace still come back.
    await attemptTimePasses(database.pool, paused.attemptId, 90);
    for (const action of ["pause", "resume"]) {
      const response = await app.inject({ method: "POST", url: `/api/drives/${drive._id}/${action}`, headers: admin });
      expect(response.statusCode, response.body).toBe(200);
    }
    const credited = await heartbeat(paused.token);
    expect(credited).toBeGreaterThanOrEqual(30);
    expect(credited).toBeLessThan(32);
  });

  it("counts silence from the moment credits are switched on, and records what the clock moved when a closing cuts it", async () => {
    const plain = await driveWith(wholeQuiz, {});
    const early = await startedStudent(app, database.pool, plain.json().code);
    await attemptTimePasses(database.pool, early.attemptId, 90);
    const switched = await app.inject({
      method: "PUT",
      url: `/api/drives/${plain.json()._id}`,
      headers: admin,
      payload: {
        name: plain.json().name,
        testId: plain.json().testId,
        disconnectGraceSeconds: 30,
        disconnectCreditMinutes: 60,
      },
    });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(await heartbeat(early.token)).toBe(0);

    // The drive's closing ends attempts, and comes as the attempt's time does: a credit moves nothing, and none is
    // written (an outside attack saw 30 s recorded for a deadline that moved 1.6 s).
    const closing = await driveWith(wholeQuiz, {
      disconnectGraceSeconds: 60,
      disconnectCreditMinutes: 5,
      closingEndsAttempts: true,
      closesAt: new Date(Date.now() + 200_000).toISOString(),
    });
    expect(closing.statusCode, closing.body).toBe(201);
    const cut = await startedStudent(app, database.pool, closing.json().code);
    await attemptTimePasses(database.pool, cut.attemptId, 100);
    await database.pool.query(
      "update drives set closes_at = (select deadline_at from attempts where id = $2::uuid) where id = $1::uuid",
      [closing.json()._id, cut.attemptId],
    );
    expect(await heartbeat(cut.token)).toBe(0);
    expect(await credits(cut.attemptId)).toEqual([]);
    expect((await attemptRow(cut.attemptId))?.credited).toBe(0);
  });

  it("gives a paced attempt back the question it had when the grace ran out, with that question's time", async () => {
    const drive = await creditingDrive({ timingMode: "per_question", secondsPerQuestion: 30 }, 30, 5);
    const candidate = await startedStudent(app, database.pool, drive.code);
    expect(candidate.state.currentIndex).toBe(0);
    // Silent from the start for 70 s: the grace ran out as question 2's window opened (30 s); without the credit
    // the clock would stand on question 3 with 20 s left.
    await attemptTimePasses(database.pool, candidate.attemptId, 70);
    const credited = await heartbeat(candidate.token);
    expect(credited).toBeGreaterThanOrEqual(40);
    const attempt = await attemptOf(candidate.token);
    expect(attempt.currentIndex).toBe(1);
    expect(attempt.secondsLeft).toBeGreaterThanOrEqual(29);
  });

  it("gives nothing and writes nothing on a drive without credits, and needs the student's token", async () => {
    const plain = await driveWith(wholeQuiz, {});
    const candidate = await startedStudent(app, database.pool, plain.json().code);
    await attemptTimePasses(database.pool, candidate.attemptId, 300);
    expect(await heartbeat(candidate.token)).toBe(0);
    expect(await attemptRow(candidate.attemptId)).toMatchObject({ credited: 0, contact: null });
    expect((await app.inject({ method: "POST", url: "/api/quiz/heartbeat" })).statusCode).toBe(401);
    const adminCall = await app.inject({ method: "POST", url: "/api/quiz/heartbeat", headers: admin });
    expect(adminCall.statusCode).toBe(403);
  });

  const submittedAt = async (attemptId: string) =>
    (
      await database.pool.query<{ submitted: Date | null }>(
        "select submitted_at as submitted from attempts where id = $1::uuid",
        [attemptId],
      )
    ).rows[0]?.submitted ?? null;

  it("holds open an attempt whose time ran out while its page was silent, and gives the time back when it is heard", async () => {
    const drive = await creditingDrive(wholeQuiz);
    const candidate = await startedStudent(app, database.pool, drive.code);
    // Silent from the start for 350 s: its 300 s ran out 50 s ago, with the connection lost from 60 s on.
    await attemptTimePasses(database.pool, candidate.attemptId, 350);
    // Neither the sweep nor the admin's reads close it meanwhile, on either instance; the board says until when.
    await closeOverdueAttempts(database.db, undefined, { driveId: drive._id });
    const heldOnBoard = async () =>
      (await second.app.inject({ method: "GET", url: `/api/drives/${drive._id}/live`, headers: admin }))
        .json()
        .students.find((student: { studentId: string }) => student.studentId === candidate.studentId)?.heldUntil;
    const heldUntil = new Date(await heldOnBoard()).getTime();
    // 300 s of time and 300 s to give back after it, from a start 350 s ago: about 250 s from now.
    expect(heldUntil - Date.now()).toBeGreaterThan(245_000);
    expect(heldUntil - Date.now()).toBeLessThan(251_000);
    await app.inject({ method: "GET", url: `/api/drives/${drive._id}/results`, headers: admin });
    expect(await submittedAt(candidate.attemptId)).toBeNull();
    // Heard again, whatever it asks first: the 290 s beyond the grace come back, and the 240 s it had when the
    // connection was lost.
    const reload = await second.app.inject({
      method: "GET",
      url: "/api/quiz/attempt",
      headers: bearer(candidate.token),
    });
    expect(reload.json().secondsLeft).toBeGreaterThanOrEqual(238);
    const [{ seconds: credited = 0 } = { seconds: 0 }] = await credits(candidate.attemptId);
    expect(await heldOnBoard()).toBeNull();
    expect(credited).toBeGreaterThanOrEqual(290);
    expect(credited).toBeLessThan(291);
    const attempt = await attemptOf(candidate.token);
    expect(attempt.status).toBe("in_progress");
    expect(attempt.secondsLeft).toBeGreaterThanOrEqual(238);
    expect(attempt.secondsLeft).toBeLessThanOrEqual(240);
    await closeOverdueAttempts(database.db, undefined, { driveId: drive._id });
    expect(await submittedAt(candidate.attemptId)).toBeNull();
  });

  it("closes a silent attempt once its time to be given back has passed, and gives nothing after", async () => {
    const drive = await creditingDrive(wholeQuiz, 60, 5);
    const candidate = await startedStudent(app, database.pool, drive.code);
    // 300 s of time and at most 300 s given back: 601 s on, nothing could bring it back.
    await attemptTimePasses(database.pool, candidate.attemptId, 611);
    expect(await closeOverdueAttempts(database.db, undefined, { driveId: drive._id })).toBe(1);
    expect(await submittedAt(candidate.attemptId)).not.toBeNull();
    expect(await heartbeat(candidate.token)).toBe(0);
    expect(await credits(candidate.attemptId)).toEqual([]);
  });

  /**
   * A closed secure drive with credits, where one candidate submitted and another (`held`) went silent at the start:
   * the status of the submitted candidate's result, to read whether the key is out.
   */
  async function closedSecureDrive() {
    // A secure test draws questions whose answers no candidate has seen yet.
    await seedQuestions(database.db, 10);
    const drive = await creditingDrive({ ...wholeQuiz, secure: true });
    const [held, done] = [
      await startedStudent(app, database.pool, drive.code),
      await startedStudent(app, database.pool, drive.code),
    ];
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(done.token),
      payload: { answers: [] },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const closed = await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: admin });
    expect(closed.statusCode, closed.body).toBe(200);
    const result = async () =>
      (
        await app.inject({
          method: "GET",
          url: `/api/quiz/result/${submitted.json().resultId}`,
          headers: bearer(done.token),
        })
      ).json().status;
    return { held, result };
  }

  it("keeps a closed secure drive unsettled while an attempt is held, so that no key is out while it could still answer", async () => {
    const { held, result } = await closedSecureDrive();
    await attemptTimePasses(database.pool, held.attemptId, 350);
    // Closed, and the held attempt's time is up: but heard again it would answer, so results wait (an outside
    // attack had it given time back the moment another candidate's result showed the key).
    expect(await result()).toBe("pending");
    // An invigilator may end it (an outside attack found it beyond their reach): its candidate may never come back.
    const ended = await app.inject({
      method: "POST",
      url: `/api/students/${held.studentId}/end-attempt`,
      headers: admin,
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await submittedAt(held.attemptId)).not.toBeNull();
    expect(await heartbeat(held.token)).toBe(0);
    expect(await result()).toBe("released");
  });

  it("holds nothing of an attempt whose page fell silent only within the grace of its end", async () => {
    const drive = await creditingDrive(wholeQuiz);
    const candidate = await startedStudent(app, database.pool, drive.code);
    // Beating throughout, last heard 270 s in, 30 s before the end: the grace had not run out when the time did.
    await attemptTimePasses(database.pool, candidate.attemptId, 270);
    await database.pool.query("update attempts set last_contact_at = now() where id = $1::uuid", [candidate.attemptId]);
    await attemptTimePasses(database.pool, candidate.attemptId, 60);
    expect(await closeOverdueAttempts(database.db, undefined, { driveId: drive._id })).toBe(1);
    expect(await heartbeat(candidate.token)).toBe(0);
  });

  it("gives nothing once a hold has ended, before the sweep closes the attempt, while the drive waits out the grace", async () => {
    const { held, result } = await closedSecureDrive();
    // Silent from the start: 300 s of time, held until 300 s after that. A second past the hold's end, before any
    // sweep: an answer gets no time back and is refused (an outside attack answered here with the key the other
    // candidate's result had just shown), and the drive still waits out the grace after the hold.
    await attemptTimePasses(database.pool, held.attemptId, 601);
    const question = held.state.questions[0] as { _id: string; options: { _id: string }[] };
    const late = await app.inject({
      method: "PUT",
      url: "/api/quiz/answers",
      headers: bearer(held.token),
      payload: { questionId: question._id, optionId: question.options[0]?._id },
    });
    expect(late.statusCode, late.body).toBe(409);
    expect(await credits(held.attemptId)).toEqual([]);
    expect(await result()).toBe("pending");
    await attemptTimePasses(database.pool, held.attemptId, 10);
    expect(await result()).toBe("released");
    expect(await heartbeat(held.token)).toBe(0);
  });
});
