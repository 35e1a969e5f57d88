// An outside review of held results (decision 024) and neutral drive-code refusals (decision 025), attacked as a
// motivated candidate and a careless admin would, against the real server and database. Each `it` names a finding
// and fails on the code it was written against.

import { setTimeout as sleep } from "node:timers/promises";
import type { QuizQuestion } from "@trainwise/contract/quiz";
import { describe, expect, it } from "vitest";
import { NOT_ADMITTED } from "../modules/students/registration.ts";
import { createTestApp } from "../test/app.ts";
import { adminToken, bearer, seedCategory, studentInput } from "../test/fixtures.ts";
import { watchedLog } from "../test/log-watch.ts";
import { startSmtpSink } from "../test/smtp-sink.ts";

describe("held results attacked: nothing is published while someone can still answer, or answer afterwards", async () => {
  const { app, database } = await createTestApp({ logStream: watchedLog() });
  const asAdmin = bearer(await adminToken(app, database.db));
  let addresses = 0;
  const nextAddress = () => `10.77.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

  /** A secure "ticks after close" test on its own category, and a drive of it that holds its results. */
  async function heldDrive(name: string, drive: Record<string, unknown> = {}) {
    await seedCategory(database.pool, name, 3);
    const test = await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: asAdmin,
      payload: {
        name,
        categories: [name],
        questionCount: 3,
        timingMode: "whole_quiz",
        reviewPolicy: "ticks_after_close",
        secure: true,
      },
    });
    expect(test.statusCode, test.body).toBe(201);
    const made = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: asAdmin,
      payload: { name: `${name} drive`, testId: test.json()._id, holdResults: true, ...drive },
    });
    expect(made.statusCode, made.body).toBe(201);
    return made.json() as { _id: string; code: string };
  }

  async function register(driveCode: string) {
    const registered = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: studentInput({ driveCode }),
      remoteAddress: nextAddress(),
    });
    return registered;
  }

  const driveAction = (id: string, action: string) =>
    app.inject({ method: "POST", url: `/api/drives/${id}/${action}`, headers: asAdmin });

  const right = (question: QuizQuestion) =>
    question.options.find((option) => option.text.startsWith("right"))?._id ?? "";

  async function sitWithKey(token: string) {
    const served = await app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(token) });
    expect(served.statusCode, served.body).toBe(200);
    const questions = served.json() as QuizQuestion[];
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(token),
      payload: { answers: questions.map((question) => ({ questionId: question._id, optionId: right(question) })) },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const result = await app.inject({
      method: "GET",
      url: `/api/quiz/result/${submitted.json().resultId}`,
      headers: bearer(token),
    });
    return { ...result.json(), resultId: submitted.json().resultId as string };
  }

  it("finding 1: a publish that lands while a start is being stored leaves an attempt answering after the key is out", async () => {
    const drive = await heldDrive("RaceStart");
    const early = await register(drive.code);
    expect(early.statusCode, early.body).toBe(200);
    const candidate = await register(drive.code);
    expect(candidate.statusCode, candidate.body).toBe(200);
    const token = candidate.json().token as string;

    // The start reads the drive as open, then stores its attempt; storing is held up for a moment here (a busy
    // database on drive day does the same) by a lock on the table its insert also writes.
    const blocker = await database.pool.connect();
    try {
      await blocker.query("begin");
      await blocker.query("lock table question_keys in exclusive mode");
      const start = app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(token) });
      // Wait until the start is waiting on the lock.
      for (let tries = 0; tries < 100; tries++) {
        const { rows } = await database.pool.query(
          "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%insert into attempts%'",
        );
        if (rows[0].n > 0) break;
        await sleep(20);
      }
      // Meanwhile the examiner closes the drive and publishes: no attempt is open that the server can see.
      // (Not awaited past half a second each: a server that makes them wait for the start must not hang the test.)
      const closing = driveAction(drive._id, "close");
      await Promise.race([closing, sleep(500)]);
      const publishing = closing.then(() => driveAction(drive._id, "results/publish"));
      await Promise.race([publishing, sleep(500)]);
      await blocker.query("commit");
      const started = await start;
      expect((await closing).statusCode).toBe(200);
      const published = await publishing;

      const served = started.statusCode === 200 ? (started.json() as QuizQuestion[]) : [];
      let answeredAfterPublish = false;
      if (published.statusCode === 200 && served.length > 0) {
        const answer = await app.inject({
          method: "PUT",
          url: "/api/quiz/answers",
          headers: bearer(token),
          payload: { questionId: served[0]?._id, optionId: right(served[0] as QuizQuestion) },
        });
        answeredAfterPublish = answer.statusCode === 200;
      }
      const { rows } = await database.pool.query(
        `select count(*)::int as n from attempts a join drives d on d.id = a.drive_id
         where d.id = $1 and d.results_published_at is not null and a.submitted_at is null
           and a.deadline_at > d.results_published_at`,
        [drive._id],
      );
      const outcome = {
        publish: published.statusCode,
        start: started.statusCode,
        answeredAfterPublish,
        openAfterPublish: rows[0].n,
      };
      // Today: { publish: 200, start: 200, answeredAfterPublish: true, openAfterPublish: 1 }.
      expect(
        outcome,
        "publishing and a start must not both succeed: one of them waits for, or refuses, the other",
      ).not.toMatchObject({ publish: 200, start: 200 });
      expect(outcome).toMatchObject({ answeredAfterPublish: false, openAfterPublish: 0 });
    } finally {
      await blocker.query("rollback").catch(() => undefined);
      blocker.release();
    }
  });

  it("finding 2: a held drive published before anyone submitted can be reopened, and then shows every score and tick at submit", async () => {
    const drive = await heldDrive("PublishedEmpty");
    // A careless admin: closes the drive early, presses Publish (allowed: nothing runs), then reopens it.
    expect((await driveAction(drive._id, "close")).statusCode).toBe(200);
    const published = await driveAction(drive._id, "results/publish");
    expect(published.statusCode, published.body).toBe(200);
    const reopened = await driveAction(drive._id, "reopen");
    if (reopened.statusCode !== 200) return; // refused: the drive never takes an attempt after its publication
    const registered = await register(drive.code);
    if (registered.statusCode !== 200) return;
    // Throw-away registrations now read the score and the ticks at submit: row 2's oracle, on a secure drive.
    const result = await sitWithKey(registered.json().token);
    expect(result.status, "a secure drive's result must not be out while the drive still takes attempts").toBe(
      "pending",
    );
  });

  it("finding 3: after publishing, removing the registrations that read the key lets the drive reopen with its key out", async () => {
    const drive = await heldDrive("PublishedRemoved");
    const first = await register(drive.code);
    expect(first.statusCode, first.body).toBe(200);
    const studentId = (await database.pool.query("select id from students where drive_id = $1", [drive._id])).rows[0]
      .id as string;
    const token = first.json().token as string;
    const { resultId } = await sitWithKey(token);
    expect((await driveAction(drive._id, "close")).statusCode).toBe(200);
    expect((await driveAction(drive._id, "results/publish")).statusCode).toBe(200);
    const read = await app.inject({ method: "GET", url: `/api/quiz/result/${resultId}`, headers: bearer(token) });
    expect(read.json()).toMatchObject({ status: "released", review: { ticksShown: true } });
    // The key reached that student with the ticks; the admin then removes the registration (a squatter, say).
    const removed = await app.inject({ method: "DELETE", url: `/api/students/${studentId}`, headers: asAdmin });
    expect(removed.statusCode, removed.body).toBe(200);
    const reopened = await driveAction(drive._id, "reopen");
    expect(
      reopened.statusCode,
      "the drive's results were published, so its key is out: it must never take new attempts again",
    ).toBe(409);
  });
});

describe("refused drive codes attacked: a roster's drive stays unconfirmed to someone it does not list", async () => {
  const smtp = await startSmtpSink();
  const { app, database } = await createTestApp({ logStream: watchedLog(), smtpUrl: smtp.url });
  const asAdmin = bearer(await adminToken(app, database.db));

  it("finding 4: a roster-only drive that verifies e-mail answered an unlisted address's code request, unlike an unknown code: the pair is refused", async () => {
    // The drive answered "this test opens at …" (or e-mailed a code) to an address its roster does not list, where an
    // unknown code answers "does not let you in". A roster already checks who registers, so the pair is refused:
    // by the contract, and by the database for anything that writes drives another way.
    const test = await app.inject({ method: "POST", url: "/api/tests", headers: asAdmin, payload: { name: "Listed" } });
    expect(test.statusCode, test.body).toBe(201);
    const made = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: asAdmin,
      payload: { name: "Northwind campus hiring 2027", testId: test.json()._id, rosterOnly: true, verifyEmail: true },
    });
    expect(made.statusCode, made.body).toBe(400);
    expect(made.json().fields.verifyEmail).toBe(
      "The roster already checks who registers: e-mail codes are for drives without a roster",
    );
    const roster = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: asAdmin,
      payload: { name: "Northwind roster", testId: test.json()._id, rosterOnly: true },
    });
    expect(roster.statusCode, roster.body).toBe(201);
    await expect(
      database.pool.query("update drives set verify_email = true where id = $1", [roster.json()._id]),
    ).rejects.toThrow(/drives_email_codes_without_roster/);
    // Its code requests are refused as an unknown code's are.
    const ask = (driveCode: string, remoteAddress: string) =>
      app.inject({
        method: "POST",
        url: "/api/auth/student/email-code",
        payload: { driveCode, email: "guesser@example.org" },
        remoteAddress,
      });
    const unknown = await ask("NOSUCH77", "10.78.0.1");
    const real = await ask(roster.json().code, "10.78.0.2");
    expect([real.statusCode, real.body]).toEqual([unknown.statusCode, unknown.body]);
    expect(unknown.json().error).toBe(NOT_ADMITTED);
  });
});
