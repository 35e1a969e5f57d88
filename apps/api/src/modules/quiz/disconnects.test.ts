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

  it("gives nothing to a student heard from through their answers, however their heartbeats stopped", async () => {
    const drive = await creditingDrive(wholeQuiz);
    const candidate = await startedStudent(app, database.pool, drive.code);
    await attemptTimePasses(database.pool, candidate.attemptId, 100);
    // An answer 20 s ago: the page was there, whatever became of its heartbeats.
    const question = candidate.state.questions[0] as { _id: string; options: { _id: string }[] };
    const saved = await app.inject({
      method: "PUT",
      url: "/api/quiz/answers",
      headers: bearer(candidate.token),
      payload: { questionId: question._id, optionId: question.options[0]?._id },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await attemptTimePasses(database.pool, candidate.attemptId, 20);
    expect(await heartbeat(candidate.token)).toBe(0);
    expect(await credits(candidate.attemptId)).toEqual([]);
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
    // Neither the sweep nor any read closes it meanwhile, on either instance.
    await closeOverdueAttempts(database.db, undefined, { driveId: drive._id });
    await second.app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(candidate.token) });
    await app.inject({ method: "GET", url: `/api/drives/${drive._id}/results`, headers: admin });
    expect(await submittedAt(candidate.attemptId)).toBeNull();
    // Heard again: the 290 s beyond the grace come back, and the 240 s it had when the connection was lost.
    const credited = await heartbeat(candidate.token, second.app);
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

  it("holds nothing once the drive has closed and settled, since its key may be out, and gives nothing back then", async () => {
    const drive = await creditingDrive(wholeQuiz);
    const candidate = await startedStudent(app, database.pool, drive.code);
    await attemptTimePasses(database.pool, candidate.attemptId, 350);
    const closed = await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: admin });
    expect(closed.statusCode, closed.body).toBe(200);
    // Settled: closed, and no attempt's time (with its grace) still to come; the held one's has passed.
    expect(await heartbeat(candidate.token)).toBe(0);
    expect(await credits(candidate.attemptId)).toEqual([]);
    await closeOverdueAttempts(database.db, undefined, { driveId: drive._id });
    expect(await submittedAt(candidate.attemptId)).not.toBeNull();
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
});
