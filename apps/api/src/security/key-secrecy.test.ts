// The answer key, attacked as a motivated candidate would (issue 21, decision 024): throw-away registrations from
// several addresses on a practice drive that shows ticks at once, then on a secure drive whose score would tell
// them whether a guess was right. Against the real server and database; each part fails on the code before it.
import type { QuizQuestion } from "@trainwise/contract/quiz";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";
import { adminToken, bearer, seedCategory, studentInput } from "../test/fixtures.ts";
import { watchedLog } from "../test/log-watch.ts";

describe("the answer key stays secret until nobody can use it", async () => {
  const { app, database } = await createTestApp({ logStream: watchedLog() });
  const asAdmin = bearer(await adminToken(app, database.db));
  let addresses = 0;
  /** A new client address each time: a class behind several networks, or one person with a few phones. */
  const nextAddress = () => `10.21.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

  const bank = (category: string, count: number) => seedCategory(database.pool, category, count);

  async function driveOn(test: Record<string, unknown>, drive: Record<string, unknown> = {}) {
    const created = await app.inject({ method: "POST", url: "/api/tests", headers: asAdmin, payload: test });
    expect(created.statusCode, created.body).toBe(201);
    const made = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: asAdmin,
      payload: { name: `${test.name} drive`, testId: created.json()._id, ...drive },
    });
    expect(made.statusCode, made.body).toBe(201);
    return { test: created.json(), drive: made.json() as { _id: string; code: string } };
  }

  /** A throw-away registration from a new address: a made-up name, email and USN each time. */
  async function throwAway(driveCode: string) {
    const registered = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: studentInput({ driveCode }),
      remoteAddress: nextAddress(),
    });
    expect(registered.statusCode, registered.body).toBe(200);
    return registered.json().token as string;
  }

  async function questionsOf(token: string) {
    const served = await app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(token) });
    expect(served.statusCode, served.body).toBe(200);
    return served.json() as QuizQuestion[];
  }

  async function submitAndRead(token: string, answers: { questionId: string; optionId: string }[]) {
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(token),
      payload: { answers },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const { resultId } = submitted.json();
    const result = await app.inject({ method: "GET", url: `/api/quiz/result/${resultId}`, headers: bearer(token) });
    expect(result.statusCode, result.body).toBe(200);
    return { resultId: resultId as string, result: result.json(), body: result.body };
  }

  const option = (question: QuizQuestion, starts: string) =>
    question.options.find((candidate) => candidate.text.startsWith(starts))?._id ?? "";

  it("a key revealed on a practice drive never gives away a secure drive's key, either way round", async () => {
    await bank("Crossover", 10);
    const practice = await driveOn({
      name: "Crossover practice",
      categories: ["Crossover"],
      questionCount: 5,
      timingMode: "whole_quiz",
      reviewPolicy: "score_and_ticks",
    });
    const secure = await driveOn(
      {
        name: "Crossover assessment",
        categories: ["Crossover"],
        questionCount: 5,
        timingMode: "whole_quiz",
        reviewPolicy: "ticks_after_close",
      },
      { rosterOnly: false },
    );
    expect(secure.test.secure, "a test that hides its ticks is secure unless the admin says otherwise").toBe(true);

    // A candidate of the secure drive starts first: five questions whose key must stay secret while it runs.
    const candidate = await throwAway(secure.drive.code);
    const secret = new Set((await questionsOf(candidate)).map((question) => question._id));
    expect(secret.size).toBe(5);

    // The attacker sits the practice drive again and again, reading the ticks: no key the secure drive uses.
    const learned = new Set<string>();
    for (let round = 0; round < 8; round++) {
      const token = await throwAway(practice.drive.code);
      const questions = await questionsOf(token);
      for (const question of questions) expect(secret.has(question._id), question.text).toBe(false);
      const { result } = await submitAndRead(
        token,
        questions.map((question) => ({ questionId: question._id, optionId: option(question, "right") })),
      );
      expect(result.review.ticksShown).toBe(true);
      for (const answer of result.answers) learned.add(answer.questionId);
    }
    expect(learned.size, "the practice drive used the questions nobody keeps secret").toBe(5);

    // A later candidate of the secure drive draws only keys nobody has seen: what the attacker learned is no use.
    const later = await throwAway(secure.drive.code);
    for (const question of await questionsOf(later)) expect(learned.has(question._id), question.text).toBe(false);

    // The bank tells the admin: the secure test can draw 5 (the unseen), the practice one the same 5 it used.
    const tests = (await app.inject({ method: "GET", url: "/api/tests", headers: asAdmin })).json() as {
      name: string;
      available: number;
    }[];
    expect(tests.find((test) => test.name === "Crossover assessment")?.available).toBe(5);
    expect(tests.find((test) => test.name === "Crossover practice")?.available).toBe(5);
    // So does each question in the bank: where its key is out, to how many, and which drives keep it secret.
    const bankPage = (
      await app.inject({
        method: "GET",
        url: "/api/questions/table?category=Crossover&pageSize=50",
        headers: asAdmin,
      })
    ).json() as { rows: { _id: string; key: Record<string, unknown> }[] };
    for (const row of bankPage.rows) {
      if (secret.has(row._id)) {
        expect(row.key).toMatchObject({ seenBy: 0, seenInCount: 0, keptSecretBy: ["Crossover assessment drive"] });
      } else {
        expect(row.key).toMatchObject({ seenInCount: 1, seenIn: ["Crossover practice drive"], keptSecretByCount: 0 });
        expect(row.key.seenBy).toBeGreaterThan(0);
      }
    }
    const seenBy = bankPage.rows.reduce((sum, row) => sum + (row.key.seenBy as number), 0);
    expect(seenBy, "8 practice candidates saw 5 keys each").toBe(40);
  });

  it("starts that race for fresh questions never serve one both ways, and never deadlock", async () => {
    // An outside attack: 12 practice starts and a secure one at the same moment, on questions nobody had drawn,
    // served 5 of the secure attempt's 10 questions on the practice drive too; and 40 first starts of a secure
    // drive at once deadlocked (33 answered 500).
    await bank("Race", 60);
    const practice = await driveOn({
      name: "Race practice",
      categories: ["Race"],
      questionCount: 10,
      timingMode: "whole_quiz",
      reviewPolicy: "score_and_ticks",
    });
    const secure = await driveOn({
      name: "Race assessment",
      categories: ["Race"],
      questionCount: 5,
      timingMode: "whole_quiz",
      reviewPolicy: "score_only",
    });
    // However the starts interleave, the practice ones expose at most 6 × 10 of the 60: enough stay unseen.
    const tokens = await Promise.all([
      ...Array.from({ length: 6 }, () => throwAway(practice.drive.code)),
      ...Array.from({ length: 6 }, () => throwAway(secure.drive.code)),
    ]);
    const started = await Promise.all(
      tokens.map((token) => app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(token) })),
    );
    expect(started.map((response) => response.statusCode)).toEqual(tokens.map(() => 200));
    const servedBy = (from: number, to: number) =>
      new Set(started.slice(from, to).flatMap((response) => (response.json() as QuizQuestion[]).map((q) => q._id)));
    const practised = servedBy(0, 6);
    for (const id of servedBy(6, 12)) expect(practised.has(id), "served on both drives").toBe(false);

    await bank("Crowd", 40);
    const { drive } = await driveOn({
      name: "Crowd",
      categories: ["Crowd"],
      questionCount: 25,
      timingMode: "whole_quiz",
      reviewPolicy: "score_only",
    });
    const crowd = await Promise.all(Array.from({ length: 40 }, () => throwAway(drive.code)));
    const starts = await Promise.all(
      crowd.map((token) => app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) })),
    );
    expect(starts.map((response) => response.statusCode)).toEqual(crowd.map(() => 200));
  });

  for (const reviewPolicy of ["score_only", "ticks_after_close"] as const) {
    it(`throw-away registrations learn nothing from a secure '${reviewPolicy}' drive before its results come out`, async () => {
      const category = `Oracle ${reviewPolicy}`;
      await bank(category, 3);
      const closesAt = new Date(Date.now() + 60 * 60_000).toISOString();
      const { drive } = await driveOn(
        {
          name: `Oracle ${reviewPolicy}`,
          categories: [category],
          questionCount: 3,
          timingMode: "whole_quiz",
          reviewPolicy,
          passMark: 60,
        },
        { closesAt },
      );
      // The oracle: all right, then one guess changed per registration; each score would say which guesses hit.
      const bodies: string[] = [];
      const results: { token: string; resultId: string }[] = [];
      for (let guess = 0; guess < 6; guess++) {
        const token = await throwAway(drive.code);
        const questions = await questionsOf(token);
        const answers = questions.map((question, index) => ({
          questionId: question._id,
          optionId: option(question, index === guess % 3 ? (guess < 3 ? "wrong A" : "wrong B") : "right"),
        }));
        const { resultId, result, body } = await submitAndRead(token, answers);
        expect(result).toEqual({
          status: "pending",
          resultId,
          testName: `Oracle ${reviewPolicy}`,
          driveName: `Oracle ${reviewPolicy} drive`,
          organisation: "",
          releasesAt: closesAt,
          heldForPublishing: false,
          timeZone: "Asia/Kolkata",
        });
        const certificate = await app.inject({
          method: "GET",
          url: `/api/certificates/${resultId}`,
          headers: bearer(token),
        });
        expect(certificate.statusCode).toBe(404);
        bodies.push(body + certificate.body);
        results.push({ token, resultId });
      }
      // Every answer looks alike, right guesses or wrong: nothing in them tells one attempt from another.
      const shapes = new Set(bodies.map((body) => body.replace(/[0-9a-f-]{36}/g, "ID")));
      expect(shapes.size).toBe(1);

      // Closed, and no attempt can still answer: scores, pass or fail and ticks come out together (a certificate
      // only where a roster vouches for the name: certificates.test.ts).
      await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });
      const first = results[0] as { token: string; resultId: string };
      const released = await app.inject({
        method: "GET",
        url: `/api/quiz/result/${first.resultId}`,
        headers: bearer(first.token),
      });
      expect(released.json()).toMatchObject({ status: "released", score: 2, passed: true, certificate: false });
      expect(released.json().review.ticksShown).toBe(reviewPolicy === "ticks_after_close");
    });
  }

  it("a secure drive closed while an attempt runs releases nothing until that attempt has ended", async () => {
    await bank("Late close", 4);
    const { drive } = await driveOn({
      name: "Late close",
      categories: ["Late close"],
      questionCount: 4,
      timingMode: "whole_quiz",
      reviewPolicy: "score_only",
    });
    const early = await throwAway(drive.code);
    const { resultId } = await submitAndRead(
      early,
      (await questionsOf(early)).map((question) => ({ questionId: question._id, optionId: option(question, "right") })),
    );
    const running = await throwAway(drive.code);
    const [question] = await questionsOf(running);
    await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });

    const read = () => app.inject({ method: "GET", url: `/api/quiz/result/${resultId}`, headers: bearer(early) });
    const pending = (await read()).json();
    expect(pending.status).toBe("pending");
    const [{ deadline }] = (
      await database.pool.query(
        "select deadline_at + interval '10 seconds' as deadline from attempts where drive_id = $1 and submitted_at is null",
        [drive._id],
      )
    ).rows;
    expect(pending.releasesAt).toBe(new Date(deadline).toISOString());
    // The running attempt still answers after the close, as closing lets it finish.
    const saved = await app.inject({
      method: "PUT",
      url: "/api/quiz/answers",
      headers: bearer(running),
      payload: { questionId: question?._id, optionId: option(question as QuizQuestion, "right") },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    await submitAndRead(running, []);
    expect((await read()).json()).toMatchObject({ status: "released", score: 4 });
    // Its results are out: the drive never takes a new attempt again.
    const reopened = await app.inject({ method: "POST", url: `/api/drives/${drive._id}/reopen`, headers: asAdmin });
    expect(reopened.statusCode).toBe(409);
  });

  it("a drive that holds its results releases nothing until an admin publishes them after everyone's time", async () => {
    await bank("Held", 4);
    const { drive } = await driveOn(
      {
        name: "Held",
        categories: ["Held"],
        questionCount: 4,
        timingMode: "whole_quiz",
        reviewPolicy: "ticks_after_close",
      },
      { holdResults: true },
    );
    const publish = () =>
      app.inject({ method: "POST", url: `/api/drives/${drive._id}/results/publish`, headers: asAdmin });
    const early = await throwAway(drive.code);
    const { resultId } = await submitAndRead(
      early,
      (await questionsOf(early)).map((question) => ({ questionId: question._id, optionId: option(question, "right") })),
    );
    const running = await throwAway(drive.code);
    await questionsOf(running);
    const read = async () =>
      (await app.inject({ method: "GET", url: `/api/quiz/result/${resultId}`, headers: bearer(early) })).json();

    // Open: nothing to publish yet, and the student is told the organisers publish the results.
    expect((await publish()).json().error).toMatch(/^Results can be published once the drive has closed/);
    expect(await read()).toMatchObject({ status: "pending", releasesAt: null, heldForPublishing: true });
    // Closed with an attempt still running: publishing would show the key to someone still answering.
    await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });
    const early409 = await publish();
    expect(early409.statusCode).toBe(409);
    expect(early409.json().error).toMatch(/last attempt has ended, at /);

    // Everyone's time is up: still held, since the drive waits for its admin.
    await submitAndRead(running, []);
    expect(await read()).toMatchObject({ status: "pending", releasesAt: null });
    const before = (await app.inject({ method: "GET", url: `/api/drives/${drive._id}`, headers: asAdmin })).json();
    expect(before).toMatchObject({ holdResults: true, resultsReleaseAt: null });
    expect(Date.parse(before.settlesAt)).toBeLessThanOrEqual(Date.now());

    const published = await publish();
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json().message).toBe("Results published: the drive's students can now read them.");
    const out = await read();
    expect(out).toMatchObject({ status: "released", score: 4, review: { ticksShown: true } });
    const after = (await app.inject({ method: "GET", url: `/api/drives/${drive._id}`, headers: asAdmin })).json();
    expect(Date.parse(after.resultsReleaseAt)).toBeLessThanOrEqual(Date.now());
    const audit = await database.pool.query(
      "select count(*)::int as n from audit_log where action = 'drive.results-publish' and entity_id = $1",
      [drive._id],
    );
    expect(audit.rows[0].n).toBe(1);
  });

  it("results that have gone out cannot be held back, and a drive that does not hold them has nothing to publish", async () => {
    await bank("Out", 2);
    const { test, drive } = await driveOn({
      name: "Out",
      categories: ["Out"],
      questionCount: 2,
      timingMode: "whole_quiz",
    });
    const token = await throwAway(drive.code);
    await questionsOf(token);
    await submitAndRead(token, []);
    await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });
    const notHeld = await app.inject({
      method: "POST",
      url: `/api/drives/${drive._id}/results/publish`,
      headers: asAdmin,
    });
    expect(notHeld.statusCode).toBe(409);
    expect(notHeld.json().error).toMatch(/^This drive does not hold its results/);
    const hold = await app.inject({
      method: "PUT",
      url: `/api/drives/${drive._id}`,
      headers: asAdmin,
      payload: { name: "Out drive", testId: test._id, code: drive.code, holdResults: true },
    });
    expect(hold.statusCode, hold.body).toBe(409);
    expect(hold.json().fields.holdResults).toMatch(/already reached its students/);
  });

  it("a viewer reads scores and right or wrong on a running drive, never the key, until the drive releases it", async () => {
    const asViewer = bearer(await adminToken(app, database.db, "college-viewer", "viewer"));
    await bank("Viewer", 3);
    for (const secure of [true, false]) {
      const { drive } = await driveOn({
        name: `Viewer ${secure ? "secure" : "practice"}`,
        categories: ["Viewer"],
        questionCount: 3,
        timingMode: "whole_quiz",
        reviewPolicy: "ticks_after_close",
        secure,
      });
      const token = await throwAway(drive.code);
      const questions = await questionsOf(token);
      const { resultId } = await submitAndRead(
        token,
        questions.map((question) => ({ questionId: question._id, optionId: option(question, "right") })),
      );
      const read = (headers: Record<string, string>) =>
        app.inject({ method: "GET", url: `/api/students/results/${resultId}`, headers });
      const hidden = await read(asViewer);
      expect(hidden.statusCode, hidden.body).toBe(200);
      expect(hidden.json()).toMatchObject({ score: 3, keyHidden: true, keyShownFrom: null, marksHidden: secure });
      for (const answer of hidden.json().answers) {
        // On a secure test right or wrong would be an oracle too (throw-away attempts, read by the viewer).
        expect(answer).toMatchObject({ answered: true, chosen: null, correct: null });
        expect(answer).toMatchObject(secure ? { isCorrect: null, mark: null } : { isCorrect: true, mark: 1 });
      }
      expect(hidden.body).not.toMatch(/right of|wrong A of/);
      // An examiner, who manages the bank, sees the key as before.
      const full = (await read(asAdmin)).json();
      expect(full.keyHidden).toBe(false);
      expect(full.answers[0].correct).toMatch(/^right of/);

      await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });
      const shown = (await read(asViewer)).json();
      expect(shown).toMatchObject({ keyHidden: false, marksHidden: false });
      expect(shown.answers[0]).toMatchObject({ isCorrect: true, mark: 1 });
      expect(shown.answers[0].correct).toMatch(/^right of/);
    }
  });

  it("a drive whose closing ends running attempts refuses answers after the close and releases at once", async () => {
    await bank("Hard close", 4);
    const soon = new Date(Date.now() + 60_000);
    const { drive } = await driveOn(
      {
        name: "Hard close",
        categories: ["Hard close"],
        questionCount: 4,
        secondsPerQuestion: 600,
        timingMode: "whole_quiz",
        reviewPolicy: "score_only",
      },
      { closesAt: soon.toISOString(), closingEndsAttempts: true },
    );
    expect(drive).toMatchObject({ closingEndsAttempts: true });
    const deadlines = async () =>
      (
        await database.pool.query<{ deadline: Date }>(
          "select deadline_at as deadline from attempts where drive_id = $1 and submitted_at is null order by started_at",
          [drive._id],
        )
      ).rows.map((row) => row.deadline.getTime());

    // 40 minutes of quiz, a minute before the close: the attempt ends with the drive.
    const early = await throwAway(drive.code);
    const [first] = await questionsOf(early);
    const running = await throwAway(drive.code);
    const [question] = await questionsOf(running);
    expect(await deadlines()).toEqual([soon.getTime(), soon.getTime()]);
    const done = await submitAndRead(early, [
      { questionId: first?._id ?? "", optionId: option(first as QuizQuestion, "right") },
    ]);
    expect(done.result.status).toBe("pending");

    // The admin closes early: the running attempt's deadline moves to the close.
    await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });
    const closed = await database.pool.query<{ closedAt: Date }>(
      'select closed_at as "closedAt" from drives where id = $1',
      [drive._id],
    );
    expect(await deadlines()).toEqual([closed.rows[0]?.closedAt.getTime()]);
    // A minute on (the drive's clock moved back a minute): the answer is refused, and the early result is out.
    await database.pool.query(
      `update drives set closed_at = closed_at - interval '1 minute' where id = $1;
       update attempts set deadline_at = deadline_at - interval '1 minute',
         started_at = started_at - interval '1 minute', current_started_at = current_started_at - interval '1 minute'
       where drive_id = $1 and submitted_at is null`.replaceAll("$1", `'${drive._id}'`),
    );
    const late = await app.inject({
      method: "PUT",
      url: "/api/quiz/answers",
      headers: bearer(running),
      payload: { questionId: question?._id, optionId: option(question as QuizQuestion, "right") },
    });
    expect(late.statusCode, late.body).toBe(409);
    const released = await app.inject({
      method: "GET",
      url: `/api/quiz/result/${done.resultId}`,
      headers: bearer(early),
    });
    expect(released.json()).toMatchObject({ status: "released", score: 1 });
    const state = await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(running) });
    expect(state.json().status).toBe("submitted");
  });

  it("refuses to make a test practice while one of its drives keeps its key secret", async () => {
    await bank("Switch", 3);
    const { test, drive } = await driveOn({
      name: "Switch",
      categories: ["Switch"],
      questionCount: 3,
      timingMode: "whole_quiz",
      reviewPolicy: "score_only",
    });
    await questionsOf(await throwAway(drive.code));
    const {
      _id,
      available: _available,
      createdAt: _createdAt,
      isDefault: _isDefault,
      archived: _archived,
      ...input
    } = test;
    const toPractice = () =>
      app.inject({ method: "PUT", url: `/api/tests/${_id}`, headers: asAdmin, payload: { ...input, secure: false } });
    const refused = await toPractice();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(
      "This test cannot become practice yet: Switch drive still keeps its answers secret until its results come out. " +
        "Scores at submit would give those answers away. Change it once the drive has ended and released its results.",
    );
    await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });
    await database.pool.query("update attempts set submitted_at = now(), score = 0 where drive_id = $1", [drive._id]);
    expect((await toPractice()).statusCode).toBe(200);
  });
});
