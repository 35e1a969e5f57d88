// The quiz as the server holds it: the server picks and remembers the questions by the drive's test, keeps
// the clock, saves each answer as it is given, refuses what arrives outside a question's window, and scores
// only the served questions, each once. Nothing here ever returns which option is correct. How the original
// all-at-once client and our paced client share the default test: docs/decisions/007.
import { randomInt } from "node:crypto";
import { DEADLINE_GRACE_SECONDS } from "@trainwise/contract/constants";
import { type AttemptEnding, type ServedSection, type TestSection, waitsForRelease } from "@trainwise/contract/drives";
import { DRIVE_PAUSED_MESSAGE } from "@trainwise/contract/notices";
import {
  type Answer,
  type AttemptProgress,
  type AttemptState,
  chosenOptions,
  type FocusLossNoted,
  type LeaveSection,
  type PaletteChange,
  type QuizIntro,
  type QuizQuestion,
  type QuizResult,
  type RefusedAnswer,
  scorePercentage,
  sectionResultsOf,
} from "@trainwise/contract/quiz";
import { sectionPlaces } from "@trainwise/contract/section-positions";
import { ADDED_MINUTES, addedTimeText } from "@trainwise/contract/students";
import type { Database, Executor } from "../../db/client.ts";
import { isDeadlock } from "../../db/errors.ts";
import { HttpError } from "../../http/http-error.ts";
import { entryRefusal } from "../drives/window.ts";
import { storeTimeAdded } from "./notices.ts";
import { drawnOptionIds, servedQuizQuestions } from "./question-contents.ts";
import {
  answerSlots,
  attemptsOf,
  clockHeld,
  drivePausedAt,
  lockOpenAttempt,
  lockOpenAttemptWithSlots,
  resultContext,
  resultRows,
  resultView,
  servedRefAt,
  servedRefs,
} from "./repository/attempt-reads.ts";
import type { AnswerSlot, AttemptRow, AttemptsOf, Choice, ServedRef } from "./repository/attempt-rows.ts";
import {
  claimAndLockDrawn,
  drawQuestionIds,
  insertAttempt,
  lockStudent,
  type StudentForStart,
} from "./repository/attempt-start.ts";
import {
  addTime,
  changePaletteOf,
  markEndedBy,
  moveCurrentPosition,
  openSection,
  recordFocusLoss,
  recordFullScreenExit,
  recordReload,
  saveSelectedOption,
  scoreAndClose,
  type TimeAdded,
} from "./repository/attempt-writes.ts";
import {
  advanceIfAllowed,
  type ClockRow,
  changePaletteIfOpen,
  overdueAttempts,
  saveAnswerIfOpen,
} from "./repository/clock-statements.ts";
import { attemptsAllowed, readIntro } from "./repository/intro.ts";
import { takeNext } from "./repository/next-batches.ts";
import { leaveSectionIfOpen } from "./repository/section-statements.ts";
import {
  type AttemptClock,
  acceptsAnswer,
  catchUpSections,
  clockMoment,
  deadlineFrom,
  hasRunOut,
  nextSectionClock,
  readClock,
  type SectionTime,
  sectionsSeconds,
  windowStart,
} from "./timing.ts";

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = randomInt(index + 1);
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

function isOverdue(attempt: AttemptRow, now: Date): boolean {
  return !attempt.submittedAt && hasRunOut(attempt, now);
}

/** The sections of an attempt timed per section, as its clock reads them; empty for any other attempt. */
function sectionTimes(attempt: Pick<AttemptRow, "timingMode" | "sections">): SectionTime[] {
  if (attempt.timingMode !== "per_section" || !attempt.sections) return [];
  return attempt.sections.map((section) => ({
    questionCount: section.questionCount,
    paced: section.timing === "per_question",
    secondsPerQuestion: section.secondsPerQuestion ?? 0,
  }));
}

/**
 * Brings the attempt's clock up to `now`, its row locked: an attempt timed per section moves on past every section
 * whose time has run out (each next one from when the last ended), and an attempt whose time has run out (its last
 * section's, or its own) is scored and closed; nothing moves while its drive stands paused. Returns the attempt as it
 * now is.
 */
async function closeIfOverdue(db: Executor, attempt: AttemptRow, now: Date): Promise<AttemptRow> {
  if (!isOverdue(attempt, now)) return attempt;
  // A paused drive's clocks stand still (decision 039), and a lost connection holds its attempt open until it is
  // heard again or its time to be given back has passed (decision 040): asked of the database, whatever read it.
  if (await clockHeld(db, attempt.id, now)) return attempt;
  const times = sectionTimes(attempt);
  const caughtUp = catchUpSections(attempt, times, attempt.deadlineAt, now);
  if (caughtUp.sectionFirst !== attempt.sectionFirst) {
    await moveToSection(db, attempt, caughtUp, times);
    if (!isOverdue(attempt, now)) return attempt;
  }
  return (await scoreAndClose(db, attempt.id, now)) ?? attempt;
}

/** The attempt, its row locked, moved on to the section of `opened`: stored, and as the caller holds it. */
async function moveToSection(db: Executor, attempt: AttemptRow, opened: AttemptClock, times: SectionTime[]) {
  const deadlineAt = deadlineFrom(opened, times, attempt.deadlineAt);
  await openSection(db, attempt.id, opened, deadlineAt);
  Object.assign(attempt, opened, { deadlineAt });
}

/**
 * The attempt as it stands, for reading: an attempt whose time has run out is closed first, under a lock.
 * Anything else is read as it is, without a transaction.
 */
async function settled(db: Database, attempt: AttemptRow, pausedAt: Date | null = null): Promise<AttemptRow> {
  // A paused drive's clock stands at its pause (decision 039): nothing runs out meanwhile (closeIfOverdue asks too).
  if (!isOverdue(attempt, clockMoment(new Date(), pausedAt))) return attempt;
  return db.transaction(async (tx) => {
    const open = await lockOpenAttempt(tx, attempt.studentId);
    if (open?.id === attempt.id) return closeIfOverdue(tx, open, new Date());
    // Closed meanwhile, by the sweep or a submit: read it as it is now.
    const current = (await attemptsOf(tx, attempt.studentId)).find((row) => row.id === attempt.id);
    return current ?? attempt;
  });
}

/** How the attempt is being started: by the original client's call that takes every question at once, or by ours. */
export type StartedBy = "all_at_once" | "paced_client";

/**
 * How an answer is stored: the original client's one option as before (the hot statements unchanged for it),
 * several options of a multiple-answer question as a list.
 */
function choiceOf(answer: Answer): Choice {
  const options = chosenOptions(answer);
  return answer.optionIds === undefined
    ? { optionId: options[0] ?? null, optionIds: null }
    : { optionId: null, optionIds: options };
}

function sameChoice(slot: AnswerSlot, choice: Choice): boolean {
  if (choice.optionId !== null) return slot.selectedOptionId === choice.optionId && slot.selectedOptionIds === null;
  const saved = slot.selectedOptionIds;
  return (
    saved !== null && saved.length === choice.optionIds?.length && choice.optionIds.every((id) => saved.includes(id))
  );
}

/**
 * The questions a client may see now: every one on an attempt timed as a whole, the open section's on a section's
 * own clock (from `questionsFrom`), and in a paced attempt up to the one whose window is open (only that one is
 * sent). No question's text leaves the server before its time, nor a later section's before that section opens,
 * nor, once a section closes, the questions of it a student never reached (an outside attack read a skipped paced
 * section's questions in the next section's state).
 */
function visibleQuestions(db: Executor, attempt: AttemptRow, served: ServedRef[], now: Date): Promise<QuizQuestion[]> {
  if (!attempt.paced) return servedQuizQuestions(db, served.slice(questionsFrom(attempt), attempt.sectionEnd));
  return servedQuizQuestions(db, served.slice(0, progressOf(attempt, now).currentIndex + 1));
}

/** The question served at `position` of the attempt, as the student sees it. */
async function quizQuestionAt(db: Executor, attemptId: string, position: number): Promise<QuizQuestion | null> {
  const served = await servedRefAt(db, attemptId, position);
  return served ? ((await servedQuizQuestions(db, [served]))[0] ?? null) : null;
}

const SECURE_TEST_SHORT =
  "This test cannot start: the question bank has too few questions whose answers no candidate has seen. " +
  "Please tell the invigilator.";

/**
 * A start that drew a question another start meanwhile took the other way (a practice and a secure first draw
 * of the same fresh question, decision 024): the whole start is tried again, since its claims on fresh questions
 * are held until it ends, and a second draw claiming more while holding them could wait in a circle.
 */
class DrawRaced extends Error {}

/** The draws a start makes, in order: each section's, or the test's own as one unnamed section when it has none. */
function drawsOf(test: StudentForStart["test"]): TestSection[] {
  if (test.sections.length > 0) return test.sections;
  const { questionCount, categories, difficultyMix, negativeMark, secondsPerQuestion } = test;
  return [
    {
      name: "",
      questionCount,
      categories,
      difficultyMix,
      negativeMark,
      cutOff: null,
      timing: "per_question",
      secondsPerQuestion,
    },
  ];
}

/**
 * Draws a start's questions, each section's from its own categories and mix and none twice, claims the fresh ones
 * and locks them all, each at the revision its text is served at; DrawRaced when one became unusable meanwhile
 * (another start's claim, an admin's archive or deletion). Returns each draw with the questions it got.
 */
async function drawQuestions(tx: Executor, test: StudentForStart["test"]) {
  const sections = drawsOf(test);
  const drawn = await drawQuestionIds(
    tx,
    sections.map((section) => ({
      count: section.questionCount,
      categories: section.categories,
      mix: section.difficultyMix,
    })),
    test.secure,
  );
  const all = drawn.flat();
  const locked = await claimAndLockDrawn(tx, all, test.secure);
  if (locked.length < all.length || locked.some((question) => !question.drawable)) throw new DrawRaced();
  const revisions = new Map(locked.map((question) => [question.questionId, question.revision]));
  return sections.map((section, index) => ({
    section,
    questions: (drawn[index] ?? []).map((questionId) => ({
      questionId,
      revision: revisions.get(questionId) as string,
    })),
  }));
}

/** Tries a start up to three times when it lost a race for fresh questions or PostgreSQL broke a deadlock. */
async function retryingRaces<T>(start: () => Promise<T>): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await start();
    } catch (error) {
      if (!(error instanceof DrawRaced || isDeadlock(error))) throw error;
      if (round === 3) throw new HttpError(503, "Many students are starting at this moment. Please try again.");
    }
  }
}

/**
 * Starts the student's attempt in their drive, or resumes the open one. The drive's test decides the length,
 * the questions and the clock; `startedBy` only decides, on the default test, whether the attempt is paced. While
 * the drive is paused (`pausedAt`, decision 039) the open attempt resumes as it stood at the pause, and nothing new
 * starts.
 */
export async function startOrResumeAttempt(db: Database, studentId: string, startedBy: StartedBy) {
  return retryingRaces(() => startOrResumeOnce(db, studentId, startedBy));
}

async function startOrResumeOnce(db: Database, studentId: string, startedBy: StartedBy) {
  return db.transaction(async (tx) => {
    const student = await lockStudent(tx, studentId);
    if (!student) throw new HttpError(401, "Your registration was not found. Please register again.");
    const pausedAt = await drivePausedAt(tx, { driveId: student.driveId });
    const now = clockMoment(new Date(), pausedAt);
    const previous = student.attempts;
    const open = previous.find((attempt) => !attempt.submittedAt);
    const current = open ? await closeIfOverdue(tx, open, now) : undefined;
    if (current && !current.submittedAt) {
      // The quiz opened again on a running attempt: a reload, a tab reopened, another device. Counted for the live
      // board apart from the page's focus losses, and heard as the student's latest request (decision 017).
      await recordReload(tx, current.id, new Date());
      return {
        attempt: current,
        questions: await visibleQuestions(tx, current, await servedRefs(tx, current.id), now),
        pausedAt,
      };
    }

    const { test } = student;
    const allowed = {
      student: student.attemptsAllowed,
      test: test.attemptsAllowed,
      endedEarly: student.endedEarly,
    };
    if (previous.length >= attemptsAllowed(allowed)) {
      throw new HttpError(
        409,
        student.endedEarly
          ? "Your attempt was ended before its time, so another cannot start. Ask an admin if you need another attempt."
          : "You have already completed the quiz. Ask an admin if you need another attempt.",
      );
    }
    if (pausedAt) throw new HttpError(423, DRIVE_PAUSED_MESSAGE);
    const refusal = entryRefusal(student, now);
    if (refusal) throw new HttpError(403, refusal);
    const draws = await drawQuestions(tx, test);
    const picked = draws.flatMap((draw) => draw.questions);
    if (picked.length === 0) throw new HttpError(409, "No quiz questions are available yet. Please try again later.");
    // A secure test never runs short silently: the admin sees the count on the tests page before a drive.
    if (test.secure && draws.some((draw) => draw.questions.length < draw.section.questionCount)) {
      throw new HttpError(409, SECURE_TEST_SHORT);
    }
    // A section with no question could be neither sat nor passed: its cut-off would judge nothing.
    const emptySection = test.sections.length > 0 && draws.find((draw) => draw.questions.length === 0);
    if (emptySection) {
      throw new HttpError(
        409,
        `This test cannot start: its section ${emptySection.section.name} has no questions in the bank. ` +
          "Please tell the invigilator.",
      );
    }
    const optionIds = await drawnOptionIds(tx, picked);
    const withOptions = picked.map((question, index) => ({
      ...question,
      optionOrder: shuffled(optionIds[index] ?? []),
    }));
    // Each section's questions in an order of their own, the sections in the test's order.
    let first = 0;
    const served = draws.flatMap((draw): ServedRef[] => {
      first += draw.questions.length;
      return shuffled(withOptions.slice(first - draw.questions.length, first));
    });
    // The original client takes every question at once and submits at the end; on the default drive it gets one
    // window for the whole quiz so that every answer it sends in time counts (decision 007). Only there: another
    // drive of the default test keeps its per-question windows, whichever client starts it.
    const allAtOnce = startedBy === "all_at_once" && student.driveIsDefault;
    const secondsPerQuestion = Math.round(test.secondsPerQuestion * student.timeMultiplier);
    const sections =
      test.sections.length === 0
        ? null
        : draws.map(
            ({ section, questions }): ServedSection => ({
              name: section.name,
              questionCount: questions.length,
              negativeMark: section.negativeMark,
              cutOff: section.cutOff,
              ...(test.timingMode === "per_section" && {
                timing: section.timing,
                secondsPerQuestion: Math.round(section.secondsPerQuestion * student.timeMultiplier),
              }),
            }),
          );
    const clock = firstClock({ test, sections, served: served.length, secondsPerQuestion, allAtOnce });
    const attempt = await insertAttempt(tx, {
      studentId,
      now,
      served,
      // A drive whose closing ends running attempts: none outlasts it (reclockOpenAttempts keeps that true when
      // an admin closes, reopens or moves the closing time).
      endsBy: student.closingEndsAttempts ? (student.closedAt ?? student.closesAt) : null,
      time: clock.time,
      rules: {
        secondsPerQuestion: clock.secondsPerQuestion,
        driveId: student.driveId,
        timingMode: test.timingMode,
        paced: clock.paced,
        negativeMark: test.negativeMark,
        passMark: test.passMark,
        reviewPolicy: test.reviewPolicy,
        secure: test.secure,
        sections,
      },
    });
    const questions = await visibleQuestions(tx, attempt, served, now);
    return { attempt, questions, started: { testName: student.testName }, pausedAt };
  });
}

/**
 * How a new attempt's clock starts: on a test timed per section, its first section's (paced, or on a clock of its
 * own); else the test's, paced when it is timed per question. The original client takes every question at once and
 * submits at the end; on the default drive it gets one window for the whole quiz so that every answer it sends in
 * time counts (decision 007). Only there, and never over a test timed per section: one window would let a
 * candidate who chose that route skip every section's clock and order (an outside attack), so the sections keep
 * their clocks and the route serves what the open section shows. Another drive of the default test keeps its
 * clock, whichever client starts it.
 */
function firstClock(values: {
  test: StudentForStart["test"];
  sections: ServedSection[] | null;
  served: number;
  secondsPerQuestion: number;
  allAtOnce: boolean;
}) {
  const { test, sections, served, secondsPerQuestion, allAtOnce } = values;
  const times = sectionTimes({ timingMode: test.timingMode, sections });
  const first = times[0];
  if (!first) {
    const paced = test.timingMode === "per_question" && !allAtOnce;
    return { paced, secondsPerQuestion, time: { seconds: served * secondsPerQuestion, firstSection: null } };
  }
  const seconds = sectionsSeconds(times);
  const firstSection = { end: first.questionCount, seconds: sectionsSeconds(times, 0, 1) };
  return { paced: first.paced, secondsPerQuestion: first.secondsPerQuestion, time: { seconds, firstSection } };
}

type InProgressState = Extract<AttemptState, { status: "in_progress" }>;

/**
 * Where an open attempt stands, with the questions the client may see now. An attempt `started` just now has no
 * answers yet and its test's name is known: nothing to read.
 */
async function inProgressState(
  db: Executor,
  attempt: AttemptRow,
  questions: QuizQuestion[],
  started?: { testName: string },
  pausedAt: Date | null = null,
): Promise<InProgressState> {
  const [slots, context] = started
    ? [[], started]
    : await Promise.all([answerSlots(db, attempt.id), resultContext(db, attempt.driveId)]);
  return stateInProgress({ ...attempt, testName: context.testName }, slots, questions, pausedAt);
}

/** The position of the first question an attempt's client is sent: its open section's on a section's own clock. */
function questionsFrom(attempt: Pick<AttemptRow, "timingMode" | "sectionFirst">): number {
  return attempt.timingMode === "per_section" ? attempt.sectionFirst : 0;
}

/** The state of an open attempt from what was read of it: its clock at this moment, its answers and marks. */
function stateInProgress(
  attempt: AttemptClock &
    Pick<AttemptRow, "id" | "timingMode" | "totalQuestions" | "sections"> &
    Partial<Pick<AttemptRow, "addedSeconds" | "creditedSeconds">> & { testName: string },
  slots: Pick<AnswerSlot, "questionId" | "selectedOptionId" | "selectedOptionIds" | "visited" | "marked">[],
  questions: QuizQuestion[],
  pausedAt: Date | null = null,
): InProgressState {
  const progress = progressOf(attempt, clockMoment(new Date(), pausedAt));
  return {
    status: "in_progress",
    attemptId: attempt.id,
    testName: attempt.testName,
    timingMode: attempt.timingMode,
    paced: attempt.paced,
    totalQuestions: attempt.totalQuestions,
    currentIndex: progress.currentIndex,
    secondsLeft: progress.secondsLeft,
    secondsPerQuestion: attempt.secondsPerQuestion,
    sections: sectionPlaces(attempt.sections),
    sectionFirst: attempt.sectionFirst,
    sectionEnd: attempt.sectionEnd,
    answers: slots.flatMap((slot): Answer[] => {
      if (slot.selectedOptionId) return [{ questionId: slot.questionId, optionId: slot.selectedOptionId }];
      return slot.selectedOptionIds ? [{ questionId: slot.questionId, optionIds: slot.selectedOptionIds }] : [];
    }),
    visited: slots.flatMap((slot) => (slot.visited ? [slot.questionId] : [])),
    marked: slots.flatMap((slot) => (slot.marked ? [slot.questionId] : [])),
    question: attempt.paced ? (questions[progress.currentIndex] ?? null) : null,
    questions: attempt.paced ? [] : questions,
    ...(!attempt.paced && attempt.timingMode === "per_section" && { questionsFrom: questionsFrom(attempt) }),
    ...(attempt.addedSeconds !== undefined && { addedSeconds: attempt.addedSeconds }),
    ...(attempt.creditedSeconds !== undefined && { creditedSeconds: attempt.creditedSeconds }),
    ...(pausedAt && { pausedAt: pausedAt.toISOString() }),
  };
}

/**
 * GET /api/quiz/intro: what the student is about to sit, read without starting anything: the clock starts only
 * when a start is asked for (POST /api/quiz/start, or the original client's GET /api/quiz/questions).
 */
export async function quizIntro(db: Database, studentId: string): Promise<QuizIntro> {
  const intro = await readIntro(db, studentId);
  if (!intro) throw new HttpError(401, "Your registration was not found. Please register again.");
  return intro;
}

/** POST /api/quiz/start: our client starts (or resumes) the attempt and gets where it stands. */
export async function startAttempt(db: Database, studentId: string): Promise<AttemptState> {
  const { attempt, questions, started, pausedAt } = await startOrResumeAttempt(db, studentId, "paced_client");
  return inProgressState(db, attempt, questions, started, pausedAt);
}

/**
 * GET /api/quiz/attempt: where the student stands, for resuming after a refresh. While the drive is paused, as it
 * stood at the pause (decision 039).
 */
export async function currentAttemptState(db: Database, studentId: string): Promise<AttemptState> {
  const [latest] = await attemptsOf(db, studentId);
  if (!latest) throw new HttpError(404, "You have not started the quiz yet.");
  const pausedAt = latest.submittedAt ? null : await drivePausedAt(db, { driveId: latest.driveId });
  const attempt = await settled(db, latest, pausedAt);
  if (attempt.submittedAt) return { status: "submitted", attemptId: attempt.id, resultId: attempt.id };
  const moment = clockMoment(new Date(), pausedAt);
  const questions = await visibleQuestions(db, attempt, await servedRefs(db, attempt.id), moment);
  return inProgressState(db, attempt, questions, undefined, pausedAt);
}

/** Where the clock stands: the open question, the open section's last once its time is up, and the time left. */
function progressOf(attempt: AttemptClock, now: Date): AttemptProgress {
  const clock = readClock(attempt, now);
  return { currentIndex: Math.min(clock.position, attempt.sectionEnd - 1), secondsLeft: clock.secondsLeft };
}

/** Why an answer (or a palette change) to `position` is refused for lying outside the open section; else undefined. */
function outsideSection(attempt: AttemptRow, position: number): string | undefined {
  if (position < attempt.sectionFirst) return "That question's section is closed: its answers can no longer change.";
  if (position >= attempt.sectionEnd && position < attempt.totalQuestions) {
    return "That question is in a later section, which is not open yet.";
  }
  return undefined;
}

/**
 * Saves one answer if it is valid and its question's window is open; returns why not otherwise. The answer the
 * question already holds is taken as it stands, open or not: a retry whose reply was lost is not told it failed.
 */
async function applyAnswer(
  db: Executor,
  attempt: AttemptRow,
  slot: AnswerSlot | undefined,
  answer: Answer,
  now: Date,
): Promise<string | undefined> {
  if (!slot) return "That question is not part of your quiz.";
  const choice = choiceOf(answer);
  if (sameChoice(slot, choice)) return undefined;
  const options = chosenOptions(answer);
  if (!options.every((id) => slot.optionOrder.includes(id))) return "That option does not belong to this question.";
  if (options.length > 1 && !slot.multiple) return "This question takes one answer only.";
  const closed = outsideSection(attempt, slot.position);
  if (closed) return closed;
  if (!acceptsAnswer(attempt, slot.position, now)) {
    return slot.position < readClock(attempt, now).position || slot.position < attempt.currentPosition
      ? "Time is up for that question; its answer can no longer change."
      : "That question is not open yet.";
  }
  const start = attempt.paced ? windowStart(attempt, slot.position) : null;
  await saveSelectedOption(db, { attemptId: attempt.id, position: slot.position, choice, now, windowStart: start });
  if (start && slot.position > attempt.currentPosition) {
    // The timer moved the attempt on while the student was away; record where it is now.
    await moveCurrentPosition(db, attempt.id, slot.position, start);
    attempt.currentPosition = slot.position;
    attempt.currentStartedAt = start;
  }
  return undefined;
}

/** What an invigilator reads when they would `action` (add time, end an attempt) while the drive is paused. */
export function pausedForInvigilators(action: string): string {
  return `The drive is paused: resume it first, then ${action}.`;
}

/**
 * Refuses (423) a change of the locked attempt while its drive stands paused (decision 039), as the database says
 * at this moment: the page keeps what it sent, to send again once the drive is resumed.
 */
async function refuseChangeWhilePaused(db: Executor, attempt: AttemptRow): Promise<void> {
  if (await drivePausedAt(db, { driveId: attempt.driveId })) throw new HttpError(423, DRIVE_PAUSED_MESSAGE);
}

async function lockOpenAttemptOrRefuse(db: Executor, studentId: string, now: Date): Promise<AttemptRow> {
  const open = await lockOpenAttempt(db, studentId);
  if (!open) throw new HttpError(409, "You have no quiz in progress.");
  await refuseChangeWhilePaused(db, open);
  const attempt = await closeIfOverdue(db, open, now);
  if (attempt.submittedAt) throw new HttpError(409, "Time is up: your quiz has been submitted.");
  return attempt;
}

/** The clock of a row from the one-statement paths, in the shape readClock takes. */
function clockOf(row: ClockRow): AttemptClock {
  return {
    ...row,
    currentStartedAt: new Date(row.currentStartedAt),
    sectionDeadlineAt: new Date(row.sectionDeadlineAt),
  };
}

/** PUT /api/quiz/answers: saves one answer as the student gives it. */
export async function saveAnswer(db: Database, studentId: string, answer: Answer): Promise<AttemptProgress> {
  const now = new Date();
  // The common case in one statement; anything it refuses goes through the checks below for the exact reason.
  const saved = await saveAnswerIfOpen(db, {
    studentId,
    questionId: answer.questionId,
    choice: choiceOf(answer),
    now,
    graceSeconds: DEADLINE_GRACE_SECONDS,
  });
  if (saved) return progressOf(clockOf(saved), now);
  return db.transaction(async (tx) => {
    const now = new Date();
    const attempt = await lockOpenAttemptOrRefuse(tx, studentId, now);
    const slot = (await answerSlots(tx, attempt.id)).find((candidate) => candidate.questionId === answer.questionId);
    const refusal = await applyAnswer(tx, attempt, slot, answer, now);
    if (refusal) throw new HttpError(409, refusal);
    return progressOf(attempt, now);
  });
}

/**
 * POST /api/quiz/next: Next pressed (or the timer ran out) on the question before `position`, with the answer to
 * the question being left when the client sends it. Answers the clock and the question now open.
 */
export async function advanceAttempt(
  db: Database,
  studentId: string,
  position: number,
  answer?: Answer,
): Promise<AttemptProgress> {
  // The common case, answer and move in one statement; anything it would refuse takes the way below.
  const done = await takeNext(db, {
    studentId,
    position,
    now: new Date(),
    answer: answer && { questionId: answer.questionId, choice: choiceOf(answer) },
  });
  if (done) {
    const progress = progressOf(clockOf(done), new Date());
    if (progress.currentIndex !== done.openPosition) {
      return { ...progress, question: await quizQuestionAt(db, done.attemptId, progress.currentIndex) };
    }
    const question = done.question && (await servedQuizQuestions(db, [done.question]))[0];
    return { ...progress, question: question ?? null };
  }
  // A refused answer (time up on that question) does not stop the move; the client hears why (an outside attack
  // saw an answer to a closed section's question answered 200 and nothing more, so the page showed it as saved).
  const refused = answer && (await refusalOf(saveAnswer(db, studentId, answer)));
  const moved = await advanceWithoutAnswer(db, studentId, position);
  return refused ? { ...moved, refused } : moved;
}

/** Next's move with its answer, if any, dealt with already: in one statement when allowed, else under the lock. */
async function advanceWithoutAnswer(db: Database, studentId: string, position: number): Promise<AttemptProgress> {
  const moved = await advanceIfAllowed(db, { studentId, position, now: new Date() });
  if (moved) {
    const progress = progressOf(clockOf(moved), new Date());
    return { ...progress, question: await quizQuestionAt(db, moved.attemptId, progress.currentIndex) };
  }
  return db.transaction(async (tx) => {
    const now = new Date();
    const attempt = await lockOpenAttemptOrRefuse(tx, studentId, now);
    if (!attempt.paced) {
      throw new HttpError(
        409,
        attempt.timingMode === "per_section"
          ? "This section is on one clock: move between its questions freely, then leave the section."
          : "This quiz is timed as a whole: move between its questions freely and submit at the end.",
      );
    }
    const clock = readClock(attempt, now);
    if (position === attempt.sectionEnd && position < attempt.totalQuestions && clock.position + 1 >= position) {
      throw new HttpError(409, "That question is in the next section: leave this section to open it.");
    }
    if (position > clock.position + 1 || position >= attempt.sectionEnd) {
      throw new HttpError(409, "You can only move on to the next question.");
    }
    if (position === clock.position + 1) {
      await moveCurrentPosition(tx, attempt.id, position, now);
      attempt.currentPosition = position;
      attempt.currentStartedAt = now;
    } else if (clock.position > attempt.currentPosition) {
      // The timer got there first: record where it has taken the attempt (the same clock), as the one statement does.
      const start = windowStart(attempt, clock.position);
      await moveCurrentPosition(tx, attempt.id, clock.position, start);
      attempt.currentPosition = clock.position;
      attempt.currentStartedAt = start;
    }
    const progress = progressOf(attempt, now);
    return { ...progress, question: await quizQuestionAt(tx, attempt.id, progress.currentIndex) };
  });
}

/** Why `saving` was refused (a 409's message), or undefined once it is saved; anything else is thrown. */
async function refusalOf(saving: Promise<unknown>): Promise<string | undefined> {
  try {
    await saving;
    return undefined;
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 409) return error.message;
    throw error;
  }
}

/**
 * POST /api/quiz/focus: the page lost focus while the question at `position` was open. Counted, and the count and
 * the drive's rule told back; at the drive's limit, on a drive whose limit ends attempts, the attempt is submitted
 * with the answers it holds (decision 035). One transaction under the attempt's lock: reports arriving together
 * are counted one after the other, and the one that reaches the limit closes the attempt before the next counts.
 */
export async function noteFocusLoss(db: Database, studentId: string, position: number): Promise<FocusLossNoted> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const attempt = await lockOpenAttemptOrRefuse(tx, studentId, now);
    if (!hasShown(attempt, position, now)) throw new HttpError(409, "You have no quiz in progress at that question.");
    const recorded = await recordFocusLoss(tx, attempt.id, position);
    if (!recorded) throw new HttpError(409, "You have no quiz in progress at that question.");
    const { focusLosses, limit, endsAttempt } = recorded;
    const noted = { focusLosses, limit, endsAttempt, resultId: null };
    if (!endsAttempt || limit === null || focusLosses < limit) return noted;
    return { ...noted, resultId: (await endLocked(tx, attempt, "focus_limit", now)) ? attempt.id : null };
  });
}

/**
 * Whether the student can have had the question at `position` open: one of the open section's, and on a paced
 * clock one whose window has opened (a later one has not been shown, and a report about it is not a report).
 */
function hasShown(attempt: AttemptRow, position: number, now: Date): boolean {
  if (position < attempt.sectionFirst || position >= attempt.sectionEnd) return false;
  return !attempt.paced || position <= readClock(attempt, now).position;
}

/**
 * Ends the student's running attempt now, scored with the answers it holds as a deadline would, and notes who ended
 * it. False when none was running: none at all, already submitted, or its time already up (then it is closed as its
 * clock says, not by `endedBy`).
 */
export async function endRunningAttempt(db: Database, studentId: string, endedBy: AttemptEnding): Promise<boolean> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const locked = await lockOpenAttempt(tx, studentId);
    if (!locked) return false;
    if (await drivePausedAt(tx, { driveId: locked.driveId })) {
      throw new HttpError(409, pausedForInvigilators("end the attempt"));
    }
    const attempt = await closeIfOverdue(tx, locked, now);
    if (attempt.submittedAt) return false;
    // One held open for its lost connection (decision 040) can be ended too: its candidate may never come back, and
    // an outside attack found it beyond the invigilator's reach and revived by a heartbeat afterwards.
    const held = now.getTime() >= attempt.deadlineAt.getTime() && (await clockHeld(tx, attempt.id, now));
    return endLocked(tx, attempt, endedBy, now, held);
  });
}

/**
 * Closes a running attempt, its row locked, with the answers it holds, and notes who ended it; false when its time
 * has already run out: in the grace after its deadline it is closed as its clock says, by nobody (an outside attack
 * saw an attempt whose time was up marked as ended by the invigilator). One `held` open for its lost connection is
 * ended however late.
 */
async function endLocked(
  tx: Executor,
  attempt: AttemptRow,
  endedBy: AttemptEnding,
  now: Date,
  held = false,
): Promise<boolean> {
  if (!held && now.getTime() >= attempt.deadlineAt.getTime()) return false;
  await scoreAndClose(tx, attempt.id, now);
  await markEndedBy(tx, attempt.id, endedBy);
  return true;
}

/**
 * POST /api/students/:id/add-time and /api/drives/:id/add-time: an invigilator adds `minutes` to the running attempt
 * of a student, or of every student of a drive (decision 037; timing.ts's withAddedTime), each up to ADDED_MINUTES.max
 * in all. A section that ran out while nobody asked is moved on first, as the sweep would, so that the next section
 * gets the time. Refused with 409 when no attempt there has a clock running; the answer says how many were reached,
 * and which got less for the drive's closing.
 */
export async function addTimeToRunning(db: Database, of: AttemptsOf, minutes: number): Promise<string> {
  await closeOverdueAttempts(db, undefined, of);
  const mostSeconds = ADDED_MINUTES.max * 60;
  const added = await addTime(db, of, minutes * 60, new Date(), { mostSeconds });
  const forOne = "studentId" in of;
  const most = `${ADDED_MINUTES.max} minutes`;
  if (added.length === 0) {
    throw new HttpError(
      409,
      forOne
        ? `This student has no attempt running, or it has had the most time added (${most}): no time was added.`
        : `No attempt of this drive is running that can take more time (each may have ${most} added): no time was added.`,
    );
  }
  // Every screen it reached reads its new time at once, not when its own clock runs out.
  await storeTimeAdded(db, of);
  const amount = minutes === 1 ? "1 minute" : `${minutes} minutes`;
  const cut = added.filter((attempt) => attempt.movedSeconds < minutes * 60);
  const reached = forOne
    ? "the attempt"
    : added.length === 1
      ? "1 running attempt"
      : `${added.length} running attempts`;
  const cutNote =
    cut.length === 0
      ? ""
      : forOne
        ? ` The drive's closing ends attempts, so its end moved only ${addedTimeText((cut[0] as TimeAdded).movedSeconds)}.`
        : ` The drive's closing ends attempts: ${cut.length} of them end at its closing time, with less.`;
  return (
    `Added ${amount} to ${reached}: the open question or section and everything after it end ${amount} later.` +
    `${cutNote} The student's page shows the new time within seconds.`
  );
}

/** POST /api/quiz/full-screen/exit: the page left full screen, on a drive that asks for it (decision 035). */
export async function noteFullScreenExit(db: Database, studentId: string): Promise<void> {
  if (!(await recordFullScreenExit(db, studentId, DEADLINE_GRACE_SECONDS))) {
    if (await drivePausedAt(db, { studentId })) throw new HttpError(423, DRIVE_PAUSED_MESSAGE);
    throw new HttpError(409, "You have no quiz in progress on a drive that asks for full screen.");
  }
}

/**
 * PUT /api/quiz/palette: on an attempt timed as a whole, the student opened the question at `position`, and marks
 * it for review, unmarks it, or clears its answer, while the attempt takes answers (its deadline and the grace).
 * A paced attempt has no palette: its questions open one at a time, as its clock says.
 */
export async function changePalette(db: Database, studentId: string, change: PaletteChange): Promise<AttemptProgress> {
  const now = new Date();
  const values = { position: change.position, now, marked: change.marked ?? null, clear: change.clear ?? false };
  // The common case in one statement (an outside attack flooded the locked transaction below, four round trips,
  // and held the pool); anything it refuses goes through the checks below for the exact reason.
  const changed = await changePaletteIfOpen(db, { studentId, ...values, graceSeconds: DEADLINE_GRACE_SECONDS });
  if (changed) return progressOf(clockOf(changed), now);
  return db.transaction(async (tx) => {
    const now = new Date();
    const attempt = await lockOpenAttemptOrRefuse(tx, studentId, now);
    if (attempt.paced) {
      throw new HttpError(
        409,
        attempt.timingMode === "per_section"
          ? "This section gives each question its own time, one after another: it has no palette."
          : "This quiz gives each question its own time, one after another: it has no palette.",
      );
    }
    if (change.position >= attempt.totalQuestions) throw new HttpError(409, "That question is not part of your quiz.");
    const closed = outsideSection(attempt, change.position);
    if (closed) throw new HttpError(409, closed);
    if (!acceptsAnswer(attempt, change.position, now)) {
      throw new HttpError(409, "Time is up: your answers can no longer change.");
    }
    await changePaletteOf(tx, { attemptId: attempt.id, ...values, now });
    return progressOf(attempt, now);
  });
}

/**
 * POST /api/quiz/section/next: on an attempt timed per section, closes the open section (the student's Leave
 * section, or its clock running out) and opens the next, from now or from when the open one's time ended if that
 * was earlier. `sectionFirst` names the section being left: a section already left is not left again (a request
 * sent twice, or the sweep first), and the attempt is answered as it stands. The answer to the question on screen
 * may come along, saved first by the rules of saving one (as Next carries it). The last section ends with Submit.
 */
export async function leaveSection(db: Database, studentId: string, leaving: LeaveSection): Promise<AttemptState> {
  return (await leftInOneGo(db, studentId, leaving)) ?? (await leaveTheLongWay(db, studentId, leaving));
}

/** The common case of leaving a section, with its answer, in one statement (leaveSectionIfOpen); else undefined. */
async function leftInOneGo(db: Database, studentId: string, leaving: LeaveSection) {
  const { answer } = leaving;
  const left = await leaveSectionIfOpen(db, {
    studentId,
    sectionFirst: leaving.sectionFirst,
    now: new Date(),
    graceSeconds: DEADLINE_GRACE_SECONDS,
    answer: answer && { questionId: answer.questionId, choice: choiceOf(answer) },
  });
  if (!left) return undefined;
  const attempt = { ...left, ...clockOf(left), id: left.attemptId, timingMode: "per_section" as const };
  const served = await servedQuizQuestions(db, left.served);
  if (!attempt.paced) return stateInProgress(attempt, left.slots, served);
  // A paced section opened when the one before ended, a little before now, may have moved past its first window.
  const open = progressOf(attempt, new Date()).currentIndex;
  const question = open === attempt.sectionFirst ? served[0] : await quizQuestionAt(db, attempt.id, open);
  const questions: QuizQuestion[] = [];
  if (question) questions[open] = question;
  return stateInProgress(attempt, left.slots, questions);
}

/**
 * Leaving a section that is not the common case: already left, the last, its time run out, the next one's over
 * before it opens, or the attempt submitted meanwhile.
 */
async function leaveTheLongWay(db: Database, studentId: string, leaving: LeaveSection): Promise<AttemptState> {
  // Under the row's lock only what decides and moves; the state is read after, so that repeats hold nobody up.
  const moved = await db.transaction(async (tx) => {
    const now = new Date();
    const { answer } = leaving;
    const locked = answer
      ? await lockOpenAttemptWithSlots(tx, studentId)
      : { attempt: await lockOpenAttempt(tx, studentId), slots: [] };
    if (locked?.attempt) await refuseChangeWhilePaused(tx, locked.attempt);
    const attempt = locked?.attempt && (await closeIfOverdue(tx, locked.attempt, now));
    if (!attempt || attempt.submittedAt) return { submitted: attempt };
    // The answer first, by the rules of saving one; refused (its time was up), it does not stop the move. A leave
    // refused below takes its answer back with it (an outside attack saw a 409 keep the answer it carried).
    const slot = answer && locked?.slots.find((candidate) => candidate.questionId === answer.questionId);
    const refused = answer && (await applyAnswer(tx, attempt, slot, answer, now));
    const times = sectionTimes(attempt);
    if (times.length === 0) throw new HttpError(409, "This quiz is not timed per section: it has no section to leave.");
    if (leaving.sectionFirst > attempt.sectionFirst) throw new HttpError(409, "That section is not open yet.");
    // A section already left (a request sent again, the page and the sweep both) is answered as it stands.
    if (leaving.sectionFirst < attempt.sectionFirst) return { attempt, refused };
    if (attempt.sectionEnd >= attempt.totalQuestions) {
      throw new HttpError(409, "This is the last section: submit the quiz to finish.");
    }
    const next = nextSectionClock(attempt, times, attempt.deadlineAt, now);
    if (next === "over") {
      // Every later section's time is over too (a drive's close that ends attempts): the attempt is done.
      return { submitted: (await scoreAndClose(tx, attempt.id, now)) ?? attempt };
    }
    await moveToSection(tx, attempt, next, times);
    return { attempt, refused };
  });
  if (!moved.attempt) {
    const [latest] = moved.submitted ? [moved.submitted] : await attemptsOf(db, studentId);
    if (!latest?.submittedAt) throw new HttpError(409, "You have no quiz in progress.");
    return { status: "submitted", attemptId: latest.id, resultId: latest.id };
  }
  const { attempt, refused } = moved;
  const questions = await visibleQuestions(db, attempt, await servedRefs(db, attempt.id), new Date());
  const state = await inProgressState(db, attempt, questions);
  return refused ? { ...state, refused } : state;
}

/**
 * POST /api/quiz/submit: applies the answers in the body under the same rules as saving one (the body's answer
 * replaces a saved one while its question is still open; the first answer per question in the body wins),
 * scores and closes the attempt. Every answer not taken is named with the reason. Submitting again returns the
 * same result and refuses the body's answers.
 */
export async function submitAttempt(
  db: Database,
  studentId: string,
  answers: Answer[],
): Promise<{ resultId: string; refused: RefusedAnswer[] }> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const refused: RefusedAnswer[] = [];
    const refuseAll = (reason: string) => {
      for (const answer of answers) refused.push({ questionId: answer.questionId, reason });
    };
    const locked = await lockOpenAttemptWithSlots(tx, studentId);
    const open = locked?.attempt;
    if (!open) {
      const [latest] = await attemptsOf(tx, studentId);
      if (!latest?.submittedAt) throw new HttpError(409, "You have not started the quiz yet.");
      refuseAll("The quiz was already submitted.");
      return { resultId: latest.id, refused };
    }
    await refuseChangeWhilePaused(tx, open);
    const attempt = await closeIfOverdue(tx, open, now);
    if (attempt.submittedAt) {
      refuseAll("Time was up: the quiz had already been submitted.");
      return { resultId: attempt.id, refused };
    }
    const slots = locked.slots;
    const seen = new Set<string>();
    for (const answer of answers) {
      if (seen.has(answer.questionId)) {
        refused.push({ questionId: answer.questionId, reason: "Another answer to this question came first." });
        continue;
      }
      seen.add(answer.questionId);
      const slot = slots.find((candidate) => candidate.questionId === answer.questionId);
      const refusal = await applyAnswer(tx, attempt, slot, answer, now);
      if (refusal) refused.push({ questionId: answer.questionId, reason: refusal });
    }
    await scoreAndClose(tx, attempt.id, now);
    return { resultId: attempt.id, refused };
  });
}

/**
 * GET /api/quiz/result/{id}: the student's own result (another student's is "not found"). A secure test's score
 * waits for its drive to release results, and per-question ticks show only as the review policy allows: never
 * under "score only", and under "ticks after close" (or on a secure test) only once no attempt of the drive can
 * still take an answer, so a student cannot learn the key while others still sit the test (decision 024).
 */
export async function resultOf(db: Database, studentId: string, resultId: string): Promise<QuizResult> {
  // One read in the common case (a submitted attempt); an attempt closed just now has its rows read again.
  const view = await resultView(db, studentId, resultId);
  if (!view) throw new HttpError(404, "Result not found.");
  const { context } = view;
  const attempt = await settled(db, view.attempt);
  if (!attempt.submittedAt || attempt.score === null) {
    throw new HttpError(409, "This quiz is still in progress; submit it to see your score.");
  }
  const releaseAt = context.releaseAt === null ? null : new Date(context.releaseAt);
  const released = releaseAt !== null && releaseAt.getTime() <= Date.now();
  const waits = waitsForRelease(attempt.secure, attempt.reviewPolicy);
  if (waits.score && !released) {
    return {
      status: "pending",
      resultId: attempt.id,
      testName: context.testName,
      driveName: context.driveName,
      organisation: context.organisation,
      releasesAt: releaseAt?.toISOString() ?? null,
      heldForPublishing: context.holdResults,
      timeZone: context.timeZone,
    };
  }
  const policy = attempt.reviewPolicy;
  const ticksShown = policy !== "score_only" && (!waits.ticks || released);
  // The student's own choices come with the ticks; the right options only once the drive has released, by the
  // rule that releases a secure drive's scores, so no attempt can still use them (decision 026).
  const rightShown = ticksShown && (!waits.rightAnswers || released);
  const rows = !ticksShown ? [] : attempt === view.attempt ? view.rows : await resultRows(db, attempt.id);
  const questions = await servedQuizQuestions(db, rows);
  const marks = attempt.marks ?? attempt.score;
  const percentage = scorePercentage(marks, attempt.totalQuestions);
  return {
    status: "released",
    resultId: attempt.id,
    score: attempt.score,
    totalQuestions: attempt.totalQuestions,
    marks,
    percentage,
    passMark: attempt.passMark,
    passed: attempt.passed,
    sections: sectionResultsOf(attempt.sections, attempt.sectionMarks),
    certificate: attempt.passed === true && context.identityChecked,
    testName: context.testName,
    driveName: context.driveName,
    organisation: context.organisation,
    review: {
      policy,
      ticksShown,
      ticksFrom: !ticksShown && policy === "ticks_after_close" ? (releaseAt?.toISOString() ?? null) : null,
      rightShown,
      rightFrom: ticksShown && !rightShown ? (releaseAt?.toISOString() ?? null) : null,
      timeZone: context.timeZone,
    },
    answers: rows.map((row, index) => {
      const question = questions[index] as QuizQuestion;
      // Options as the student saw them, in their order.
      const htmlOf = (ids: string[]) =>
        question.options.filter((option) => ids.includes(option._id)).map((option) => option.html);
      return {
        questionId: row.questionId,
        isCorrect: row.isCorrect,
        answered: row.answered,
        mark: row.mark,
        question: { text: question.text, html: question.html },
        chosen: htmlOf(row.chosenIds),
        right: rightShown ? htmlOf(row.rightIds) : [],
      };
    }),
  };
}

/**
 * Closes every attempt whose time ran out, scoring what was saved, and moves an attempt timed per section past a
 * section whose time ran out; returns how many it closed. Anyone's, or only those `of` a student or a drive; at
 * `at` (now by default), never a paused drive's (decision 039). Safe to run on
 * several instances at once. Each attempt is closed in a savepoint of its own, so one that cannot be scored is
 * reported to `failed` and the others are closed all the same (once, a stored mark the database could not hold
 * failed every sweep on every drive).
 */
export async function closeOverdueAttempts(
  db: Executor,
  failed: (attemptId: string, error: unknown) => void = () => {},
  of?: AttemptsOf,
  at?: Date,
): Promise<number> {
  return db.transaction(async (tx) => {
    // The sweep takes 100 at a time; one student's or one drive's attempts are taken all at once.
    const overdue = await overdueAttempts(tx, DEADLINE_GRACE_SECONDS, of ? 100_000 : 100, of, at);
    const now = at ?? new Date();
    let closed = 0;
    for (const attempt of overdue) {
      try {
        // An attempt timed per section whose section ran out moves on to the next (closeIfOverdue).
        const settled = await tx.transaction((savepoint) => closeIfOverdue(savepoint, attempt, now));
        if (settled.submittedAt) closed++;
      } catch (error) {
        failed(attempt.id, error);
      }
    }
    return closed;
  });
}
