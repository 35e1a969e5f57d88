// Issue 22, items 2 and 3 (decision 026): the rules before the clock, whose clock starts at Start and not at
// registration, and the lasting way back to one's results with the resume code or the personal link.
import type { QuizQuestion } from "@trainwise/contract/quiz";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, seedCategory, studentInput } from "../../test/fixtures.ts";
import { NO_MATCHING_RESULTS } from "./lasting-results.ts";

describe("the intro before the clock, and results kept for later", async () => {
  const { app, database } = await createTestApp();
  const asAdmin = bearer(await adminToken(app, database.db));
  let addresses = 0;
  const nextAddress = () => `10.22.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;
  afterEach(() => vi.useRealTimers());

  async function driveOn(name: string, test: Record<string, unknown>, drive: Record<string, unknown> = {}) {
    await seedCategory(database.pool, name, 3);
    const created = await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: asAdmin,
      payload: { name, categories: [name], questionCount: 3, timingMode: "whole_quiz", ...test },
    });
    expect(created.statusCode, created.body).toBe(201);
    const made = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: asAdmin,
      payload: { name: `${name} drive`, organisation: "Lakeview Institute", testId: created.json()._id, ...drive },
    });
    expect(made.statusCode, made.body).toBe(201);
    return made.json() as { _id: string; code: string };
  }

  async function register(driveCode: string) {
    const input = studentInput({ driveCode });
    const registered = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: input,
      remoteAddress: nextAddress(),
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const { token, resumeCode } = registered.json() as { token: string; resumeCode: string };
    return { input, token, resumeCode };
  }

  /** Sits the whole quiz through the original call, answering question `rightUpTo` and those before it rightly. */
  async function sit(token: string, rightUpTo: number) {
    const served = await app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(token) });
    expect(served.statusCode, served.body).toBe(200);
    const answers = (served.json() as QuizQuestion[]).map((question, index) => ({
      questionId: question._id,
      optionId: question.options.find((option) => option.text.startsWith(index < rightUpTo ? "right" : "wrong A"))
        ?._id as string,
    }));
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(token),
      payload: { answers },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    return submitted.json().resultId as string;
  }

  const lookUp = (body: Record<string, unknown>, remoteAddress = nextAddress()) =>
    app.inject({ method: "POST", url: "/api/auth/student/results", payload: body, remoteAddress });

  it("shows the rules without starting anything, and the clock starts at Start, not at registration", async () => {
    const drive = await driveOn("Intro rules", {
      rulesFirst: true,
      timingMode: "per_question",
      secondsPerQuestion: 45,
      negativeMark: 0.25,
      passMark: 60,
      reviewPolicy: "score_and_ticks",
    });
    const { token } = await register(drive.code);
    const intro = await app.inject({ method: "GET", url: "/api/quiz/intro", headers: bearer(token) });
    expect(intro.statusCode, intro.body).toBe(200);
    expect(intro.json()).toEqual({
      status: "not_started",
      testName: "Intro rules",
      driveName: "Intro rules drive",
      organisation: "Lakeview Institute",
      rulesFirst: true,
      questionCount: 3,
      secondsPerQuestion: 45,
      timingMode: "per_question",
      negativeMark: 0.25,
      sections: [],
      passMark: 60,
      reviewPolicy: "score_and_ticks",
      secure: false,
      attemptsAllowed: 1,
      attemptsUsed: 0,
      focusLossLimit: null,
      focusLossEndsAttempt: false,
      disconnectGraceSeconds: null,
      disconnectCreditMinutes: null,
      fullScreen: false,
      blockCopyPaste: false,
      resultId: null,
      endedBy: null,
      startRefusal: null,
    });
    // Reading the rules starts no attempt: nothing for the clock to run on.
    const attempt = await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) });
    expect(attempt.statusCode).toBe(404);

    // The student reads for ten minutes; the clock they get at Start is the whole window, from then.
    const registeredAt = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(registeredAt + 10 * 60_000);
    const started = await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ status: "in_progress", currentIndex: 0, secondsLeft: 45 });
    const { rows } = await database.pool.query<{ started_at: Date }>("select started_at from attempts where id = $1", [
      started.json().attemptId,
    ]);
    expect(rows[0]?.started_at.getTime()).toBeGreaterThanOrEqual(registeredAt + 10 * 60_000);
    const during = await app.inject({ method: "GET", url: "/api/quiz/intro", headers: bearer(token) });
    expect(during.json()).toMatchObject({ status: "in_progress", attemptsUsed: 1 });
  });

  it("says when no attempt is left and which result it was, and a test left as it was goes straight on", async () => {
    const drive = await driveOn("Intro done", { reviewPolicy: "score_and_ticks" });
    const { token } = await register(drive.code);
    const resultId = await sit(token, 3);
    const intro = await app.inject({ method: "GET", url: "/api/quiz/intro", headers: bearer(token) });
    expect(intro.json()).toMatchObject({ status: "completed", rulesFirst: false, attemptsUsed: 1, resultId });
  });

  it("shows the student's choice with the ticks, the right answer once the drive has released, none when hidden", async () => {
    const revealing = await driveOn("Review shows", { reviewPolicy: "score_and_ticks" });
    const student = await register(revealing.code);
    const resultId = await sit(student.token, 2);
    const read = async () =>
      (await app.inject({ method: "GET", url: `/api/quiz/result/${resultId}`, headers: bearer(student.token) })).json();
    const open = await read();
    expect({ driveName: open.driveName, organisation: open.organisation }).toEqual({
      driveName: "Review shows drive",
      organisation: "Lakeview Institute",
    });
    expect(open.review).toMatchObject({ ticksShown: true, rightShown: false });
    expect(open.answers[2]).toMatchObject({ isCorrect: false, right: [] });
    expect(open.answers[2].chosen[0]).toMatch(/^wrong A of /);
    // A wrong answer does not tell which option was right.
    expect(JSON.stringify(open.answers[2])).not.toMatch(/right of/);

    // Closed, with no attempt left to answer: the right options come out beside the choices.
    const closed = await app.inject({ method: "POST", url: `/api/drives/${revealing._id}/close`, headers: asAdmin });
    expect(closed.statusCode, closed.body).toBe(200);
    const released = await read();
    expect(released.review).toMatchObject({ ticksShown: true, rightShown: true });
    expect(released.answers[0].chosen).toEqual(released.answers[0].right);
    expect(released.answers[0].right[0]).toMatch(/^right of Review shows question \d\?$/);
    expect(released.answers[2].chosen[0]).toMatch(/^wrong A of /);
    expect(released.answers[2].right[0]).toMatch(/^right of /);

    const hiding = await driveOn("Review hides", { reviewPolicy: "score_only", secure: false });
    const other = await register(hiding.code);
    const hiddenId = await sit(other.token, 2);
    await app.inject({ method: "POST", url: `/api/drives/${hiding._id}/close`, headers: asAdmin });
    const hidden = await app.inject({
      method: "GET",
      url: `/api/quiz/result/${hiddenId}`,
      headers: bearer(other.token),
    });
    expect(hidden.json()).toMatchObject({ status: "released", answers: [], review: { ticksShown: false } });
    expect(hidden.body).not.toMatch(/right of|wrong A of/);
  });

  it("brings results back with the email and resume code, and refuses anything else with one neutral answer", async () => {
    const drive = await driveOn("Later", { reviewPolicy: "score_and_ticks", passMark: 50 });
    const student = await register(drive.code);
    const resultId = await sit(student.token, 2);

    const found = await lookUp({ email: student.input.email.toUpperCase(), resumeCode: student.resumeCode });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toMatchObject({
      studentName: student.input.name,
      results: [
        {
          result: {
            status: "released",
            resultId,
            score: 2,
            totalQuestions: 3,
            passed: true,
            testName: "Later",
            driveName: "Later drive",
          },
        },
      ],
    });

    // Another student's email with this code, this email with another code, an unknown link: the same answer.
    const classmate = await register(drive.code);
    const refusals = await Promise.all([
      lookUp({ email: classmate.input.email, resumeCode: student.resumeCode }),
      lookUp({ email: student.input.email, resumeCode: classmate.resumeCode }),
      lookUp({ email: "nobody@example.com", resumeCode: "ABCD-EFGH" }),
      lookUp({ linkToken: "A".repeat(22) }),
    ]);
    for (const refused of refusals) {
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe(NO_MATCHING_RESULTS);
      expect(refused.body).not.toContain(student.input.name);
    }
    // The email alone, or a malformed code, is refused by the schema before anything is looked up.
    expect((await lookUp({ email: student.input.email })).statusCode).toBe(400);
  });

  it("brings results back through the personal link, for its own line's student only", async () => {
    const drive = await driveOn(
      "Later linked",
      { reviewPolicy: "score_and_ticks" },
      { rosterOnly: true, personalLinksOnly: true },
    );
    const roster = await app.inject({
      method: "PUT",
      url: `/api/drives/${drive._id}/roster`,
      headers: { ...asAdmin, "content-type": "text/csv" },
      payload: "email,usn\nasha@later.example,1LT24CS001\nbhanu@later.example,1LT24CS002\n",
    });
    expect(roster.statusCode, roster.body).toBe(200);
    const made = await app.inject({
      method: "POST",
      url: `/api/drives/${drive._id}/roster/links`,
      headers: asAdmin,
      payload: { lines: "unlinked" },
    });
    expect(made.statusCode, made.body).toBe(200);
    const tokens = [...(made.json().csv as string).matchAll(/link=([A-Za-z0-9_-]{22})/g)].map((match) => match[1]);
    expect(tokens).toHaveLength(2);
    const registered = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: studentInput({
        driveCode: drive.code,
        email: "asha@later.example",
        usnNo: "1LT24CS001",
        name: "Asha Later",
        linkToken: tokens[0],
      }),
      remoteAddress: nextAddress(),
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const resultId = await sit(registered.json().token, 3);

    const found = await lookUp({ linkToken: tokens[0] });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toMatchObject({ studentName: "Asha Later", results: [{ result: { resultId, score: 3 } }] });
    // Bhanu's link has no registration behind it yet: it reads nobody's results, Asha's least of all.
    const other = await lookUp({ linkToken: tokens[1] });
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(NO_MATCHING_RESULTS);
  });

  it("holds a secure drive's score back and says when it comes out", async () => {
    const closesAt = new Date(Date.now() + 2 * 60 * 60_000).toISOString();
    const drive = await driveOn("Later secure", { reviewPolicy: "ticks_after_close", passMark: 50 }, { closesAt });
    const student = await register(drive.code);
    const resultId = await sit(student.token, 3);
    const found = await lookUp({ email: student.input.email, resumeCode: student.resumeCode });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().results).toEqual([
      {
        submittedAt: expect.any(String),
        result: {
          status: "pending",
          resultId,
          testName: "Later secure",
          driveName: "Later secure drive",
          organisation: "Lakeview Institute",
          releasesAt: closesAt,
          heldForPublishing: false,
          timeZone: "Asia/Kolkata",
        },
      },
    ]);
    expect(found.body).not.toMatch(/"score"|right of/);
    // Its certificate waits too.
    const certificate = await app.inject({
      method: "POST",
      url: "/api/auth/student/results/certificate",
      payload: { email: student.input.email, resumeCode: student.resumeCode, resultId },
      remoteAddress: nextAddress(),
    });
    expect(certificate.statusCode).toBe(404);
  });

  it("limits wrong lookups per address as wrong drive codes are, and a right one from elsewhere still works", async () => {
    const drive = await driveOn("Later guessed", { reviewPolicy: "score_and_ticks" });
    const student = await register(drive.code);
    await sit(student.token, 1);
    const address = nextAddress();
    const guesses = [];
    for (let guess = 0; guess < 21; guess++) {
      guesses.push(
        (await lookUp({ email: student.input.email, resumeCode: `AAAA-${String(guess).padStart(4, "2")}` }, address))
          .statusCode,
      );
    }
    expect(guesses.slice(0, 20)).toEqual(Array(20).fill(404));
    const held = await lookUp({ email: student.input.email, resumeCode: student.resumeCode }, address);
    expect(held.statusCode).toBe(429);
    expect(Number(held.headers["retry-after"])).toBeGreaterThan(0);
    const elsewhere = await lookUp({ email: student.input.email, resumeCode: student.resumeCode });
    expect(elsewhere.statusCode).toBe(200);
  });
});
