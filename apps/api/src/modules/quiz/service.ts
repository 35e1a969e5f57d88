// The quiz as the server holds it (design decisions 3–6): the server picks and remembers the questions, keeps
// the clock, saves each answer as it is given, refuses what arrives outside a question's window, and scores
// only the served questions, each once. Nothing here ever returns which option is correct.
import { randomInt } from "node:crypto";
import { DEADLINE_GRACE_SECONDS, SECONDS_PER_QUESTION } from "@trainwise/contract/constants";
import type { Answer, AttemptProgress, AttemptState } from "@trainwise/contract/quiz";
import type { Database, Executor } from "../../db/client.ts";
import { HttpError } from "../../plugins/errors.ts";
import {
  type AttemptRow,
  advanceIfAllowed,
  attemptsOf,
  insertAttempt,
  lockOpenAttempt,
  lockStudent,
  moveCurrentPosition,
  optionIdsByQuestion,
  overdueAttemptIds,
  randomQuestionIds,
  saveAnswerIfOpen,
  saveSelectedOption,
  scoreAndClose,
  servedQuestion,
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

/** Scores and closes the attempt if its time has run out; returns the attempt as it now is. */
async function closeIfOverdue(db: Executor, attempt: AttemptRow, now: Date): Promise<AttemptRow> {
  if (attempt.submittedAt) return attempt;
  const timeUp =
    readClock(attempt, new Date(now.getTime() - DEADLINE_GRACE_SECONDS * 1000)).position >= attempt.totalQuestions ||
    now.getTime() > attempt.deadlineAt.getTime() + DEADLINE_GRACE_SECONDS * 1000;
  if (!timeUp) return attempt;
  return (await scoreAndClose(db, attempt.id)) ?? attempt;
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

    const used = previous.length;
    if (used >= student.attemptsAllowed) {
      throw new HttpError(409, "You have already completed the quiz. Ask an admin if you need another attempt.");
    }
    const questionIds = await randomQuestionIds(tx, limit);
    if (questionIds.length === 0)
      throw new HttpError(409, "No quiz questions are available yet. Please try again later.");
    const optionIds = await optionIdsByQuestion(tx, questionIds);
    const attempt = await insertAttempt(tx, {
      studentId,
      secondsPerQuestion: Math.round(SECONDS_PER_QUESTION * student.timeMultiplier),
      served: questionIds.map((questionId) => ({ questionId, optionOrder: shuffled(optionIds.get(questionId) ?? []) })),
    });
    return { attempt, questions: await servedQuestions(tx, attempt.id) };
  });
}

async function stateOf(db: Executor, attempt: AttemptRow, now: Date): Promise<AttemptState> {
  if (attempt.submittedAt) return { status: "submitted", attemptId: attempt.id, resultId: attempt.id };
  const served = await servedQuestions(db, attempt.id);
  return {
    status: "in_progress",
    attemptId: attempt.id,
    totalQuestions: attempt.totalQuestions,
    ...progressOf(attempt, now),
    secondsPerQuestion: attempt.secondsPerQuestion,
    answers: served.flatMap((question) =>
      question.selectedOptionId ? [{ questionId: question.questionId, optionId: question.selectedOptionId }] : [],
    ),
  };
}

/** GET /api/quiz/attempt: where the student stands, for resuming after a refresh. */
export async function currentAttemptState(db: Database, studentId: string): Promise<AttemptState> {
  return db.transaction(async (tx) => {
    const [latest] = await attemptsOf(tx, studentId);
    if (!latest) throw new HttpError(404, "You have not started the quiz yet.");
    const locked = latest.submittedAt ? latest : await lockOpenAttempt(tx, studentId);
    const attempt = locked ? await closeIfOverdue(tx, locked, new Date()) : latest;
    return stateOf(tx, attempt, new Date());
  });
}

type Served = Pick<Awaited<ReturnType<typeof servedQuestions>>[number], "position" | "questionId" | "optionOrder">;

function progressOf(attempt: AttemptClock, now: Date): AttemptProgress {
  const clock = readClock(attempt, now);
  return { currentIndex: Math.min(clock.position, attempt.totalQuestions - 1), secondsLeft: clock.secondsLeft };
}

/** Saves one answer if it is valid and its question's window is open; returns why not otherwise. */
async function applyAnswer(
  db: Executor,
  attempt: AttemptRow,
  question: Served | undefined,
  answer: Answer,
  now: Date,
): Promise<string | undefined> {
  if (!question) return "That question is not part of your quiz.";
  if (!question.optionOrder.includes(answer.optionId)) return "That option does not belong to this question.";
  if (!acceptsAnswer(attempt, question.position, now)) {
    return question.position < readClock(attempt, now).position || question.position < attempt.currentPosition
      ? "Time is up for that question; its answer can no longer change."
      : "That question is not open yet.";
  }
  await saveSelectedOption(db, attempt.id, question.position, answer.optionId);
  if (question.position > attempt.currentPosition) {
    // The timer moved the attempt on while the student was away; record where it is now.
    const start = windowStart(attempt, question.position);
    await moveCurrentPosition(db, attempt.id, question.position, start);
    attempt.currentPosition = question.position;
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
function clockOf(row: {
  current_position: number;
  current_started_at: Date | string;
  seconds_per_question: number;
  total_questions: number;
}) {
  return {
    currentPosition: Number(row.current_position),
    currentStartedAt: new Date(row.current_started_at),
    secondsPerQuestion: Number(row.seconds_per_question),
    totalQuestions: Number(row.total_questions),
  };
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
    const question = await servedQuestion(tx, attempt.id, answer.questionId);
    const refusal = await applyAnswer(tx, attempt, question, answer, now);
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
      const served = await servedQuestions(tx, attempt.id);
      const seen = new Set<string>();
      for (const answer of answers) {
        if (seen.has(answer.questionId)) continue;
        seen.add(answer.questionId);
        const question = served.find((candidate) => candidate.questionId === answer.questionId);
        // An answer already saved stands; the submit body only fills gaps.
        if (question?.selectedOptionId) continue;
        await applyAnswer(tx, attempt, question, answer, now);
      }
      await scoreAndClose(tx, attempt.id);
    }
    return attempt.id;
  });
}

/** GET /api/quiz/result/{id}: the student's own result; another student's is "not found". */
export async function resultOf(db: Database, studentId: string, resultId: string) {
  return db.transaction(async (tx) => {
    const attempts = await attemptsOf(tx, studentId);
    const found = attempts.find((attempt) => attempt.id === resultId);
    if (!found) throw new HttpError(404, "Result not found.");
    const locked = found.submittedAt ? found : await lockOpenAttempt(tx, studentId);
    const attempt = locked ? await closeIfOverdue(tx, locked, new Date()) : found;
    if (!attempt.submittedAt || attempt.score === null) {
      throw new HttpError(409, "This quiz is still in progress; submit it to see your score.");
    }
    const served = await servedQuestions(tx, attempt.id);
    return {
      resultId: attempt.id,
      score: attempt.score,
      totalQuestions: attempt.totalQuestions,
      answers: served.map((question) => ({
        questionId: question.questionId,
        isCorrect: question.isCorrect === true,
        question: { text: question.text },
      })),
    };
  });
}

/** Closes every attempt whose time ran out, scoring what was saved. Safe to run on several instances at once. */
export async function closeOverdueAttempts(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    const ids = await overdueAttemptIds(tx, DEADLINE_GRACE_SECONDS);
    for (const id of ids) await scoreAndClose(tx, id);
    return ids.length;
  });
}
