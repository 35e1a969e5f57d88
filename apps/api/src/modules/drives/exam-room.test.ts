// A drive's exam-room rules (issue 27, decision 035): the addresses its test may be sat from, and a late-entry
// cut-off after which nobody new registers or starts. Through the real API, as a candidate who wants round them
// would try: from home with a token made in the lab, with a forged X-Forwarded-For, late with a friend's start.
import type { Drive, DriveInput } from "@trainwise/contract/drives";
import type { QuizIntro } from "@trainwise/contract/quiz";
import { describe, expect, it } from "vitest";
import { createSecondInstance, createTestApp } from "../../test/app.ts";
import {
  adminToken,
  attemptTimePasses,
  bearer,
  registerStudent,
  seedQuestions,
  studentInput,
  studentOfAttempt,
} from "../../test/fixtures.ts";

const LAB = "10.20.30.40";
const HOME = "203.0.113.9";

/** A product with a bank and an owner, making drives of its default test with the settings given. */
async function productWithDrives(config: Parameters<typeof createTestApp>[0] = {}) {
  const product = await createTestApp(config);
  const { app, database } = product;
  await seedQuestions(database.db, 30);
  const admin = bearer(await adminToken(app, database.db));
  const [defaultTest] = (await app.inject({ method: "GET", url: "/api/tests/choices", headers: admin })).json() as {
    _id: string;
  }[];
  const testId = defaultTest?._id as string;
  const createDrive = (settings: Partial<DriveInput>) =>
    app.inject({
      method: "POST",
      url: "/api/drives",
      headers: admin,
      payload: { name: `Exam room ${Math.random()}`, testId, ...settings },
    });
  async function driveWith(settings: Partial<DriveInput>) {
    const created = await createDrive(settings);
    expect(created.statusCode, created.body).toBe(201);
    return created.json() as Drive;
  }
  /** A student of a new drive with `settings` who has read the intro and started. */
  async function sittingOn(settings: Partial<DriveInput>) {
    const drive = await driveWith(settings);
    const student = await registerStudent(app, { driveCode: drive.code });
    const { token } = student;
    const intro = (await app.inject({ method: "GET", url: "/api/quiz/intro", headers: bearer(token) })).json();
    const start = await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) });
    expect(start.statusCode, start.body).toBe(200);
    const state = start.json() as { attemptId: string; question: { _id: string; options: { _id: string }[] } };
    return { drive, token, student, intro: intro as QuizIntro, state };
  }
  /** A new test of the bank's questions with `settings` (a name of its own): its id. */
  async function testWith(settings: Record<string, unknown>) {
    const created = await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: admin,
      payload: { name: `Exam room test ${Math.random()}`, ...settings },
    });
    expect(created.statusCode, created.body).toBe(201);
    return (created.json() as { _id: string })._id;
  }
  const timePasses = (attemptId: string, seconds: number) => attemptTimePasses(database.pool, attemptId, seconds);
  return { product, app, database, admin, testId, createDrive, driveWith, sittingOn, testWith, timePasses };
}

describe("a drive's exam room", async () => {
  const { product, app, database, admin, testId, createDrive, driveWith } = await productWithDrives();
  const from = (remoteAddress: string, token: string, method: "GET" | "POST", url: string, payload?: object) =>
    app.inject({ method, url, headers: bearer(token), remoteAddress, ...(payload && { payload }) });

  it("keeps the addresses and ranges as written, and refuses what is not one with a message", async () => {
    const drive = await driveWith({
      allowedAddresses: [" 10.20.0.0/16 ", "192.168.1.7", "2001:DB8::/32", "10.20.0.0/16"],
    });
    expect(drive.allowedAddresses).toEqual(["10.20.0.0/16", "192.168.1.7", "2001:db8::/32"]);
    // "2001:db8::/64.5" passed zod's IPv6 range check, and every student request of the drive then failed with a 500.
    for (const wrong of [
      "10.20.0.0/33",
      "lab",
      "10.20.0",
      "10.0.0.0/8; drop table drives",
      "2001:db8::/64.5",
      "::/1e2",
    ]) {
      const refused = await createDrive({ allowedAddresses: [wrong] });
      expect(refused.statusCode, wrong).toBe(400);
      expect(refused.json().message).toContain("Each allowed address must be an address such as 10.20.30.40");
    }
  });

  it("lets a student sit the test only from inside it, on every request of the attempt", async () => {
    const drive = await driveWith({ allowedAddresses: ["10.20.0.0/16"] });
    // Registering is allowed from anywhere: students register from home before the day.
    const student = await registerStudent(app, { driveCode: drive.code });
    const { token } = student;
    const outside = await from(HOME, token, "POST", "/api/quiz/start");
    expect(outside.statusCode).toBe(403);
    expect(outside.json().message).toBe(
      `This test can only be taken from the places its organisers allowed, such as the college's own network; your connection comes from ${HOME}. Please ask the invigilator.`,
    );
    expect((await from(HOME, token, "GET", "/api/quiz/intro")).statusCode).toBe(403);
    const { rows: none } = await database.pool.query(
      "select 1 from attempts a join students s on s.id = a.student_id where s.drive_id = $1::uuid",
      [drive._id],
    );
    expect(none).toHaveLength(0);

    const inside = await from(LAB, token, "POST", "/api/quiz/start");
    expect(inside.statusCode, inside.body).toBe(200);
    const question = inside.json().question as { _id: string; options: { _id: string }[] };
    // The token carried home answers nothing there: neither an answer, nor Next, nor the attempt, nor Submit.
    const answer = { questionId: question._id, optionId: question.options[0]?._id };
    for (const [method, url, payload] of [
      ["GET", "/api/quiz/attempt", undefined],
      ["POST", "/api/quiz/next", { position: 1, answer }],
      ["POST", "/api/quiz/submit", { answers: [answer] }],
    ] as const) {
      const refused = await from(HOME, token, method, url, payload);
      expect(refused.statusCode, url).toBe(403);
    }
    const { rows } = await database.pool.query<{ answered: number; submitted: boolean }>(
      `select count(aq.selected_option_id)::int as answered, bool_or(a.submitted_at is not null) as submitted
       from attempts a join attempt_questions aq on aq.attempt_id = a.id
       join students s on s.id = a.student_id where s.drive_id = $1::uuid`,
      [drive._id],
    );
    expect(rows[0]).toEqual({ answered: 0, submitted: false });
    // An IPv4 client of a server on IPv6 is matched as the IPv4 address it is.
    expect((await from(`::ffff:${LAB}`, token, "GET", "/api/quiz/attempt")).statusCode).toBe(200);
    expect((await from(LAB, token, "POST", "/api/quiz/next", { position: 1, answer })).statusCode).toBe(200);
  });

  it("believes no X-Forwarded-For unless TRUST_PROXY names the proxy", async () => {
    const drive = await driveWith({ allowedAddresses: [`${LAB}`] });
    const student = await registerStudent(app, { driveCode: drive.code });
    const { token } = student;
    const forged = await app.inject({
      method: "POST",
      url: "/api/quiz/start",
      headers: { ...bearer(token), "x-forwarded-for": LAB },
      remoteAddress: HOME,
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().message).toContain(`your connection comes from ${HOME}.`);

    const proxied = await productWithDrives({ trustProxy: "127.0.0.1" });
    {
      const created = await proxied.driveWith({ name: "Behind nginx", allowedAddresses: ["10.20.0.0/16"] });
      const student = await registerStudent(proxied.app, { driveCode: created.code });
      const start = (client: string) =>
        proxied.app.inject({
          method: "POST",
          url: "/api/quiz/start",
          headers: { ...bearer(student.token), "x-forwarded-for": client },
          remoteAddress: "127.0.0.1",
        });
      expect((await start(HOME)).statusCode).toBe(403);
      expect((await start(LAB)).statusCode).toBe(200);
    }
  });

  it("reaches students already sitting when the admin changes it, on another instance through the database", async () => {
    const drive = await driveWith({});
    const student = await registerStudent(app, { driveCode: drive.code });
    const { token } = student;
    // The student sits on the second instance, which keeps their session (and the room) cached.
    const second = await createSecondInstance(product);
    const onSecond = (remoteAddress: string) =>
      second.app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token), remoteAddress });
    expect((await from(HOME, token, "POST", "/api/quiz/start")).statusCode).toBe(200);
    expect((await onSecond(HOME)).statusCode).toBe(200);
    const updated = await app.inject({
      method: "PUT",
      url: `/api/drives/${drive._id}`,
      headers: admin,
      payload: { name: "Now in the lab", testId, code: drive.code, allowedAddresses: ["10.20.0.0/16"] },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    // The second instance forgets its copy when PostgreSQL announces the change.
    let status = 200;
    for (let tries = 0; tries < 50 && status === 200; tries++) {
      status = (await onSecond(HOME)).statusCode;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(403);
    expect((await onSecond(LAB)).statusCode).toBe(200);
    expect((await from(HOME, token, "GET", "/api/quiz/attempt")).statusCode).toBe(403);
  });

  it("leaves a student's result readable from anywhere once the test is over", async () => {
    const drive = await driveWith({ allowedAddresses: [LAB] });
    const student = await registerStudent(app, { driveCode: drive.code });
    const { token } = student;
    expect((await from(LAB, token, "POST", "/api/quiz/start")).statusCode).toBe(200);
    const submitted = await from(LAB, token, "POST", "/api/quiz/submit", { answers: [] });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const result = await from(HOME, token, "GET", `/api/quiz/result/${submitted.json().resultId}`);
    expect(result.statusCode, result.body).toBe(200);
  });
});

describe("a drive's late-entry cut-off", async () => {
  const { app, database, createDrive, driveWith } = await productWithDrives();
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

  it("needs an opening time to count from, and stays within its range", async () => {
    for (const [settings, message] of [
      [{ lateEntryMinutes: 15 }, "Late entry counts from the opening time: set when the drive opens as well"],
      [{ lateEntryMinutes: 0, opensAt: minutesAgo(5) }, "Late entry must be at least 1"],
      [{ lateEntryMinutes: 1441, opensAt: minutesAgo(5) }, "Late entry must be at most 1440"],
      [{ lateEntryMinutes: 2.5, opensAt: minutesAgo(5) }, "Late entry must be a whole number"],
    ] as const) {
      const refused = await createDrive({ ...settings });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toContain(message);
    }
  });

  it("refuses someone new after it, lets back whoever came before, and resumes whoever started", async () => {
    // Opened 30 minutes ago with 60 minutes of entry: everyone is in time for now.
    const drive = await driveWith({ opensAt: minutesAgo(30), lateEntryMinutes: 60 });
    const panel = await app.inject({ method: "GET", url: `/api/auth/student/drive?code=${drive.code}` });
    expect(panel.json().entryMessage).toMatch(/^New candidates may register and start until \d\d:\d\d on /);

    const sitting = await registerStudent(app, { driveCode: drive.code });
    expect(
      (await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(sitting.token) })).statusCode,
    ).toBe(200);
    const registeredOnly = await registerStudent(app, { driveCode: drive.code });

    // Now the opening moves back: entry closed 15 minutes ago.
    await database.pool.query("update drives set opens_at = now() - interval '75 minutes' where id = $1::uuid", [
      drive._id,
    ]);
    const late = studentInput({ driveCode: drive.code });
    const refused = await app.inject({ method: "POST", url: "/api/auth/student/register", payload: late });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(
      /^Entry to this test closed at \d\d:\d\d on .+, 60 minutes after it opened\. Please speak to the invigilator\.$/,
    );
    const { rows } = await database.pool.query("select 1 from students where email = $1", [late.email]);
    expect(rows).toHaveLength(0);

    // A registered student who never started comes back, but may not start: the intro says so before Start.
    const back = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: { ...registeredOnly.input, resumeCode: registeredOnly.resumeCode },
    });
    expect(back.statusCode, back.body).toBe(200);
    const intro = await app.inject({ method: "GET", url: "/api/quiz/intro", headers: bearer(back.json().token) });
    expect(intro.json().status).toBe("not_started");
    expect(intro.json().startRefusal).toMatch(/^Entry to this test closed at \d\d:\d\d on /);
    const start = await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(back.json().token) });
    expect(start.statusCode).toBe(403);
    expect(start.json().message).toBe(intro.json().startRefusal);

    // One who started before the cut-off goes on, on another device too.
    const again = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: { ...sitting.input, resumeCode: sitting.resumeCode },
    });
    expect(again.statusCode, again.body).toBe(200);
    const resumed = await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(again.json().token) });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json().status).toBe("in_progress");
    const sittingIntro = await app.inject({
      method: "GET",
      url: "/api/quiz/intro",
      headers: bearer(again.json().token),
    });
    expect(sittingIntro.json()).toMatchObject({ status: "in_progress", startRefusal: null });
    const after = await app.inject({ method: "GET", url: `/api/auth/student/drive?code=${drive.code}` });
    expect(after.json().entryMessage).toContain(
      "If you registered before, you can still come back with your resume code.",
    );
  });
});

describe("a drive's focus-loss limit", async () => {
  const { app, database, admin, createDrive, sittingOn, testWith, timePasses } = await productWithDrives();
  const leaveWindow = (token: string, position = 0) =>
    app.inject({ method: "POST", url: "/api/quiz/focus", headers: bearer(token), payload: { position } });

  it("is refused without a limit to submit at, or out of its range", async () => {
    for (const [settings, message] of [
      [{ focusLossEndsAttempt: true }, "Set how many times a candidate may leave the quiz before it is submitted"],
      [{ focusLossLimit: 0 }, "Focus-loss limit must be at least 1"],
      [{ focusLossLimit: 101 }, "Focus-loss limit must be at most 100"],
    ] as const) {
      const refused = await createDrive({ ...settings });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toContain(message);
    }
  });

  it("submits the attempt with its saved answers when the page reports the limit reached, and the board says why", async () => {
    const { drive, token, state } = await sittingOn({ focusLossLimit: 2, focusLossEndsAttempt: true });
    const answer = { questionId: state.question._id, optionId: state.question.options[0]?._id };
    expect(
      (await app.inject({ method: "PUT", url: "/api/quiz/answers", headers: bearer(token), payload: answer }))
        .statusCode,
    ).toBe(200);
    const first = await leaveWindow(token);
    expect(first.json()).toEqual({ focusLosses: 1, limit: 2, endsAttempt: true, resultId: null });
    const second = await leaveWindow(token);
    expect(second.json()).toEqual({ focusLosses: 2, limit: 2, endsAttempt: true, resultId: state.attemptId });
    const { rows } = await database.pool.query<{ submitted: boolean; ended: string; answered: number }>(
      `select a.submitted_at is not null as submitted, a.ended_by as ended,
         (select count(selected_option_id)::int from attempt_questions where attempt_id = a.id) as answered
       from attempts a where a.id = $1::uuid`,
      [state.attemptId],
    );
    expect(rows[0]).toEqual({ submitted: true, ended: "focus_limit", answered: 1 });
    // Nothing more is taken on it.
    const next = await app.inject({
      method: "POST",
      url: "/api/quiz/next",
      headers: bearer(token),
      payload: { position: 1 },
    });
    expect(next.statusCode).toBe(409);
    const board = await app.inject({ method: "GET", url: `/api/drives/${drive._id}/live`, headers: admin });
    const [student] = board.json().students as { endedBy: string | null; focusLosses: number }[];
    expect(student).toMatchObject({ endedBy: "focus_limit", focusLosses: 2 });
  });

  it("closes the attempt once when reports at the limit arrive together", async () => {
    const { token, state } = await sittingOn({ focusLossLimit: 1, focusLossEndsAttempt: true });
    const reports = await Promise.all([leaveWindow(token), leaveWindow(token), leaveWindow(token)]);
    // A report counted while the attempt was open leads to its result, whichever report closed it; one that came
    // after finds no quiz in progress. None fails otherwise.
    for (const report of reports) {
      if (report.statusCode === 200) expect(report.json().resultId).toBe(state.attemptId);
      else expect(report.statusCode).toBe(409);
    }
    expect(reports.some((report) => report.statusCode === 200)).toBe(true);
    const { rows } = await database.pool.query(
      "select 1 from attempts where id = $1::uuid and submitted_at is not null and ended_by = 'focus_limit'",
      [state.attemptId],
    );
    expect(rows).toHaveLength(1);
  });

  it("counts every report of several arriving together, and the one reaching the limit submits", async () => {
    // Counted in the statement that waited for the attempt's lock, each report read the count from before the wait:
    // three at once each said 1, and the attempt ran on past a limit of 3 (an outside attack).
    const { token, state } = await sittingOn({ focusLossLimit: 3, focusLossEndsAttempt: true });
    const reports = await Promise.all([leaveWindow(token), leaveWindow(token), leaveWindow(token)]);
    expect(reports.map((report) => report.statusCode)).toEqual([200, 200, 200]);
    const counts = reports.map((report) => report.json() as { focusLosses: number; resultId: string | null });
    expect(counts.map((count) => count.focusLosses).sort()).toEqual([1, 2, 3]);
    expect(counts.find((count) => count.focusLosses === 3)?.resultId).toBe(state.attemptId);
    const { rows } = await database.pool.query(
      "select 1 from attempts where id = $1::uuid and submitted_at is not null and ended_by = 'focus_limit'",
      [state.attemptId],
    );
    expect(rows).toHaveLength(1);
  });

  it("ends the attempt for good: a test's further attempts wait until an admin allows one", async () => {
    const testId = await testWith({ questionCount: 3, timingMode: "whole_quiz", attemptsAllowed: 3 });
    const { drive, token, student, state } = await sittingOn({ testId, focusLossLimit: 1, focusLossEndsAttempt: true });
    expect((await leaveWindow(token)).json().resultId).toBe(state.attemptId);
    // The test allows three attempts; the candidate sent home by the limit may not start the second at once.
    const refused = await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      "Your attempt was ended before its time, so another cannot start. Ask an admin if you need another attempt.",
    );
    const intro = await app.inject({ method: "GET", url: "/api/quiz/intro", headers: bearer(token) });
    expect(intro.json()).toMatchObject({ status: "completed", attemptsUsed: 1, attemptsAllowed: 1 });
    const board = await app.inject({ method: "GET", url: `/api/drives/${drive._id}/live`, headers: admin });
    expect(board.json().students[0]).toMatchObject({ state: "submitted", endedBy: "focus_limit" });

    // An admin who lets them try again decides it.
    const { rows } = await database.pool.query<{ id: string }>("select student_id as id from attempts where id = $1", [
      state.attemptId,
    ]);
    const allowed = await app.inject({
      method: "POST",
      url: `/api/students/${rows[0]?.id}/extra-attempt`,
      headers: admin,
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    const back = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: { ...student.input, resumeCode: student.resumeCode },
    });
    const backToken = bearer(back.json().token);
    const again = await app.inject({ method: "POST", url: "/api/quiz/start", headers: backToken });
    expect(again.statusCode, again.body).toBe(200);
    // That one attempt, and no more: submitted, it does not give the test's allowance back (an outside attack
    // started a third).
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: backToken,
      payload: { answers: [] },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const third = await app.inject({ method: "POST", url: "/api/quiz/start", headers: backToken });
    expect(third.statusCode).toBe(409);
    const after = await app.inject({ method: "GET", url: "/api/quiz/intro", headers: backToken });
    expect(after.json()).toMatchObject({ status: "completed", attemptsUsed: 2, attemptsAllowed: 2 });
  });

  it("does not count a question a paced test has not shown yet", async () => {
    const { token } = await sittingOn({ focusLossLimit: 5 });
    const ahead = await leaveWindow(token, 4);
    expect(ahead.statusCode).toBe(409);
    expect(ahead.json().message).toBe("You have no quiz in progress at that question.");
    expect((await leaveWindow(token, 0)).json().focusLosses).toBe(1);
  });

  it("leaves an attempt whose time has run out to its clock: in the grace, the limit does not end it", async () => {
    const testId = await testWith({ questionCount: 2, secondsPerQuestion: 30, timingMode: "whole_quiz" });
    const { token, state } = await sittingOn({ testId, focusLossLimit: 1, focusLossEndsAttempt: true });
    await timePasses(state.attemptId, 63);
    const report = await leaveWindow(token);
    expect(report.json()).toMatchObject({ focusLosses: 1, resultId: null });
    const { rows } = await database.pool.query<{ endedBy: string | null }>(
      'select ended_by as "endedBy" from attempts where id = $1::uuid',
      [state.attemptId],
    );
    expect(rows[0]?.endedBy).toBeNull();
  });

  it("only warns on a drive that does not submit, and counts as before on a drive without a limit", async () => {
    const warned = await sittingOn({ focusLossLimit: 1 });
    expect((await leaveWindow(warned.token)).json()).toEqual({
      focusLosses: 1,
      limit: 1,
      endsAttempt: false,
      resultId: null,
    });
    expect((await leaveWindow(warned.token)).json().focusLosses).toBe(2);
    const free = await sittingOn({});
    expect((await leaveWindow(free.token)).json()).toEqual({
      focusLosses: 1,
      limit: null,
      endsAttempt: false,
      resultId: null,
    });
    const { rows } = await database.pool.query<{ open: number }>(
      "select count(*)::int as open from attempts where id = any($1::uuid[]) and submitted_at is null",
      [[warned.state.attemptId, free.state.attemptId]],
    );
    expect(rows[0]?.open).toBe(2);
  });
});

describe("full screen on a drive that asks for it", async () => {
  const { app, admin, database, sittingOn, timePasses } = await productWithDrives();
  const exit = (token: string) =>
    app.inject({ method: "POST", url: "/api/quiz/full-screen/exit", headers: bearer(token) });

  it("counts each exit while the attempt runs, for the live board, and tells the page the rules first", async () => {
    const { drive, token, intro } = await sittingOn({ fullScreen: true, blockCopyPaste: true });
    expect(drive).toMatchObject({ fullScreen: true, blockCopyPaste: true });
    expect(intro).toMatchObject({ fullScreen: true, blockCopyPaste: true });
    expect((await exit(token)).statusCode).toBe(204);
    expect((await exit(token)).statusCode).toBe(204);
    const board = await app.inject({ method: "GET", url: `/api/drives/${drive._id}/live`, headers: admin });
    expect(board.json().students[0]).toMatchObject({ fullScreenExits: 2, endedBy: null });
    // Once submitted, nothing more is counted.
    await app.inject({ method: "POST", url: "/api/quiz/submit", headers: bearer(token), payload: { answers: [] } });
    const late = await exit(token);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe("You have no quiz in progress on a drive that asks for full screen.");
  });

  it("counts nothing once the attempt's time has run out past the grace, though no request closed it yet", async () => {
    // An outside attack added exits to an attempt whose time was over, for the invigilator to read.
    const { token, state } = await sittingOn({ fullScreen: true });
    expect((await exit(token)).statusCode).toBe(204);
    await timePasses(state.attemptId, 25 * 30 + 11);
    expect((await exit(token)).statusCode).toBe(409);
    const { rows } = await database.pool.query<{ exits: number }>(
      "select full_screen_exits as exits from attempts where id = $1::uuid",
      [state.attemptId],
    );
    expect(rows[0]?.exits).toBe(1);
  });

  it("counts nothing on a drive that does not ask for it", async () => {
    const { drive, token, intro } = await sittingOn({});
    expect(intro).toMatchObject({ fullScreen: false, blockCopyPaste: false });
    expect((await exit(token)).statusCode).toBe(409);
    const board = await app.inject({ method: "GET", url: `/api/drives/${drive._id}/live`, headers: admin });
    expect(board.json().students[0].fullScreenExits).toBe(0);
  });
});

describe("an invigilator ends one attempt from the live board", async () => {
  const { product, app, database, admin, sittingOn, testWith, timePasses } = await productWithDrives();
  const second = await createSecondInstance(product);
  const viewer = bearer(await adminToken(app, database.db, `viewer${Date.now()}`, "viewer"));
  const endAttempt = (studentId: string, headers = admin) =>
    app.inject({ method: "POST", url: `/api/students/${studentId}/end-attempt`, headers });
  const studentOf = (attemptId: string) => studentOfAttempt(database.pool, attemptId);

  it("scores it with its saved answers, audited, and the student's page on another instance finds it submitted", async () => {
    const { drive, token, state } = await sittingOn({});
    const studentId = await studentOf(state.attemptId);
    const answer = { questionId: state.question._id, optionId: state.question.options[0]?._id };
    const saved = await second.app.inject({
      method: "PUT",
      url: "/api/quiz/answers",
      headers: bearer(token),
      payload: answer,
    });
    expect(saved.statusCode).toBe(200);

    // A viewer watches but may not end anything.
    const refused = await endAttempt(studentId, viewer);
    expect(refused.statusCode).toBe(403);
    const ended = await endAttempt(studentId);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().message).toBe(
      "The attempt has ended. It is scored with the answers saved so far; the student sees their result at their next step.",
    );
    const { rows } = await database.pool.query<{ endedBy: string; answered: number; submitted: boolean }>(
      `select ended_by as "endedBy", submitted_at is not null as submitted,
         (select count(selected_option_id)::int from attempt_questions where attempt_id = a.id) as answered
       from attempts a where id = $1::uuid`,
      [state.attemptId],
    );
    expect(rows[0]).toEqual({ endedBy: "invigilator", submitted: true, answered: 1 });
    const audit = await database.pool.query<{ action: string; entityId: string }>(
      `select action, entity_id as "entityId" from audit_log where action = 'student.end-attempt'`,
    );
    expect(audit.rows).toContainEqual({ action: "student.end-attempt", entityId: studentId });

    // The student, on the other instance: Next is refused, and the page's reload finds the result.
    const next = await second.app.inject({
      method: "POST",
      url: "/api/quiz/next",
      headers: bearer(token),
      payload: { position: 1 },
    });
    expect(next.statusCode).toBe(409);
    // Its reload is refused a new start (one attempt) and reads the intro, which leads to the result.
    const reload = await second.app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) });
    expect(reload.statusCode).toBe(409);
    const intro = await second.app.inject({ method: "GET", url: "/api/quiz/intro", headers: bearer(token) });
    expect(intro.json()).toMatchObject({ status: "completed", resultId: state.attemptId, endedBy: "invigilator" });
    const board = await second.app.inject({ method: "GET", url: `/api/drives/${drive._id}/live`, headers: admin });
    expect(board.json().students[0]).toMatchObject({ state: "submitted", endedBy: "invigilator" });

    // Nothing is left to end.
    const again = await endAttempt(studentId);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("This student has no attempt running: nothing was ended.");
    // The audit keeps who ended it, with the attempt.
    const { rows: after } = await database.pool.query<{ after: { attempts: { endedBy: string | null }[] } }>(
      "select after from audit_log where action = 'student.end-attempt' and entity_id = $1",
      [studentId],
    );
    expect(after[0]?.after.attempts).toMatchObject([{ endedBy: "invigilator" }]);
  });

  it("says a student who does not exist is not found", async () => {
    const missing = await endAttempt("00000000-0000-4000-8000-000000000000");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe("Student not found.");
  });

  it("leaves an attempt whose time has run out to its clock, in the grace after it", async () => {
    const testId = await testWith({ questionCount: 2, secondsPerQuestion: 30, timingMode: "whole_quiz" });
    const { state } = await sittingOn({ testId });
    const studentId = await studentOf(state.attemptId);
    await timePasses(state.attemptId, 63);
    const late = await endAttempt(studentId);
    expect(late.statusCode).toBe(409);
    const { rows } = await database.pool.query<{ endedBy: string | null }>(
      'select ended_by as "endedBy" from attempts where id = $1::uuid',
      [state.attemptId],
    );
    expect(rows[0]?.endedBy).toBeNull();
  });
});
