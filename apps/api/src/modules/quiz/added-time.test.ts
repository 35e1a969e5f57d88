// An invigilator adds time from the live board (issue 27, item 4; decision 037): to one student's running attempt or
// to every running attempt of a drive. Through the real API and database, as a careless admin and a candidate would
// meet it: a paced timer that had moved on must not reopen a closed question, a drive's closing still ends the
// attempt, a changed drive keeps the time added, and nothing reaches an attempt whose time is up.
import type { Drive, DriveInput } from "@trainwise/contract/drives";
import { describe, expect, it } from "vitest";
import { createSecondInstance, createTestApp } from "../../test/app.ts";
import { adminToken, attemptTimePasses, bearer, seedQuestions, startedStudent } from "../../test/fixtures.ts";

describe("an invigilator adds time", async () => {
  const product = await createTestApp();
  const { app, database } = product;
  const second = await createSecondInstance(product);
  await seedQuestions(database.db, 30);
  const admin = bearer(await adminToken(app, database.db));
  const viewer = bearer(await adminToken(app, database.db, `viewer${Date.now()}`, "viewer"));

  async function testWith(settings: Record<string, unknown>): Promise<string> {
    const created = await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: admin,
      payload: { name: `Added time ${Math.random()}`, questionCount: 5, ...settings },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json()._id;
  }
  async function driveOf(testId: string, settings: Partial<DriveInput> = {}): Promise<Drive> {
    const created = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: admin,
      payload: { name: `Added time ${Math.random()}`, testId, ...settings },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json();
  }
  /** A student of `drive` who has started: their token, attempt and student id. */
  const sitting = (drive: Drive) => startedStudent(app, database.pool, drive.code);
  const clockOf = async (attemptId: string) =>
    (
      await database.pool.query<{
        deadline: Date;
        sectionDeadline: Date | null;
        position: number;
        startedAt: Date;
        added: number;
      }>(
        `select deadline_at as deadline, section_deadline_at as "sectionDeadline", current_position as position,
           current_started_at as "startedAt", added_seconds as added from attempts where id = $1::uuid`,
        [attemptId],
      )
    ).rows[0];
  const addToStudent = (studentId: string, payload: unknown, headers = admin) =>
    app.inject({ method: "POST", url: `/api/students/${studentId}/add-time`, headers, payload: payload as object });
  const addToDrive = (driveId: string, payload: unknown, headers = admin) =>
    app.inject({ method: "POST", url: `/api/drives/${driveId}/add-time`, headers, payload: payload as object });
  const secondsLeft = async (token: string, instance = app) =>
    (await instance.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) })).json()
      .secondsLeft as number;

  it("gives a student timed as a whole 5 more minutes, audited, and every instance reads the new time", async () => {
    const drive = await driveOf(await testWith({ timingMode: "whole_quiz", secondsPerQuestion: 60 }));
    const { token, attemptId, studentId } = await sitting(drive);
    const before = await clockOf(attemptId);
    const leftBefore = await secondsLeft(token);

    expect((await addToStudent(studentId, { minutes: 5 }, viewer)).statusCode).toBe(403);
    const added = await addToStudent(studentId, { minutes: 5 });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().message).toBe(
      "Added 5 minutes to the attempt: the open question or section and everything after it end 5 minutes later. " +
        "The student's page shows the new time within seconds.",
    );
    const after = await clockOf(attemptId);
    expect(after?.deadline.getTime()).toBe((before?.deadline.getTime() ?? 0) + 300_000);
    expect(after?.added).toBe(300);
    const leftAfter = await secondsLeft(token, second.app);
    expect(leftAfter - leftBefore).toBeGreaterThanOrEqual(299);
    expect(leftAfter - leftBefore).toBeLessThanOrEqual(301);

    type Snapshot = { attempts: { addedSeconds: number }[] };
    const { rows } = await database.pool.query<{ before: Snapshot; after: Snapshot }>(
      "select before, after from audit_log where action = 'student.add-time' and entity_id = $1",
      [studentId],
    );
    expect(rows[0]?.before.attempts[0]?.addedSeconds).toBe(0);
    expect(rows[0]?.after.attempts[0]?.addedSeconds).toBe(300);
  });

  it("catches a paced timer up first: a question whose window closed stays closed, and the open one gets the time", async () => {
    const drive = await driveOf(await testWith({ timingMode: "per_question", secondsPerQuestion: 30 }));
    const { token, attemptId, studentId } = await sitting(drive);
    // 70 s pass without a request: the timer is on the third question (position 2), 20 s into its window.
    await attemptTimePasses(database.pool, attemptId, 70);
    const before = await clockOf(attemptId);
    expect(before?.position).toBe(0);
    expect((await addToStudent(studentId, { minutes: 2 })).statusCode).toBe(200);
    const after = await clockOf(attemptId);
    expect(after?.position).toBe(2);
    // Its window opened 60 s after the start and now ends 120 s later than it would have.
    expect(after?.startedAt.getTime()).toBe((before?.startedAt.getTime() ?? 0) + 60_000 + 120_000);
    expect(after?.deadline.getTime()).toBe((before?.deadline.getTime() ?? 0) + 120_000);
    const state = (await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) })).json();
    expect(state.currentIndex).toBe(2);
    // 20 s were left of its window, and 120 s came.
    expect(state.secondsLeft).toBeGreaterThanOrEqual(139);
    expect(state.secondsLeft).toBeLessThanOrEqual(141);
    // The second question's window closed before the time was added: an answer to it does not count.
    const served = (
      await database.pool.query<{ questionId: string; optionId: string }>(
        `select aq.question_id as "questionId", aq.option_order[1] as "optionId" from attempt_questions aq
         where aq.attempt_id = $1::uuid and aq.position = 1`,
        [attemptId],
      )
    ).rows[0];
    const late = await app.inject({ method: "PUT", url: "/api/quiz/answers", headers: bearer(token), payload: served });
    expect(late.statusCode).toBe(409);
  });

  it("gives every running attempt of a drive the time, and none that has ended", async () => {
    const drive = await driveOf(await testWith({ timingMode: "whole_quiz", secondsPerQuestion: 60 }));
    const running = [await sitting(drive), await sitting(drive)];
    const done = await sitting(drive);
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(done.token),
      payload: { answers: [] },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const other = await sitting(await driveOf(await testWith({ timingMode: "whole_quiz", secondsPerQuestion: 60 })));
    const before = await Promise.all([...running, done, other].map(({ attemptId }) => clockOf(attemptId)));

    expect((await addToDrive(drive._id, { minutes: 3 }, viewer)).statusCode).toBe(403);
    const added = await addToDrive(drive._id, { minutes: 3 });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().message).toMatch(/^Added 3 minutes to 2 running attempts: /);
    const after = await Promise.all([...running, done, other].map(({ attemptId }) => clockOf(attemptId)));
    expect(
      after.map((clock, index) => (clock?.deadline.getTime() ?? 0) - (before[index]?.deadline.getTime() ?? 0)),
    ).toEqual([180_000, 180_000, 0, 0]);
    const { rows } = await database.pool.query<{ before: { addedSeconds: number }; after: { addedSeconds: number } }>(
      "select before, after from audit_log where action = 'drive.add-time' and entity_id = $1",
      [drive._id],
    );
    expect(rows[0]).toMatchObject({ before: { addedSeconds: 0 }, after: { addedSeconds: 360 } });
  });

  it("stops at a closing that ends attempts, says so, and gives the rest back when the closing moves", async () => {
    const closesAt = new Date(Date.now() + 60_000);
    const drive = await driveOf(await testWith({ timingMode: "whole_quiz", secondsPerQuestion: 60 }), {
      closesAt: closesAt.toISOString(),
      closingEndsAttempts: true,
    });
    const { attemptId, studentId } = await sitting(drive);
    const added = await addToStudent(studentId, { minutes: 10 });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().message).toContain("The drive's closing ends attempts, so its end moved only ");
    expect((await clockOf(attemptId))?.deadline.getTime()).toBe(closesAt.getTime());

    // The closing taken away: the attempt's whole time returns, with the 10 minutes added.
    const edited = await app.inject({
      method: "PUT",
      url: `/api/drives/${drive._id}`,
      headers: admin,
      payload: { name: drive.name, testId: drive.testId, closesAt: null, closingEndsAttempts: false },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const { rows } = await database.pool.query<{ seconds: number }>(
      "select extract(epoch from deadline_at - started_at)::int as seconds from attempts where id = $1::uuid",
      [attemptId],
    );
    expect(rows[0]?.seconds).toBe(5 * 60 + 600);
  });

  it("moves a section that ran out while the student was silent on first, and gives the next section the time", async () => {
    // An outside attack: two sections of one clock each; 75 s without a request, the first section's 60 s long gone.
    const sectioned = await testWith({
      timingMode: "per_section",
      sections: [
        { name: "First", categories: ["Aptitude"], questionCount: 2, timing: "section_clock", secondsPerQuestion: 30 },
        {
          name: "Second",
          categories: ["Programming"],
          questionCount: 2,
          timing: "section_clock",
          secondsPerQuestion: 30,
        },
      ],
    });
    const drive = await driveOf(sectioned);
    const { token, attemptId, studentId } = await sitting(drive);
    await attemptTimePasses(database.pool, attemptId, 75);
    const added = await addToStudent(studentId, { minutes: 2 });
    expect(added.statusCode, added.body).toBe(200);
    const state = (await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) })).json();
    expect(state.sectionFirst).toBe(2);
    // The second section started when the first ended (60 s after the start): 45 s of it were left, and 120 s came.
    expect(state.secondsLeft).toBeGreaterThanOrEqual(164);
    expect(state.secondsLeft).toBeLessThanOrEqual(166);
    // The same for a drive's everyone.
    const other = await sitting(drive);
    await attemptTimePasses(database.pool, other.attemptId, 75);
    const forAll = await addToDrive(drive._id, { minutes: 1 });
    expect(forAll.statusCode, forAll.body).toBe(200);
    expect(forAll.json().message).toMatch(/^Added 1 minute to 2 running attempts: /);
  });

  it("adds at most 180 minutes to an attempt in all", async () => {
    const drive = await driveOf(await testWith({ timingMode: "whole_quiz", secondsPerQuestion: 60 }));
    const { attemptId, studentId } = await sitting(drive);
    expect((await addToStudent(studentId, { minutes: 120 })).statusCode).toBe(200);
    expect((await addToDrive(drive._id, { minutes: 60 })).statusCode).toBe(200);
    const refused = await addToStudent(studentId, { minutes: 1 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      "This student has no attempt running, or it has had the most time added (180 minutes): no time was added.",
    );
    const forAll = await addToDrive(drive._id, { minutes: 1 });
    expect(forAll.statusCode).toBe(409);
    expect((await clockOf(attemptId))?.added).toBe(180 * 60);
  });

  it("lets the live board see a silent student go quiet, though time added moved their window past now", async () => {
    const drive = await driveOf(await testWith({ timingMode: "per_question", secondsPerQuestion: 30 }));
    const { attemptId, studentId } = await sitting(drive);
    expect((await addToStudent(studentId, { minutes: 10 })).statusCode).toBe(200);
    await attemptTimePasses(database.pool, attemptId, 2 * 60);
    const board = await app.inject({ method: "GET", url: `/api/drives/${drive._id}/live`, headers: admin });
    expect(board.json().students[0]).toMatchObject({ state: "quiet", addedSeconds: 600 });
  });

  it("refuses an attempt whose time is up, a student with none, an unknown one, and minutes out of range", async () => {
    const drive = await driveOf(await testWith({ timingMode: "whole_quiz", secondsPerQuestion: 60 }));
    const { attemptId, studentId } = await sitting(drive);
    // In the grace after its deadline the attempt is not running: nothing is open to extend.
    await attemptTimePasses(database.pool, attemptId, 5 * 60 + 2);
    const late = await addToStudent(studentId, { minutes: 5 });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(
      "This student has no attempt running, or it has had the most time added (180 minutes): no time was added.",
    );
    expect((await clockOf(attemptId))?.added).toBe(0);
    const none = await addToDrive(drive._id, { minutes: 5 });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(
      "No attempt of this drive is running that can take more time (each may have 180 minutes added): no time was added.",
    );
    const unknown = await addToStudent("00000000-0000-4000-8000-000000000000", { minutes: 5 });
    expect(unknown.statusCode).toBe(404);
    expect((await addToDrive("00000000-0000-4000-8000-000000000000", { minutes: 5 })).statusCode).toBe(404);
    for (const minutes of [0, 181, 1.5, "5", null]) {
      const refused = await addToStudent(studentId, { minutes });
      expect(refused.statusCode, String(minutes)).toBe(400);
      expect(refused.json().fields?.minutes).toBe("Minutes to add must be a whole number from 1 to 180");
    }
  });
});
