// The quiz as the server holds it (design decisions 3–6): the server picks and remembers the questions, keeps
// the clock, saves each answer as it is given, refuses what arrives outside a question's window, and scores
// only the served questions, each once. Nothing here ever returns which option is correct.
import { randomInt } from "node:crypto";
import { DEADLINE_GRACE_SECONDS, SECONDS_PER_QUESTION } from "@trainwise/contract/constants";
import type { Answer, AttemptProgress, AttemptState } from "@trainwise/contract/quiz";
import type { Database, Executor } from "../../db/client.ts";
import { HttpError } from "../../plugins/errors.ts";
import {
  type AnswerSlot,
  type AttemptRow,
  advanceIfAllowed,
  answerSlots,
  attemptsOf,
  type ClockRow,
  insertAttempt,
  lockOpenAttempt,
  lockStudent,
  moveCurrentPosition,
  overdueAttemptIds,
  randomQuestions,
  resultRows,
  saveAnswerIfOpen,
  saveSelectedOption,
  scoreAndClose,
  servedQuestions,
} from "./repository.ts";
import { type AttemptClock, acceptsAnswer, readClock, windowStart } from "./timing.ts";

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = randomInt(index + 1);
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

function isOverdue(attempt: AttemptRow, now: Date): boolean {
  if (attempt.submittedAt) return false;
  return (
    readClock(attempt, new Date(now.getTime() - DEADLINE_GRACE_SECONDS * 1000)).position >= attempt.totalQuestions ||
    now.getTime() > attempt.deadlineAt.getTime() + DEADLINE_GRACE_SECONDS * 1000
  );
}

/** Scores and closes the attempt if its time has run out; returns the attempt as it now is. */
async function closeIfOverdue(db: Executor, attempt: AttemptRow, now: Date): Promise<AttemptRow> {
  if (!isOverdue(attempt, now)) return attempt;
  return (await scoreAndClose(db, attempt.id, now)) ?? attempt;
}

/**
 * The attempt as it stands, for reading: an attempt whose time has run out is closed first, under a lock.
 * Anything else is read as it is, without a transaction.
 */
async function settled(db: Database, attempt: AttemptRow): Promise<AttemptRow> {
  if (!isOverdue(attempt, new Date())) return attempt;
  return db.transaction(async (tx) => {
    const open = await lockOpenAttempt(tx, attempt.studentId);
    if (open?.id === attempt.id) return closeIfOverdue(tx, open, new Date());
    // Closed meanwhile, by the sweep or a submit: read it as it is now.
    const current = (await attemptsOf(tx, attempt.studentId)).find((row) => row.id === attempt.id);
    return current ?? attempt;
  });
}

/** GET /api/quiz/questions: the student's open attempt, or a new one with `limit` random questions. */
export async function startOrResumeAttempt(db: Database, studentId: string, limit: number) {
  return db.transaction(async (tx) => {
    const student = await lockStudent(tx, studentId);
    if (!student) throw new HttpError(401, "Your registration was not found. Please register again.");
    const now = new Date();
    const previous = await attemptsOf(tx, studentId);
    const open = previous.find((attempt) => !attempt.submittedAt);
    const current = open ? await closeIfOverdue(tx, open, now) : undefined;
    if (current && !current.submittedAt) return { attempt: current, questions: await servedQuestions(tx, current.id) };

    if (previous.length >= student.attemptsAllowed) {
      throw new HttpError(409, "You have already completed the quiz. Ask an admin if you need another attempt.");
    }
    const picked = await randomQuestions(tx, limit);
    if (picked.length === 0) throw new HttpError(409, "No quiz questions are available yet. Please try again later.");
    const served = picked.map((question) => ({ ...question, options: shuffled(question.options) }));
    const attempt = await insertAttempt(tx, {
      studentId,
      now,
      secondsPerQuestion: Math.round(SECONDS_PER_QUESTION * student.timeMultiplier),
      served,
    });
    return { attempt, questions: served };
  });
}

/** GET /api/quiz/attempt: where the student stands, for resuming after a refresh. */
export async function currentAttemptState(db: Database, studentId: string): Promise<AttemptState> {
  const [latest] = await attemptsOf(db, studentId);
  if (!latest) throw new HttpError(404, "You have not started the quiz yet.");
  const attempt = await settled(db, latest);
  if (attempt.submittedAt) return { status: "submitted", attemptId: attempt.id, resultId: attempt.id };
  const slots = await answerSlots(db, attempt.id);
  return {
    status: "in_progress",
    attemptId: attempt.id,
    totalQuestions: attempt.totalQuestions,
    ...progressOf(attempt, new Date()),
    secondsPerQuestion: attempt.secondsPerQuestion,
    answers: slots.flatMap((slot) =>
      slot.selectedOptionId ? [{ questionId: slot.questionId, optionId: slot.selectedOptionId }] : [],
    ),
  };
}

function progressOf(attempt: AttemptClock, now: Date): AttemptProgress {
  const clock = readClock(attempt, now);
  return { currentIndex: Math.min(clock.position, attempt.totalQuestions - 1), secondsLeft: clock.secondsLeft };
}

/** Saves one answer if it is valid and its question's window is open; returns why not otherwise. */
async function applyAnswer(
  db: Executor,
  attempt: AttemptRow,
  slot: AnswerSlot | undefined,
  answer: Answer,
  now: Date,
): Promise<string | undefined> {
  if (!slot) return "That question is not part of your quiz.";
  if (!slot.optionOrder.includes(answer.optionId)) return "That option does not belong to this question.";
  if (!acceptsAnswer(attempt, slot.position, now)) {
    return slot.position < readClock(attempt, now).position || slot.position < attempt.currentPosition
      ? "Time is up for that question; its answer can no longer change."
      : "That question is not open yet.";
  }
  await saveSelectedOption(db, { attemptId: attempt.id, position: slot.position, optionId: answer.optionId, now });
  if (slot.position > attempt.currentPosition) {
    // The timer moved the attempt on while the student was away; record where it is now.
    const start = windowStart(attempt, slot.position);
    await moveCurrentPosition(db, attempt.id, slot.position, start);
    attempt.currentPosition = slot.position;
    attempt.currentStartedAt = start;
  }
  return undefined;
}

async function lockOpenAttemptOrRefuse(db: Executor, studentId: string, now: Date): Promise<AttemptRow> {
  const open = await lockOpenAttempt(db, studentId);
  if (!open) throw new HttpError(409, "You have no quiz in progress.");
  const attempt = await closeIfOverdue(db, open, now);
  if (attempt.submittedAt) throw new HttpError(409, "Time is up: your quiz has been submitted.");
  return attempt;
}

/** The clock of a row from the one-statement paths, in the shape readClock takes. */
function clockOf(row: ClockRow): AttemptClock {
  return { ...row, currentStartedAt: new Date(row.currentStartedAt) };
}

/** PUT /api/quiz/answers: saves one answer as the student gives it. */
export async function saveAnswer(db: Database, studentId: string, answer: Answer): Promise<AttemptProgress> {
  const now = new Date();
  // The common case in one statement; anything it refuses goes through the checks below for the exact reason.
  const saved = await saveAnswerIfOpen(db, { studentId, ...answer, now, graceSeconds: DEADLINE_GRACE_SECONDS });
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

/** POST /api/quiz/next: Next pressed (or the timer ran out) on the question before `position`. */
export async function advanceAttempt(db: Database, studentId: string, position: number): Promise<AttemptProgress> {
  const moved = await advanceIfAllowed(db, { studentId, position, now: new Date() });
  if (moved) return progressOf(clockOf(moved), new Date());
  return db.transaction(async (tx) => {
    const now = new Date();
    const attempt = await lockOpenAttemptOrRefuse(tx, studentId, now);
    const clock = readClock(attempt, now);
    if (position > clock.position + 1 || position >= attempt.totalQuestions) {
      throw new HttpError(409, "You can only move on to the next question.");
    }
    // A position the clock has already reached needs no change: the timer got there first.
    if (position === clock.position + 1) {
      await moveCurrentPosition(tx, attempt.id, position, now);
      attempt.currentPosition = position;
      attempt.currentStartedAt = now;
    }
    return progressOf(attempt, now);
  });
}

/**
 * POST /api/quiz/submit: applies any answers not saved yet (under the same rules; invalid or late ones are
 * ignored, first answer per question wins), scores and closes the attempt. Submitting again returns the same result.
 */
export async function submitAttempt(db: Database, studentId: string, answers: Answer[]): Promise<string> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const open = await lockOpenAttempt(tx, studentId);
    if (!open) {
      const [latest] = await attemptsOf(tx, studentId);
      if (latest?.submittedAt) return latest.id;
      throw new HttpError(409, "You have not started the quiz yet.");
    }
    const attempt = await closeIfOverdue(tx, open, now);
    if (!attempt.submittedAt) {
      const slots = answers.length > 0 ? await answerSlots(tx, attempt.id) : [];
      const seen = new Set<string>();
      for (const answer of answers) {
        if (seen.has(answer.questionId)) continue;
        seen.add(answer.questionId);
        const slot = slots.find((candidate) => candidate.questionId === answer.questionId);
        // An answer already saved stands; the submit body only fills gaps.
        if (slot?.selectedOptionId) continue;
        await applyAnswer(tx, attempt, slot, answer, now);
      }
      await scoreAndClose(tx, attempt.id, now);
    }
    return attempt.id;
  });
}

/** GET /api/quiz/result/{id}: the student's own result; another student's is "not found". */
export async function resultOf(db: Database, studentId: string, resultId: string) {
  const found = (await attemptsOf(db, studentId)).find((attempt) => attempt.id === resultId);
  if (!found) throw new HttpError(404, "Result not found.");
  const attempt = await settled(db, found);
  if (!attempt.submittedAt || attempt.score === null) {
    throw new HttpError(409, "This quiz is still in progress; submit it to see your score.");
  }
  const rows = await resultRows(db, attempt.id);
  return {
    resultId: attempt.id,
    score: attempt.score,
    totalQuestions: attempt.totalQuestions,
    answers: rows.map((row) => ({
      questionId: row.questionId,
      isCorrect: row.isCorrect,
      question: { text: row.text },
    })),
  };
}

/** Closes every attempt whose time ran out, scoring what was saved. Safe to run on several instances at once. */
export async function closeOverdueAttempts(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    const ids = await overdueAttemptIds(tx, DEADLINE_GRACE_SECONDS);
    const now = new Date();
    for (const id of ids) await scoreAndClose(tx, id, now);
    return ids.length;
  });
}
