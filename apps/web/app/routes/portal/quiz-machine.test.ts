import { MESSAGES_REPLAYED } from "@trainwise/contract/notices";
import type { AttemptState, QuizQuestion } from "@trainwise/contract/quiz";
import { describe, expect, it } from "vitest";
import {
  failedAnswers,
  initialQuizState,
  markedNumbers,
  nextStep,
  paletteStatus,
  type QuizEvent,
  type QuizState,
  quizReducer,
  saveNotice,
  secondsLeft,
  sectionAt,
  unansweredNumbers,
} from "./quiz-machine.ts";

const question = (n: number): QuizQuestion => ({
  _id: `00000000-0000-4000-8000-00000000000${n}`,
  text: `Question text ${n}`,
  html: `<p>Question text ${n}</p>`,
  category: "Aptitude",
  difficulty: "easy",
  options: [
    { _id: `00000000-0000-4000-9000-0000000000${n}1`, text: "First", html: "First" },
    { _id: `00000000-0000-4000-9000-0000000000${n}2`, text: "Second", html: "Second" },
  ],
});
const [q1, q2, q3] = [question(1), question(2), question(3)];
const pick = (q: QuizQuestion, option = 0) => ({ questionId: q._id, optionId: q.options[option]?._id ?? "" });

function attempt(paced: boolean, overrides: Partial<Extract<AttemptState, { status: "in_progress" }>> = {}) {
  return {
    status: "in_progress" as const,
    attemptId: "00000000-0000-4000-8000-0000000000aa",
    testName: "Campus quiz",
    timingMode: paced ? ("per_question" as const) : ("whole_quiz" as const),
    paced,
    totalQuestions: 3,
    currentIndex: 0,
    secondsLeft: 30,
    secondsPerQuestion: 30,
    sections: [],
    sectionFirst: 0,
    sectionEnd: 3,
    answers: [],
    visited: [],
    marked: [],
    question: paced ? q1 : null,
    questions: paced ? [] : [q1, q2, q3],
    ...overrides,
  };
}

const run = (events: QuizEvent[], from: QuizState = initialQuizState) => events.reduce(quizReducer, from);
const loaded = (paced: boolean) => run([{ type: "loaded", attempt: attempt(paced), now: 1_000_000 }]);

describe("the quiz page's state", () => {
  it("knows the section of each question, and says so as a section opens", () => {
    const sections = [
      { name: "Quantitative Aptitude", firstPosition: 0, questionCount: 2 },
      { name: "Verbal Ability", firstPosition: 2, questionCount: 1 },
    ];
    const state = run([{ type: "loaded", attempt: attempt(false, { sections }), now: 1_000_000 }]);
    expect([0, 1, 2].map((index) => sectionAt(state, index)?.name)).toEqual([
      "Quantitative Aptitude",
      "Quantitative Aptitude",
      "Verbal Ability",
    ]);
    expect(sectionAt(state, 2)).toMatchObject({ number: 2, of: 2 });
    expect(state.announcement).toBe("Section 1 of 2: Quantitative Aptitude. Question 1 of 3.");
    expect(sectionAt(loaded(false), 0)).toBeUndefined();
    expect(loaded(false).announcement).toBe("Question 1 of 3.");
  });

  it("keeps a failed save, names its question, and clears the notice only when that answer lands", () => {
    const answer = pick(q2, 1);
    let state = run(
      [
        { type: "wentTo", index: 1 },
        { type: "picked", ...answer },
        { type: "saveSent", answer },
        { type: "saveRetrying", answer },
      ],
      loaded(false),
    );
    expect(saveNotice(state)).toEqual({ tone: "info", text: "Your answer has not reached the server yet. Retrying…" });

    state = quizReducer(state, { type: "saveFailed", answer });
    expect(failedAnswers(state)).toEqual([answer]);
    expect(saveNotice(state)?.tone).toBe("error");
    expect(saveNotice(state)?.text).toMatch(/^Your answer to question 2 could not be saved yet\./);

    // Moving on does not forget it: the notice stays until the server holds the answer.
    state = quizReducer(state, { type: "wentTo", index: 2 });
    expect(saveNotice(state)?.text).toMatch(/question 2/);

    state = quizReducer(state, { type: "saveLanded", answers: [answer] });
    expect(saveNotice(state)).toBeNull();
    expect(failedAnswers(state)).toEqual([]);
    expect(state.announcement).toBe("Your answer is saved.");
  });

  it("does not let a report about an older pick clear or fail a newer one", () => {
    const older = pick(q1, 0);
    const newer = pick(q1, 1);
    let state = run(
      [
        { type: "picked", ...older },
        { type: "saveSent", answer: older },
        { type: "picked", ...newer },
      ],
      loaded(false),
    );
    state = quizReducer(state, { type: "saveLanded", answers: [older] });
    expect(state.unsaved[q1._id]).toEqual({ optionId: newer.optionId, state: "waiting" });
    state = quizReducer(state, { type: "saveFailed", answer: older });
    expect(state.unsaved[q1._id]?.state).toBe("waiting");
    expect(state.answers[q1._id]).toBe(newer.optionId);
  });

  it("does not bring back a cleared answer when its old save fails or retries afterwards", () => {
    const cleared = pick(q1, 0);
    const state = run(
      [
        { type: "picked", ...cleared },
        { type: "saveSent", answer: cleared },
        { type: "cleared", questionId: q1._id },
        { type: "saveRetrying", answer: cleared },
        { type: "saveFailed", answer: cleared },
      ],
      loaded(false),
    );
    expect(state.answers[q1._id]).toBeUndefined();
    expect(state.unsaved).toEqual({});
    expect(failedAnswers(state)).toEqual([]);
    expect(paletteStatus(state, q1._id)).toBe("not_answered");
  });

  it("names every question whose answer is not saved, in order", () => {
    const first = pick(q3);
    const second = pick(q1);
    const state = run(
      [
        { type: "picked", ...first },
        { type: "saveFailed", answer: first },
        { type: "picked", ...second },
        { type: "saveFailed", answer: second },
      ],
      loaded(false),
    );
    expect(saveNotice(state)?.text).toMatch(/^Your answers to questions 1, 3 could not be saved yet\./);
  });

  it("marks the answer a failed Next carried as failed, and a refused one as a problem rather than a retry", () => {
    const answer = pick(q1);
    let state = run(
      [{ type: "picked", ...answer }, { type: "moveStarted", carried: answer }, { type: "reconnecting" }],
      loaded(true),
    );
    expect(state.moving).toBe(true);
    expect(saveNotice(state)?.tone).toBe("info");
    state = quizReducer(state, { type: "moveFailed", carried: answer });
    expect(state.moving).toBe(false);
    expect(failedAnswers(state)).toEqual([answer]);

    state = quizReducer(state, { type: "saveRefused", answer, message: "The time for this question is up." });
    expect(failedAnswers(state)).toEqual([]);
    expect(saveNotice(state)).toBeNull();
    expect(state.problem).toBe("The time for this question is up.");
  });

  it("asks before skipping on a per-question test, and on a whole-quiz test once, at Submit", () => {
    const paced = loaded(true);
    expect(nextStep(paced)).toBe("ask");
    expect(nextStep(quizReducer(paced, { type: "skipAsked" }))).toBe("advance");
    expect(nextStep(quizReducer(paced, { type: "picked", ...pick(q1) }))).toBe("advance");
    // Picking an answer ends the question.
    expect(quizReducer(quizReducer(paced, { type: "skipAsked" }), { type: "picked", ...pick(q1) }).confirmingSkip).toBe(
      false,
    );

    const whole = loaded(false);
    expect(nextStep(whole)).toBe("goForward");
    const atLast = quizReducer(whole, { type: "wentTo", index: 2 });
    expect(unansweredNumbers(atLast)).toEqual([1, 2, 3]);
    expect(nextStep(atLast)).toBe("ask");
    expect(nextStep(quizReducer(atLast, { type: "skipAsked" }))).toBe("submit");
    // Going back to a question ends the asking; answering every question means Submit needs no question.
    expect(quizReducer(quizReducer(atLast, { type: "skipAsked" }), { type: "wentTo", index: 0 }).confirmingSkip).toBe(
      false,
    );
    const answered = [q1, q2, q3].reduce(
      (state, question) => quizReducer(state, { type: "picked", ...pick(question) }),
      atLast,
    );
    expect(unansweredNumbers(answered)).toEqual([]);
    expect(nextStep(answered)).toBe("submit");
  });

  it("moves to the question the server opened, with its window, and announces it", () => {
    const state = quizReducer(loaded(true), {
      type: "moved",
      progress: { currentIndex: 1, secondsLeft: 30, question: q2 },
      now: 2_000_000,
    });
    expect(state.index).toBe(1);
    expect(state.questions[1]).toEqual(q2);
    expect(secondsLeft(state)).toBe(30);
    expect(state.announcement).toBe("Question 2 of 3. You have 30 seconds.");
  });

  it("shows each message from the invigilator once, announced, and keeps the latest few", () => {
    const message = (n: number) => ({
      _id: `00000000-0000-4000-a000-0000000000${String(n).padStart(2, "0")}`,
      kind: "message" as const,
      text: `Announcement ${n}`,
      sentAt: "2026-11-29T10:00:00.000Z",
    });
    const first = run([{ type: "messageReceived", notice: message(1) }], loaded(true));
    expect(first.messages.map((shown) => shown.text)).toEqual(["Announcement 1"]);
    expect(first.announcement).toBe("Message from the invigilator: Announcement 1");
    // Sent again after a reconnection: shown once, and not announced again.
    expect(run([{ type: "messageReceived", notice: message(1) }], first)).toBe(first);
    const many = run(
      Array.from({ length: MESSAGES_REPLAYED + 2 }, (_, n) => ({
        type: "messageReceived" as const,
        notice: message(n + 2),
      })),
      first,
    );
    expect(many.messages.map((shown) => shown.text)).toEqual(
      Array.from({ length: MESSAGES_REPLAYED }, (_, n) => `Announcement ${n + 4}`),
    );
    // Word of time added is not a message: the page reads its clock instead.
    const timeAdded = { ...message(99), kind: "time-added" as const, text: null };
    expect(run([{ type: "messageReceived", notice: timeAdded }], first).messages).toHaveLength(1);
  });

  it("warns screen readers once when ten seconds are left", () => {
    const start = loaded(true);
    const at11 = quizReducer(start, { type: "tick", now: 1_000_000 + 19_000 });
    expect(at11.announcement).toBe("Question 1 of 3. You have 30 seconds.");
    const at10 = quizReducer(at11, { type: "tick", now: 1_000_000 + 20_000 });
    expect(at10.announcement).toBe("10 seconds left for this question.");
    expect(secondsLeft(quizReducer(at10, { type: "tick", now: 1_000_000 + 31_000 }))).toBe(0);
  });

  it("says what a lost connection gave back, and a resumed drive's clock as before (decisions 039, 040)", () => {
    const start = loaded(true);
    const credited = quizReducer(start, {
      type: "resumed",
      secondsLeft: 25,
      now: 1_000_000 + 5_000,
      creditedSeconds: 40.4,
    });
    expect(secondsLeft(credited)).toBe(25);
    expect(credited.announcement).toBe(
      "Time lost with your connection was given back (40 seconds): 25 seconds left for this question.",
    );
    const resumed = quizReducer(start, { type: "resumed", secondsLeft: 25, now: 1_000_000 + 5_000 });
    expect(resumed.announcement).toBe("The test goes on: 25 seconds left for this question.");
  });

  it("keeps picks the server has not acknowledged across a reload of the attempt", () => {
    const answer = pick(q2);
    const before = run(
      [
        { type: "picked", ...answer },
        { type: "saveFailed", answer },
      ],
      loaded(false),
    );
    const stored = pick(q1);
    const after = quizReducer(before, { type: "loaded", attempt: attempt(false, { answers: [stored] }), now: 5 });
    expect(after.answers).toEqual({ [q1._id]: stored.optionId, [q2._id]: answer.optionId });
    expect(failedAnswers(after)).toEqual([answer]);
  });

  it("forgets nothing unsaved until the submit lands, then everything", () => {
    const answer = pick(q1);
    let state = run(
      [{ type: "picked", ...answer }, { type: "saveFailed", answer }, { type: "submitStarted" }],
      loaded(false),
    );
    state = quizReducer(state, { type: "submitFailed", message: "Cannot reach the server." });
    expect(state.phase).toBe("running");
    expect(failedAnswers(state)).toEqual([answer]);
    state = run([{ type: "submitStarted" }, { type: "submitted", resultId: "r" }], state);
    expect(state.unsaved).toEqual({});
    expect(state.resultId).toBe("r");
  });
});

describe("a test timed per section", () => {
  const [q4, q5] = [question(4), question(5)];
  const sections = [
    { name: "Quantitative Aptitude", firstPosition: 0, questionCount: 2 },
    { name: "Logical Reasoning", firstPosition: 2, questionCount: 2 },
    { name: "Verbal Ability", firstPosition: 4, questionCount: 1 },
  ];
  /** The attempt with its second section open on its own clock: every question served up to that section's end. */
  const second = (overrides: Partial<Extract<AttemptState, { status: "in_progress" }>> = {}) =>
    attempt(false, {
      timingMode: "per_section",
      totalQuestions: 5,
      sections,
      sectionFirst: 2,
      sectionEnd: 4,
      secondsLeft: 120,
      questions: [q1, q2, q3, q4],
      ...overrides,
    });
  const open = (openAt?: number, overrides = {}) =>
    run([{ type: "loaded", attempt: second(overrides), now: 1_000_000, openAt }]);

  it("opens the section's first question, or the one open before when it is in the section", () => {
    expect(open().index).toBe(2);
    expect(open().announcement).toBe("Section 2 of 3: Logical Reasoning. Question 3 of 5.");
    expect(open(3).index).toBe(3);
    // A question of a closed section, or of one not open yet, is not reopened.
    expect(open(0).index).toBe(2);
    expect(open(4).index).toBe(2);
  });

  it("counts and names only the open section's questions before leaving it", () => {
    const state = run(
      [
        { type: "markToggled", questionId: q4._id },
        { type: "markToggled", questionId: q1._id },
      ],
      open(undefined, { answers: [pick(q1)] }),
    );
    expect(unansweredNumbers(state)).toEqual([3, 4]);
    expect(markedNumbers(state)).toEqual([4]);
  });

  it("leaves a section on its own clock through its summary, and a paced one's last question at once", () => {
    expect(nextStep(open())).toBe("goForward");
    const atEnd = quizReducer(open(), { type: "wentTo", index: 3 });
    expect(nextStep(atEnd)).toBe("askLeave");
    const asking = quizReducer(atEnd, { type: "leaveAsked" });
    expect(asking.confirmingLeave).toBe(true);
    expect(quizReducer(asking, { type: "leaveCancelled" }).confirmingLeave).toBe(false);
    expect(quizReducer(asking, { type: "wentTo", index: 2 }).confirmingLeave).toBe(false);
    const leaving = quizReducer(asking, { type: "leaveStarted" });
    expect(leaving).toMatchObject({ confirmingLeave: false, moving: true });
    const stayed = quizReducer(leaving, { type: "leaveFailed", message: "Cannot reach the server." });
    expect(stayed).toMatchObject({ moving: false, problem: "Cannot reach the server." });

    const paced = run([
      {
        type: "loaded",
        attempt: second({ paced: true, currentIndex: 3, question: q4, questions: [], secondsLeft: 30 }),
        now: 1_000_000,
      },
    ]);
    expect(nextStep(paced)).toBe("ask");
    expect(nextStep(quizReducer(paced, { type: "skipAsked" }))).toBe("leaveSection");
    expect(nextStep(quizReducer(paced, { type: "picked", ...pick(q4) }))).toBe("leaveSection");

    // The last section ends with Submit, as a test timed as a whole does.
    const last = open(undefined, {
      sectionFirst: 4,
      sectionEnd: 5,
      questions: [q1, q2, q3, q4, q5],
      answers: [pick(q5)],
    });
    expect(last.index).toBe(4);
    expect(nextStep(last)).toBe("submit");
  });

  it("forgets a closed section's unsaved picks when the next section opens, and warns of the section's time", () => {
    const answer = pick(q1);
    const first = run([
      {
        type: "loaded",
        attempt: second({ sectionFirst: 0, sectionEnd: 2, questions: [q1, q2] }),
        now: 1_000_000,
      },
      { type: "picked", ...answer },
      { type: "saveFailed", answer },
    ]);
    expect(failedAnswers(first)).toEqual([answer]);
    const next = quizReducer(first, { type: "loaded", attempt: second(), now: 1_000_000 });
    expect(failedAnswers(next)).toEqual([]);
    expect(next.index).toBe(2);

    const warned = quizReducer(next, { type: "tick", now: 1_000_000 + 110_000 });
    expect(warned.announcement).toBe("10 seconds left in this section.");
  });
});
