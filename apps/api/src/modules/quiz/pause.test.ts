// An invigilator pauses and resumes a whole drive from the live board (issue 27, item 4; decision 039). Through two
// instances of the real API on one database, as a candidate racing the pause and a careless invigilator would meet
// it: every clock stands still at the pause on both instances, nothing changes and nothing runs out meanwhile, and
// resuming gives each attempt that was running exactly the paused time back, once.

import type { Drive } from "@trainwise/contract/drives";
import { DRIVE_PAUSED_MESSAGE, type Notice } from "@trainwise/contract/notices";
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { createSecondInstance, createTestApp } from "../../test/app.ts";
import { openEventStream } from "../../test/event-stream.ts";
import {
  adminToken,
  attemptTimePasses,
  bearer,
  registerStudent,
  seedQuestions,
  startedStudent,
} from "../../test/fixtures.ts";
import { closeOverdueAttempts } from "./service.ts";

describe("an invigilator pauses and resumes a drive", async () => {
  const product = await createTestApp();
  const { app, database } = product;
  const second = await createSecondInstance(product);
  await second.app.listen({ host: "127.0.0.1", port: 0 });
  await seedQuestions(database.db, 30);
  const admin = bearer(await adminToken(app, database.db));
  const viewer = bearer(await adminToken(app, database.db, `pause-viewer${Date.now()}`, "viewer"));

  async function driveWith(settings: Record<string, unknown>): Promise<Drive> {
    const test = await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: admin,
      payload: { name: `Paused ${Math.random()}`, questionCount: 5, ...settings },
    });
    expect(test.statusCode, test.body).toBe(201);
    const drive = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: admin,
      payload: { name: `Paused ${Math.random()}`, testId: test.json()._id },
    });
    expect(drive.statusCode, drive.body).toBe(201);
    return drive.json();
  }
  const sitting = (drive: Drive) => startedStudent(app, database.pool, drive.code);
  const act = (driveId: string, action: "pause" | "resume", headers = admin, instance = app) =>
    instance.inject({ method: "POST", url: `/api/drives/${driveId}/${action}`, headers });
  const attemptOf = async (token: string, instance: FastifyInstance = second.app) =>
    (await instance.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) })).json();
  const answer = (token: string, questionId: string, optionId: string, instance: FastifyInstance = second.app) =>
    instance.inject({
      method: "PUT",
      url: "/api/quiz/answers",
      headers: bearer(token),
      payload: { questionId, optionId },
    });
  /** Sends `request` until it answers `status`: another instance hears of a pause through the database. */
  async function until<Reply extends { statusCode: number }>(status: number, request: () => Promise<Reply>) {
    const giveUpAt = Date.now() + 5_000;
    for (;;) {
      const response = await request();
      if (response.statusCode === status || Date.now() > giveUpAt) return response;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  /** As if the pause had begun `seconds` earlier: the drive's pause and its attempts' times that far in the past. */
  async function pauseLasted(driveId: string, attemptIds: string[], seconds: number) {
    await database.pool.query(
      "update drives set paused_at = paused_at - make_interval(secs => $2) where id = $1::uuid",
      [driveId, seconds],
    );
    for (const attemptId of attemptIds) await attemptTimePasses(database.pool, attemptId, seconds);
  }
  const clockRow = async (attemptId: string) =>
    (
      await database.pool.query<{ paused: number; added: number; submitted: Date | null; position: number }>(
        `select paused_seconds as paused, added_seconds as added, submitted_at as submitted,
           current_position as position from attempts where id = $1::uuid`,
        [attemptId],
      )
    ).rows[0];

  it("stops every clock of the drive at one moment on every instance, and gives the paused time back", async () => {
    const drive = await driveWith({ timingMode: "whole_quiz", secondsPerQuestion: 60 });
    const [asha, bala] = [await sitting(drive), await sitting(drive)];
    const { token: latecomer } = await registerStudent(app, { driveCode: drive.code });
    const notices = await openEventStream(second.app, "/api/quiz/notices", asha.token);
    const question = asha.state.questions[0] as { _id: string; options: { _id: string }[] };
    const leftBefore = (await attemptOf(asha.token)).secondsLeft as number;

    expect((await act(drive._id, "pause", viewer)).statusCode).toBe(403);
    const paused = await act(drive._id, "pause");
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json().message).toContain("the clocks of 2 attempts running now stand still");
    expect((await act(drive._id, "pause")).statusCode).toBe(409);
    const read = await app.inject({ method: "GET", url: `/api/drives/${drive._id}`, headers: admin });
    expect(read.json().pausedAt).not.toBeNull();

    // The other instance refuses every change with 423 and the candidate's sentence; a new start too.
    const refused = await until(423, () => answer(asha.token, question._id, question.options[0]?._id as string));
    expect(refused.statusCode).toBe(423);
    expect(refused.json().message).toBe(DRIVE_PAUSED_MESSAGE);
    for (const [method, url, payload] of [
      ["POST", "/api/quiz/next", { position: 1 }],
      ["PUT", "/api/quiz/palette", { position: 1, marked: true }],
      ["POST", "/api/quiz/focus", { position: 0 }],
      ["POST", "/api/quiz/submit", { answers: [] }],
    ] as const) {
      const response = await second.app.inject({ method, url, headers: bearer(bala.token), payload });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(423);
    }
    const start = await second.app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(latecomer) });
    expect(start.statusCode, start.body).toBe(423);
    // A reload reads the attempt as it stood at the pause, and says it is paused.
    const reloaded = await second.app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(asha.token) });
    expect(reloaded.statusCode, reloaded.body).toBe(200);
    expect(reloaded.json().pausedAt).toBe(read.json().pausedAt);
    // The screen hears of it.
    await notices.next((event) => (event.data as Notice).kind === "paused");

    // Seven minutes of pause: every deadline passes meanwhile, and neither the sweep nor a read ends anything.
    await pauseLasted(drive._id, [asha.attemptId, bala.attemptId], 420);
    await closeOverdueAttempts(database.db);
    const during = await attemptOf(asha.token);
    expect(during.status).toBe("in_progress");
    expect(during.secondsLeft).toBeGreaterThanOrEqual(leftBefore - 2);
    expect(during.secondsLeft).toBeLessThanOrEqual(leftBefore);
    expect((await clockRow(bala.attemptId))?.submitted).toBeNull();
    // Neither time added nor an ending meanwhile: they would be read on a clock that stands still.
    const addTime = await app.inject({
      method: "POST",
      url: `/api/drives/${drive._id}/add-time`,
      headers: admin,
      payload: { minutes: 5 },
    });
    expect(addTime.statusCode).toBe(409);
    expect(addTime.json().message).toContain("resume it first");
    const end = await app.inject({
      method: "POST",
      url: `/api/students/${bala.studentId}/end-attempt`,
      headers: admin,
    });
    expect(end.statusCode).toBe(409);

    // Resumed through the other instance: the time the pause lasted, given back once, apart from time added.
    const resumed = await act(drive._id, "resume", admin, second.app);
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json().message).toMatch(/^Resumed after 7 min( 1 s)?: 2 attempts that were running got that time/);
    expect((await act(drive._id, "resume")).statusCode).toBe(409);
    for (const attemptId of [asha.attemptId, bala.attemptId]) {
      expect(await clockRow(attemptId)).toMatchObject({ added: 0, submitted: null });
      expect((await clockRow(attemptId))?.paused).toBeGreaterThanOrEqual(420);
      expect((await clockRow(attemptId))?.paused).toBeLessThanOrEqual(422);
    }
    await notices.next((event) => (event.data as Notice).kind === "resumed");
    const after = await until(200, () => answer(asha.token, question._id, question.options[0]?._id as string));
    expect(after.statusCode, after.body).toBe(200);
    const left = (await attemptOf(asha.token)).secondsLeft as number;
    expect(left).toBeGreaterThanOrEqual(leftBefore - 3);
    expect(left).toBeLessThanOrEqual(leftBefore + 2);
    expect((await attemptOf(asha.token)).pausedAt).toBeUndefined();
    // Someone new may start again, and time may be added again.
    const later = await second.app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(latecomer) });
    expect(later.statusCode, later.body).toBe(200);

    const { rows } = await database.pool.query<{ action: string }>(
      "select action from audit_log where entity_id = $1 and action in ('drive.pause', 'drive.resume') order by at",
      [drive._id],
    );
    expect(rows.map((row) => row.action)).toEqual(["drive.pause", "drive.resume"]);
    notices.close();
  });

  it("resumes a paced attempt on the question it had open, with that window's time left", async () => {
    const drive = await driveWith({ timingMode: "per_question", secondsPerQuestion: 30 });
    const { token, attemptId } = await sitting(drive);
    // Ten seconds into question 1, then paused.
    await attemptTimePasses(database.pool, attemptId, 10);
    expect((await act(drive._id, "pause")).statusCode).toBe(200);
    // Long enough for every window of the attempt to have run out, had the clock run.
    await pauseLasted(drive._id, [attemptId], 300);
    await closeOverdueAttempts(database.db);
    const during = await attemptOf(token, app);
    expect(during).toMatchObject({ status: "in_progress", currentIndex: 0 });
    expect(during.secondsLeft).toBeGreaterThanOrEqual(19);
    expect(during.secondsLeft).toBeLessThanOrEqual(20);

    expect((await act(drive._id, "resume")).statusCode).toBe(200);
    const after = await attemptOf(token, app);
    expect(after).toMatchObject({ status: "in_progress", currentIndex: 0 });
    expect(after.secondsLeft).toBeGreaterThanOrEqual(18);
    expect(after.secondsLeft).toBeLessThanOrEqual(21);
    expect((await clockRow(attemptId))?.position).toBe(0);
  });

  it("gives nothing to an attempt whose time was up before the pause, and closes it as its clock says", async () => {
    const drive = await driveWith({ timingMode: "whole_quiz", secondsPerQuestion: 60 });
    const [{ attemptId }, running] = [await sitting(drive), await sitting(drive)];
    // Its whole time (5 minutes) and a little more had passed when the drive paused; the other's had not.
    await attemptTimePasses(database.pool, attemptId, 302);
    expect((await act(drive._id, "pause")).statusCode).toBe(200);
    await pauseLasted(drive._id, [attemptId, running.attemptId], 60);
    expect((await act(drive._id, "resume")).statusCode).toBe(200);
    expect(await clockRow(attemptId)).toMatchObject({ paused: 0 });
    expect((await clockRow(attemptId))?.submitted).not.toBeNull();
    expect((await clockRow(running.attemptId))?.paused).toBeGreaterThanOrEqual(60);
  });

  it("holds on every instance from the database's word alone, whatever an instance cached or was told", async () => {
    // An instance whose announcements stopped without its noticing once took changes for 20 s after a pause: here
    // nobody is told at all (no announcement, no notice), as if every instance were deaf.
    const drive = await driveWith({ timingMode: "per_question", secondsPerQuestion: 40 });
    const { token, state } = await sitting(drive);
    const { token: latecomer } = await registerStudent(app, { driveCode: drive.code });
    const question = state.question as { _id: string; options: { _id: string }[] };
    // Each instance has read the student's session and served them once.
    for (const instance of [app, second.app]) expect((await attemptOf(token, instance)).status).toBe("in_progress");
    await database.pool.query("update drives set paused_at = now() where id = $1::uuid", [drive._id]);
    for (const instance of [app, second.app]) {
      const answered = await answer(token, question._id, question.options[0]?._id as string, instance);
      expect(answered.statusCode, answered.body).toBe(423);
      const next = await instance.inject({
        method: "POST",
        url: "/api/quiz/next",
        headers: bearer(token),
        payload: { position: 1 },
      });
      expect(next.statusCode, next.body).toBe(423);
      const start = await instance.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(latecomer) });
      expect(start.statusCode, start.body).toBe(423);
      expect((await attemptOf(token, instance)).pausedAt).toBeTruthy();
    }
    const { rows } = await database.pool.query<{ answered: number }>(
      "select count(*)::int as answered from attempt_questions where attempt_id = $1::uuid and answered_at is not null",
      [state.attemptId],
    );
    expect(rows[0]?.answered).toBe(0);
  });

  it("neither closes an attempt nor moves it on when its result is asked for during the pause", async () => {
    // The result's read once closed a paused attempt whose time had passed on the wall clock (an outside attack).
    const drive = await driveWith({ timingMode: "whole_quiz", secondsPerQuestion: 5 });
    const { token, attemptId } = await sitting(drive);
    expect((await act(drive._id, "pause")).statusCode).toBe(200);
    await pauseLasted(drive._id, [attemptId], 60);
    const result = await app.inject({ method: "GET", url: `/api/quiz/result/${attemptId}`, headers: bearer(token) });
    expect(result.statusCode).not.toBe(200);
    expect((await clockRow(attemptId))?.submitted).toBeNull();
    expect((await act(drive._id, "resume")).statusCode).toBe(200);
    const after = await attemptOf(token, app);
    expect(after.status).toBe("in_progress");
    expect(after.secondsLeft).toBeGreaterThanOrEqual(20);
  });

  it("pauses only a drive with an attempt running, gives each pause its exact time, and ranks by time sat", async () => {
    const drive = await driveWith({ timingMode: "whole_quiz", secondsPerQuestion: 60 });
    const nothing = await act(drive._id, "pause");
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().message).toBe("No attempt of this drive is running: there is nothing to pause.");
    const { token, attemptId, state } = await sitting(drive);
    const deadline = async () =>
      (
        await database.pool.query<{ at: Date }>("select deadline_at as at from attempts where id = $1", [attemptId])
      ).rows[0]?.at.getTime() as number;
    // Ten pauses and resumes clicked in a hurry give back the time they lasted, not a second each.
    const before = await deadline();
    const started = Date.now();
    for (let round = 0; round < 10; round++) {
      expect((await act(drive._id, "pause")).statusCode).toBe(200);
      expect((await act(drive._id, "resume")).statusCode).toBe(200);
    }
    expect((await deadline()) - before).toBeLessThanOrEqual(Date.now() - started);
    // A minute's pause is not time the candidate took.
    expect((await act(drive._id, "pause")).statusCode).toBe(200);
    await pauseLasted(drive._id, [attemptId], 60);
    expect((await act(drive._id, "resume")).statusCode).toBe(200);
    const answers = state.questions.map((served) => ({ questionId: served._id, optionId: served.options[0]?._id }));
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(token),
      payload: { answers },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const ranking = await app.inject({ method: "GET", url: `/api/drives/${drive._id}/ranking`, headers: admin });
    expect(ranking.statusCode, ranking.body).toBe(200);
    expect(ranking.json().rows[0].secondsTaken).toBeLessThan(10);
  });

  it("answers 404 for a drive that does not exist", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await act(missing, "pause")).statusCode).toBe(404);
    expect((await act(missing, "resume")).statusCode).toBe(404);
  });
});
