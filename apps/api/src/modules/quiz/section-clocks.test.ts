// A test timed per section (issue 26, decision 034): each section on its own clock (a window per question, or one
// clock for the section with the palette), run in order, a closed section never reopened, a section whose time runs
// out followed by the next from the moment it ended. Through the real API and the stored rows.
import type { LiveBoard } from "@trainwise/contract/live-board";
import type { AttemptState } from "@trainwise/contract/quiz";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { addRightWrongQuestion, adminToken, attemptTimePasses, bearer, registerStudent } from "../../test/fixtures.ts";
import { closeOverdueAttempts } from "./service.ts";

type InProgress = Extract<AttemptState, { status: "in_progress" }>;

// 2 × 20 s on one clock (40 s), 2 × 10 s a window each (20 s), 2 × 15 s on one clock (30 s): 90 s in all.
const SECTIONS = [
  { name: "Quant", categories: ["Clock quant"], questionCount: 2, timing: "section_clock", secondsPerQuestion: 20 },
  { name: "Logic", categories: ["Clock logic"], questionCount: 2, timing: "per_question", secondsPerQuestion: 10 },
  { name: "Verbal", categories: ["Clock verbal"], questionCount: 2, timing: "section_clock", secondsPerQuestion: 15 },
];

describe("a test timed per section", async () => {
  const { app, database } = await createTestApp();
  const admin = bearer(await adminToken(app, database.db));
  for (const section of SECTIONS) {
    for (let index = 1; index <= 2; index++) {
      await addRightWrongQuestion(app, admin, section.categories[0] as string, `${section.name} ${index}`);
    }
  }
  const created = await app.inject({
    method: "POST",
    url: "/api/tests",
    headers: admin,
    payload: { name: "Placement by sections", timingMode: "per_section", sections: SECTIONS },
  });
  expect(created.statusCode, created.body).toBe(201);
  const testId = created.json()._id as string;
  async function driveNamed(name: string) {
    const drive = await app.inject({ method: "POST", url: "/api/drives", headers: admin, payload: { name, testId } });
    expect(drive.statusCode, drive.body).toBe(201);
    return drive.json() as { _id: string; code: string };
  }
  const { _id: driveId, code } = await driveNamed("Sections on their own clocks");

  async function started() {
    const { token } = await registerStudent(app, { driveCode: code });
    const start = await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) });
    expect(start.statusCode, start.body).toBe(200);
    return { token, state: start.json() as InProgress };
  }
  const request = (token: string, method: "GET" | "PUT" | "POST", url: string, payload?: object) =>
    app.inject({ method, url, headers: bearer(token), ...(payload && { payload }) });
  const leave = (token: string, sectionFirst: number) =>
    request(token, "POST", "/api/quiz/section/next", { sectionFirst });
  async function storedClock(attemptId: string) {
    const { rows } = await database.pool.query<{
      sectionFirst: number;
      sectionEnd: number;
      sectionSeconds: number;
      attemptSeconds: number;
      paced: boolean;
    }>(
      `select section_first as "sectionFirst", section_end as "sectionEnd", paced,
         round(extract(epoch from section_deadline_at - current_started_at))::int as "sectionSeconds",
         round(extract(epoch from deadline_at - started_at))::int as "attemptSeconds"
       from attempts where id = $1::uuid`,
      [attemptId],
    );
    return rows[0];
  }
  const timePasses = (attemptId: string, seconds: number) => attemptTimePasses(database.pool, attemptId, seconds);

  it("refuses per-section timing on a test without sections", async () => {
    const refused = await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: admin,
      payload: { name: "No sections", timingMode: "per_section" },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain("Timing each section on its own needs sections");
  });

  it("opens the first section on its own clock, and shows nothing of a later section", async () => {
    const { token, state } = await started();
    expect(state).toMatchObject({ timingMode: "per_section", paced: false, sectionFirst: 0, sectionEnd: 2 });
    expect(state.secondsLeft).toBeGreaterThan(35);
    expect(state.secondsLeft).toBeLessThanOrEqual(40);
    expect(state.questions.map((question) => question.text).sort()).toEqual(["Quant 1", "Quant 2"]);
    // The attempt's deadline is every section's time back to back; the open section's, its own.
    expect(await storedClock(state.attemptId)).toMatchObject({ attemptSeconds: 90, sectionSeconds: 40 });
    // The palette and answers work inside the section, and nowhere else.
    const inside = await request(token, "PUT", "/api/quiz/palette", { position: 1, marked: true });
    expect(inside.statusCode, inside.body).toBe(200);
    const later = await request(token, "PUT", "/api/quiz/palette", { position: 2, marked: true });
    expect(later.statusCode).toBe(409);
    expect(later.json().message).toBe("That question is in a later section, which is not open yet.");
    // A lost focus is noted on a question the student has open, never on a later section's.
    expect((await request(token, "POST", "/api/quiz/focus", { position: 4 })).statusCode).toBe(409);
    expect((await request(token, "POST", "/api/quiz/focus", { position: 1 })).statusCode).toBe(200);
    const reload = (await request(token, "GET", "/api/quiz/attempt").then((reply) => reply.json())) as InProgress;
    expect(reload).toMatchObject({ sectionFirst: 0, sectionEnd: 2, currentIndex: 0 });
    expect(reload.questions).toHaveLength(2);
  });

  it("leaves a section once however often it is asked, and never reopens it", async () => {
    const { token, state } = await started();
    const question = state.questions[0];
    const right = question?.options.find((option) => option.text === "right");
    const answer = { questionId: question?._id, optionId: right?._id };
    expect((await request(token, "PUT", "/api/quiz/answers", answer)).statusCode).toBe(200);

    const left = await leave(token, 0);
    expect(left.statusCode, left.body).toBe(200);
    const logic = left.json() as InProgress;
    expect(logic).toMatchObject({ paced: true, sectionFirst: 2, sectionEnd: 4, currentIndex: 2 });
    expect(logic.secondsLeft).toBeGreaterThan(7);
    expect(logic.secondsLeft).toBeLessThanOrEqual(10);
    expect(logic.question?.text).toMatch(/^Logic /);
    // Left early, the section gives its time up: the next one starts now, with all of its own, and the attempt's
    // last moment comes forward with it (20 + 30 s from now), and with it a secure drive's release.
    expect(await storedClock(state.attemptId)).toMatchObject({ sectionFirst: 2, sectionEnd: 4, sectionSeconds: 20 });
    const { rows: ends } = await database.pool.query<{ left: number }>(
      "select round(extract(epoch from deadline_at - section_deadline_at))::int as left from attempts where id = $1::uuid",
      [state.attemptId],
    );
    expect(ends[0]?.left).toBe(30);

    // The same request again (a double click, a retry) leaves nothing more.
    const again = await leave(token, 0);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ sectionFirst: 2, sectionEnd: 4 });
    // Refused, a leave keeps nothing of what it carried (before: the 409 came back and the answer was kept).
    const logicFirst = logic.question;
    const carriedAhead = { questionId: logicFirst?._id, optionId: logicFirst?.options[0]?._id };
    const ahead = await request(token, "POST", "/api/quiz/section/next", { sectionFirst: 4, answer: carriedAhead });
    expect(ahead.statusCode).toBe(409);
    expect(ahead.json().message).toBe("That section is not open yet.");
    const kept = (await request(token, "GET", "/api/quiz/attempt").then((reply) => reply.json())) as InProgress;
    expect(kept.answers.map((saved) => saved.questionId)).toEqual([question?._id]);

    // The closed section takes no answer, no mark, no clear; the answer it holds, sent again (a retry whose reply
    // was lost), is answered as taken.
    const changed = { ...answer, optionId: question?.options.find((option) => option.text !== "right")?._id };
    const late = await request(token, "PUT", "/api/quiz/answers", changed);
    expect(late.statusCode).toBe(409);
    expect((await request(token, "PUT", "/api/quiz/answers", answer)).statusCode).toBe(200);
    expect(late.json().message).toBe("That question's section is closed: its answers can no longer change.");
    const clear = await request(token, "PUT", "/api/quiz/palette", { position: 0, clear: true });
    expect(clear.statusCode).toBe(409);
    // A paced section has no palette, and Next stays inside it.
    const palette = await request(token, "PUT", "/api/quiz/palette", { position: 2 });
    expect(palette.json().message).toBe(
      "This section gives each question its own time, one after another: it has no palette.",
    );
    // Next carrying an answer to the closed section's question moves on, and says the answer was not taken (before:
    // a plain 200, as if it had been).
    const carriedLate = await request(token, "POST", "/api/quiz/next", { position: 3, answer: changed });
    expect(carriedLate.statusCode, carriedLate.body).toBe(200);
    expect(carriedLate.json()).toMatchObject({
      currentIndex: 3,
      refused: "That question's section is closed: its answers can no longer change.",
    });
    const past = await request(token, "POST", "/api/quiz/next", { position: 4 });
    expect(past.statusCode).toBe(409);
    expect(past.json().message).toBe("That question is in the next section: leave this section to open it.");

    // Leaving the paced section carries the answer to its last question, saved first as Next carries one.
    const onScreen = (await request(token, "GET", "/api/quiz/attempt").then((reply) => reply.json())) as InProgress;
    const lastOfLogic = onScreen.question;
    const rightOfLogic = lastOfLogic?.options.find((option) => option.text === "right");
    const carried = await request(token, "POST", "/api/quiz/section/next", {
      sectionFirst: 2,
      answer: { questionId: lastOfLogic?._id, optionId: rightOfLogic?._id },
    });
    expect(carried.statusCode, carried.body).toBe(200);
    const verbal = carried.json() as InProgress;
    expect(verbal).toMatchObject({ paced: false, sectionFirst: 4, sectionEnd: 6 });
    // Only Verbal's questions are sent: not Quant's again, nor Logic's, whose windows never all opened (before: six).
    expect(verbal.questionsFrom).toBe(4);
    expect(verbal.questions.map((question) => question.text).sort()).toEqual(["Verbal 1", "Verbal 2"]);
    const verbalFirst = verbal.questions[0];
    const last = await request(token, "POST", "/api/quiz/section/next", {
      sectionFirst: 4,
      answer: { questionId: verbalFirst?._id, optionId: verbalFirst?.options[0]?._id },
    });
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toBe("This is the last section: submit the quiz to finish.");
    const afterLast = (await request(token, "GET", "/api/quiz/attempt").then((reply) => reply.json())) as InProgress;
    expect(afterLast.answers.map((saved) => saved.questionId)).not.toContain(verbalFirst?._id);

    const submitted = await request(token, "POST", "/api/quiz/submit", { answers: [] });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const result = await request(token, "GET", `/api/quiz/result/${submitted.json().resultId}`);
    // The answer given in the first section counts, though the section closed early, and so does the one carried.
    expect(result.json()).toMatchObject({ score: 2, totalQuestions: 6 });
    // Leaving once it is submitted answers where it stands.
    expect((await leave(token, 4)).json()).toMatchObject({ status: "submitted" });
  });

  it("follows a section whose time ran out with the next from the moment it ended, whoever asks first", async () => {
    const { token, state } = await started();
    // Section 1 (40 s) ended 11 s ago, past its 10 s grace: section 2 started then, its first window (10 s) is over.
    await timePasses(state.attemptId, 51);
    const resumed = (await request(token, "GET", "/api/quiz/attempt").then((reply) => reply.json())) as InProgress;
    expect(resumed).toMatchObject({ paced: true, sectionFirst: 2, sectionEnd: 4, currentIndex: 3 });
    expect(resumed.secondsLeft).toBeGreaterThan(6);
    expect(resumed.secondsLeft).toBeLessThanOrEqual(9);
    expect(await storedClock(state.attemptId)).toMatchObject({ sectionFirst: 2, sectionSeconds: 20 });

    // The sweep does the same for a student who asks nothing: section 2 ended 11 s ago, so section 3 runs.
    const other = await started();
    await timePasses(other.state.attemptId, 40 + 20 + 11);
    await closeOverdueAttempts(database.db);
    const clock = await storedClock(other.state.attemptId);
    expect(clock).toMatchObject({ sectionFirst: 4, sectionEnd: 6, paced: false, sectionSeconds: 30 });
    // And once the last section is over too, the attempt is scored and closed.
    await timePasses(other.state.attemptId, 30 + 11);
    await closeOverdueAttempts(database.db);
    const after = await request(other.token, "GET", "/api/quiz/attempt");
    expect(after.json()).toMatchObject({ status: "submitted" });
  });

  it("never opens a section whose time was over before the student came back: its questions take no answer", async () => {
    const { token, state } = await started();
    // Away 65 s: Quant ended at 40 s (its grace at 50), Logic then ran 40–60 s unseen; Verbal runs from 60 s.
    await timePasses(state.attemptId, 65);
    const back = (await request(token, "GET", "/api/quiz/attempt").then((reply) => reply.json())) as InProgress;
    expect(back).toMatchObject({ paced: false, sectionFirst: 4, sectionEnd: 6 });
    expect(back.secondsLeft).toBeGreaterThan(22);
    expect(back.secondsLeft).toBeLessThanOrEqual(25);
    // Nothing of Logic reaches the student: only Verbal's questions are sent (before: every question up to Verbal's
    // end, Logic's two among them though their windows never opened).
    expect(back.questionsFrom).toBe(4);
    expect(back.questions.map((question) => question.text).sort()).toEqual(["Verbal 1", "Verbal 2"]);
    // And an answer to one of them, its ids learnt some other way, is refused.
    const { rows } = await database.pool.query<{ questionId: string; optionId: string }>(
      `select question_id as "questionId", option_order[1] as "optionId" from attempt_questions
       where attempt_id = $1::uuid and position = 2`,
      [state.attemptId],
    );
    const late = await request(token, "PUT", "/api/quiz/answers", rows[0] ?? {});
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe("That question's section is closed: its answers can no longer change.");
  });

  it("keeps the section clocks for the original all-at-once client too, on a default test timed per section", async () => {
    const tests = await app.inject({ method: "GET", url: "/api/tests", headers: admin });
    const { _id, isDefault, archived, available, sectionsAvailable, createdAt, ...settings } = (
      tests.json() as { isDefault: boolean; _id: string }[]
    ).find((test) => test.isDefault) as Record<string, unknown>;
    const edited = await app.inject({
      method: "PUT",
      url: `/api/tests/${_id}`,
      headers: admin,
      payload: { ...settings, timingMode: "per_section", sections: SECTIONS },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const { token } = await registerStudent(app);
    const questions = await request(token, "GET", "/api/quiz/questions");
    expect(questions.statusCode, questions.body).toBe(200);
    // The first section's questions only, under its own clock: no later section's, no window over all of them.
    expect((questions.json() as { text: string }[]).map((question) => question.text).sort()).toEqual([
      "Quant 1",
      "Quant 2",
    ]);
    const state = (await request(token, "GET", "/api/quiz/attempt").then((reply) => reply.json())) as InProgress;
    expect(state).toMatchObject({ sectionFirst: 0, sectionEnd: 2, paced: false });
    expect(state.secondsLeft).toBeLessThanOrEqual(40);
  });

  it("shows an invigilator the section a student is in, every question of it reached, and what the student answered", async () => {
    const watched = await driveNamed("Section clocks on the live board");
    const { token } = await registerStudent(app, { driveCode: watched.code, name: "Lalitha Sections" });
    const start = await request(token, "POST", "/api/quiz/start");
    const quant = (start.json() as InProgress).questions;
    const board = async () => {
      const reply = await app.inject({ method: "GET", url: `/api/drives/${watched._id}/live`, headers: admin });
      expect(reply.statusCode, reply.body).toBe(200);
      return reply.json() as LiveBoard;
    };
    // The student sees both of Quant's questions and may answer either first: neither is "the open question".
    const second = quant[1];
    await request(token, "PUT", "/api/quiz/answers", { questionId: second?._id, optionId: second?.options[0]?._id });
    let live = await board();
    // Before: "Question 1 of 6" through the whole section, and question 2 reached by nobody though answered.
    expect(live.students[0]).toMatchObject({ position: null, section: "Section 1 of 3: Quant", answered: 1 });
    expect(live.positions.map(({ reached, answered, unanswered }) => [reached, answered, unanswered])).toEqual([
      [1, 0, 0],
      [1, 1, 0],
    ]);
    // Leaving Quant leaves its first question behind unanswered, and opens Logic's first window.
    expect((await leave(token, 0)).statusCode).toBe(200);
    live = await board();
    expect(live.students[0]).toMatchObject({ position: 3, section: "Section 2 of 3: Logic" });
    expect(live.positions.map((row) => row.unanswered)).toEqual([1, 0, 0]);
  });

  it("cuts the open section at the drive's close when the closing ends attempts, and gives it back on reopening", async () => {
    const { state } = await started();
    const closesAt = new Date(Date.now() + 5_000).toISOString();
    const edit = (payload: object) =>
      app.inject({
        method: "PUT",
        url: `/api/drives/${driveId}`,
        headers: admin,
        payload: { name: "Sections on their own clocks", testId, ...payload },
      });
    const cut = await edit({ closesAt, closingEndsAttempts: true });
    expect(cut.statusCode, cut.body).toBe(200);
    const { rows } = await database.pool.query<{ cut: boolean }>(
      "select section_deadline_at <= $2::timestamptz and deadline_at <= $2::timestamptz as cut from attempts where id = $1::uuid",
      [state.attemptId, closesAt],
    );
    expect(rows[0]?.cut).toBe(true);
    const back = await edit({ closesAt: null, closingEndsAttempts: false });
    expect(back.statusCode, back.body).toBe(200);
    expect(await storedClock(state.attemptId)).toMatchObject({ attemptSeconds: 90, sectionSeconds: 40 });
  });

  it("gives back on reopening only the time the open section and the later ones have, not what leaving gave up", async () => {
    const { token, state } = await started();
    const closing = (payload: object) =>
      app.inject({
        method: "PUT",
        url: `/api/drives/${driveId}`,
        headers: admin,
        payload: { name: "Sections on their own clocks", testId, ...payload },
      });
    // Quant left at once: Logic (20 s) and Verbal (30 s) are what is left, 50 s from now, not 90 from the start.
    expect((await leave(token, 0)).statusCode).toBe(200);
    const lastMoment = async () => {
      const { rows } = await database.pool.query<{ left: number }>(
        "select round(extract(epoch from deadline_at - now()))::int as left from attempts where id = $1::uuid",
        [state.attemptId],
      );
      return rows[0]?.left;
    };
    expect(await lastMoment()).toBe(50);
    const cut = await closing({ closesAt: new Date(Date.now() + 5_000).toISOString(), closingEndsAttempts: true });
    expect(cut.statusCode, cut.body).toBe(200);
    expect(await lastMoment()).toBeLessThanOrEqual(5);
    const reopened = await closing({ closesAt: null, closingEndsAttempts: false });
    expect(reopened.statusCode, reopened.body).toBe(200);
    // Before: 90 s from the start again, the 40 s Quant gave up given back.
    expect(await lastMoment()).toBe(50);
    expect(await storedClock(state.attemptId)).toMatchObject({ sectionFirst: 2, sectionEnd: 4, sectionSeconds: 20 });
  });
});
