// GET /api/quiz/questions, POST /api/quiz/submit, GET /api/quiz/result/{id} (student).
import { z } from "zod";
import { idSchema, listOf } from "./common.ts";
import { QUIZ_QUESTION_LIMIT } from "./constants.ts";
import {
  ATTEMPT_ENDINGS,
  MAX_TEST_QUESTIONS,
  REVIEW_POLICIES,
  type SectionMarks,
  type SectionResult,
  type ServedSection,
  sectionResultSchema,
  TIMING_MODES,
  testOutlineSchema,
} from "./drives.ts";
import { MAX_OPTIONS, questionTypeSchema, richTextHtml } from "./questions.ts";

/**
 * The original `limit` is accepted and checked, but the test decides how many questions a quiz has: a client can
 * never make its quiz shorter.
 */
export const quizQuestionsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int({ error: "limit must be a whole number" })
    .min(1, { error: "limit must be at least 1" })
    .max(QUIZ_QUESTION_LIMIT, { error: `limit must be at most ${QUIZ_QUESTION_LIMIT}` })
    .default(QUIZ_QUESTION_LIMIT),
});

/**
 * A question as a student sees it: options carry no correctness field, ever. `text` is the Markdown source, `html`
 * the same rendered and sanitised on the server (block content for the question, inline for an option).
 */
export const quizQuestionSchema = z.object({
  _id: idSchema,
  text: z.string(),
  html: richTextHtml,
  category: z.string(),
  difficulty: z.string(),
  /** How it is answered: one option (radio buttons), several (checkboxes), or true/false; absent: one option. */
  type: questionTypeSchema.optional(),
  options: z.array(z.object({ _id: idSchema, text: z.string(), html: richTextHtml }).strict()),
});
export type QuizQuestion = z.infer<typeof quizQuestionSchema>;
export const quizQuestionListSchema = listOf(quizQuestionSchema);

/**
 * One answer. The original shape names one option (`optionId`); a multiple-answer question's choices travel in
 * `optionIds` instead. Exactly one of the two is sent; one `optionId` on a multiple-answer question chooses that
 * option alone.
 */
export const answerSchema = z
  .object({
    questionId: idSchema,
    optionId: idSchema.optional(),
    optionIds: z
      .array(idSchema, { error: "optionIds must be a list" })
      .min(1, { error: "Choose at least one option" })
      .max(MAX_OPTIONS, { error: `optionIds can name at most ${MAX_OPTIONS} options` })
      .optional(),
  })
  .refine((answer) => (answer.optionId === undefined) !== (answer.optionIds === undefined), {
    error: "Send either optionId or optionIds",
    path: ["optionId"],
  });
export type Answer = z.infer<typeof answerSchema>;

/** The options an answer chooses, without repeats. */
export function chosenOptions(answer: Answer): string[] {
  return [...new Set(answer.optionIds ?? (answer.optionId ? [answer.optionId] : []))];
}

export const quizSubmitSchema = z.object({
  answers: z.array(answerSchema, { error: "answers must be a list" }).max(200, {
    error: "Too many answers",
  }),
});
export type QuizSubmit = z.infer<typeof quizSubmitSchema>;
/** An answer the server did not take, and why: nothing a student sends is dropped without saying so. */
export const refusedAnswerSchema = z.object({ questionId: z.string(), reason: z.string() });
export type RefusedAnswer = z.infer<typeof refusedAnswerSchema>;
export const quizSubmitResponseSchema = z.object({ resultId: idSchema, refused: z.array(refusedAnswerSchema) });

/**
 * What passing took, as a result says it after "Passed" or "Not passed": the pass mark, every section's cut-off, or
 * both ("" when neither: then there is no pass or fail).
 */
export function passRule(passMark: number | null, sections: readonly SectionResult[]): string {
  const cutOffs = sections.some((section) => section.cutOff !== null);
  const mark = passMark === null ? null : `pass mark ${passMark}%`;
  if (!cutOffs) return mark ?? "";
  return mark ? `${mark} and every section's cut-off` : "every section's cut-off";
}

/** A section's cut-off and whether it was met ("cut-off 50% met"), or "" when it has none. */
export function cutOffText(section: SectionResult): string {
  return section.cutOff === null ? "" : `cut-off ${section.cutOff}% ${section.metCutOff ? "met" : "not met"}`;
}

/**
 * Each section's part of a scored attempt, from the sections it was served (`attempts.sections`) and its marks in
 * each (`attempts.section_marks`): what the result, the admin's tables and the exports all show. Empty without
 * sections.
 */
export function sectionResultsOf(
  sections: readonly ServedSection[] | null,
  marks: readonly SectionMarks[] | null,
): SectionResult[] {
  return (sections ?? []).map(({ name, questionCount, cutOff }, index) => {
    const part = marks?.[index] ?? { score: 0, marks: 0, metCutOff: null };
    const percentage = scorePercentage(part.marks, questionCount);
    return { name, questionCount, score: part.score, marks: part.marks, percentage, cutOff, metCutOff: part.metCutOff };
  });
}

/** A result whose score the student may see: at submit on a practice test, on release on a secure one. */
export const releasedResultSchema = z.object({
  status: z.literal("released"),
  resultId: idSchema,
  score: z.number().int(),
  totalQuestions: z.number().int(),
  /** The score less negative marking; the percentage and pass/fail are computed from it. */
  marks: z.number(),
  percentage: z.string(),
  passMark: z.number().int().nullable(),
  passed: z.boolean().nullable(),
  /** Each section's part, in order (empty: the test has no sections). Pass means every cut-off and the pass mark. */
  sections: z.array(sectionResultSchema),
  /** A certificate can be downloaded: passed, on a drive whose roster (candidate list) admitted the student. */
  certificate: z.boolean(),
  testName: z.string(),
  /** The drive the test was sat in, and the college or company it was for ("" when none is named). */
  driveName: z.string(),
  organisation: z.string(),
  /** What the test shows after submitting; `answers` is empty while per-question ticks are not shown. */
  review: z.object({
    policy: z.enum(REVIEW_POLICIES),
    ticksShown: z.boolean(),
    /** Under "ticks after close": when the drive closes (null: when an admin closes it). */
    ticksFrom: z.iso.datetime().nullable(),
    /** The right answers are shown beside the ticks: the drive has closed and no attempt can still answer. */
    rightShown: z.boolean(),
    /** While ticks show without them: when the right answers come (null: once an admin closes the drive). */
    rightFrom: z.iso.datetime().nullable(),
    /** The drive's time zone, to say those times in. */
    timeZone: z.string(),
  }),
  answers: z.array(
    z.object({
      questionId: idSchema,
      isCorrect: z.boolean(),
      /** False when the student gave no answer (the clock ran out, or they moved on): not a wrong answer. */
      answered: z.boolean(),
      /** The question's mark, 0 to 1; between the two only for a partly right multiple answer. */
      mark: z.number(),
      question: z.object({ text: z.string(), html: richTextHtml }),
      /** The options the student chose, rendered (inline HTML), shown with the ticks. */
      chosen: z.array(richTextHtml),
      /**
       * The right options, rendered, once the drive has released what hides its key (`review.rightShown`; empty
       * before): then nobody can still use them (docs/decisions/026).
       */
      right: z.array(richTextHtml),
    }),
  ),
});
/**
 * A secure test's result before its drive releases results (decision 024): submitted and safe, but no score,
 * pass/fail or certificate yet, since a score shown at once tells throw-away registrations the key.
 */
export const pendingResultSchema = z.object({
  status: z.literal("pending"),
  resultId: idSchema,
  testName: z.string(),
  driveName: z.string(),
  organisation: z.string(),
  /** When results are released at the earliest (null: once an admin closes the drive, or publishes them). */
  releasesAt: z.iso.datetime().nullable(),
  /** The drive holds its results until an admin publishes them (after everyone's time is up). */
  heldForPublishing: z.boolean(),
  /** The drive's time zone, to say that time in. */
  timeZone: z.string(),
});
export const quizResultSchema = z.discriminatedUnion("status", [releasedResultSchema, pendingResultSchema]);
export type QuizResult = z.infer<typeof quizResultSchema>;
export type ReleasedResult = z.infer<typeof releasedResultSchema>;

/**
 * What a registered student is about to sit, before any clock runs (GET /api/quiz/intro): the test's rules, and
 * whether an attempt is running (resume it), none has started, or none is left (`resultId`: the latest result).
 */
export const quizIntroSchema = testOutlineSchema.extend({
  status: z.enum(["not_started", "in_progress", "completed"]),
  driveName: z.string(),
  organisation: z.string(),
  /** The test shows these rules and a Start button before the clock starts (a test's setting). */
  rulesFirst: z.boolean(),
  attemptsUsed: z.number().int(),
  /** The drive's focus-loss limit (decision 035): times the student may leave the window; null: none. */
  focusLossLimit: z.number().int().nullable(),
  /** Reaching the limit submits the attempt. */
  focusLossEndsAttempt: z.boolean(),
  /**
   * Disconnect credits (decision 040): silence longer than this many seconds is given back, up to
   * `disconnectCreditMinutes` in all, and the page sends a heartbeat; null: no credits.
   */
  disconnectGraceSeconds: z.number().int().nullable(),
  disconnectCreditMinutes: z.number().int().nullable(),
  /** The drive asks for full screen, and each exit is counted. */
  fullScreen: z.boolean(),
  /** Copying, pasting and the context menu are off on the quiz page. */
  blockCopyPaste: z.boolean(),
  /** The latest submitted attempt's result. */
  resultId: idSchema.nullable(),
  /** Who ended that attempt before the student or its time did (decision 035); null otherwise. */
  endedBy: z.enum(ATTEMPT_ENDINGS).nullable(),
  /**
   * Why Start would be refused now, for a student who has not started: the drive is not open, or its late-entry
   * cut-off has passed (decision 035); null: it would not.
   */
  startRefusal: z.string().nullable(),
});
export type QuizIntro = z.infer<typeof quizIntroSchema>;

/** An attempt's sections in order, each from its first position (empty: the test has no sections). */
export const attemptSectionsSchema = z.array(
  z.object({ name: z.string(), firstPosition: z.number().int(), questionCount: z.number().int() }),
);
export type AttemptSections = z.infer<typeof attemptSectionsSchema>;

/**
 * Why the answer sent with a move (Next, leaving a section) was not taken, though the move was made: its time was
 * up, or its section closed. Absent when it was taken, or none was sent.
 */
const carriedAnswerRefusalSchema = z.string().optional();

/** Where a student stands in their attempt: lets a refreshed page resume the same question and time. */
export const attemptStateSchema = z.discriminatedUnion("status", [
  z.object({
    status: z.literal("in_progress"),
    attemptId: idSchema,
    testName: z.string(),
    timingMode: z.enum(TIMING_MODES),
    /** Per-question windows apply: only the open question is sent, in `question`. */
    paced: z.boolean(),
    totalQuestions: z.number().int(),
    currentIndex: z.number().int(),
    /** Left on the open question's window (paced), or on the open section's clock, or on the whole quiz. */
    secondsLeft: z.number().int(),
    /**
     * Seconds invigilators have added to the attempt (decision 037): more than the page last heard means its own
     * countdown's zero is not the end (absent where the answer did not read it, as leaving a section).
     */
    addedSeconds: z.number().int().optional(),
    /**
     * Seconds lost connections got back (decision 040), as addedSeconds: more than the page last heard means its
     * zero is not the end.
     */
    creditedSeconds: z.number().optional(),
    /**
     * When the drive was paused (decision 039): the clock stands at that moment, `secondsLeft` is read there, and
     * nothing changes until it is resumed. Null or absent: the clock runs.
     */
    pausedAt: z.iso.datetime().nullable().optional(),
    secondsPerQuestion: z.number().int(),
    sections: attemptSectionsSchema,
    /**
     * The positions open to the student now, from `sectionFirst` up to before `sectionEnd`: the open section's on a
     * test timed per section (every earlier section is closed for good), else 0 and `totalQuestions`.
     */
    sectionFirst: z.number().int(),
    sectionEnd: z.number().int(),
    answers: z.array(answerSchema),
    /** The palette (attempts timed as a whole): the questions the student has opened, by id. */
    visited: z.array(idSchema),
    /** The questions the student has marked for review, by id. */
    marked: z.array(idSchema),
    /** The open question (paced attempts). */
    question: quizQuestionSchema.nullable(),
    /** The questions the student may move between (attempts not paced), from position `questionsFrom`. */
    questions: z.array(quizQuestionSchema),
    /**
     * The position of `questions[0]`: on a test timed per section, the open section's first (a closed section's
     * questions are not sent again, and those of it the student never reached are never sent); absent: 0.
     */
    questionsFrom: z.number().int().optional(),
    refused: carriedAnswerRefusalSchema,
  }),
  z.object({ status: z.literal("submitted"), attemptId: idSchema, resultId: idSchema }),
]);
export type AttemptState = z.infer<typeof attemptStateSchema>;

export const saveAnswerSchema = answerSchema;
/** A question's place in an attempt, from `lowest` (0 is the first question). */
function positionSchema(lowest: number) {
  return (
    z
      .number({ error: "position must be a number" })
      .int({ error: "position must be a whole number" })
      .min(lowest, { error: `position must be at least ${lowest}` })
      // No test has more questions than this, nor a submission more answers.
      .max(MAX_TEST_QUESTIONS, { error: `position must be at most ${MAX_TEST_QUESTIONS}` })
  );
}
export const advanceSchema = z.object({
  // Next moves on to a question after the first.
  position: positionSchema(1),
  /** The answer to the question being left, saved in the same request. */
  answer: answerSchema.optional(),
});
/**
 * What the palette of an attempt timed as a whole changes on one question: opening it (every change does), marking
 * it for review or not, or clearing its answer. A paced attempt has no palette: its questions come one way, in turn.
 */
export const paletteChangeSchema = z.object({
  position: positionSchema(0),
  marked: z.boolean({ error: "marked must be true or false" }).optional(),
  clear: z.literal(true, { error: "clear can only be true" }).optional(),
});
export type PaletteChange = z.infer<typeof paletteChangeSchema>;
/**
 * Leave the open section of a test timed per section (the student's "Leave section", or its clock running out):
 * `sectionFirst` names the section being left, so that a request sent twice never closes the next one too.
 */
export const leaveSectionSchema = z.object({
  sectionFirst: positionSchema(0),
  /** The answer to the question on screen, saved first under the section's rules (as Next carries it). */
  answer: answerSchema.optional(),
});
export type LeaveSection = z.infer<typeof leaveSectionSchema>;
/** The quiz page lost focus or visibility while this question was open. */
export const focusLossSchema = z.object({ position: positionSchema(0) });

/** What the page is told after reporting that it lost focus: the count so far and the drive's rule (decision 035). */
export const focusLossNotedSchema = z.object({
  /** Times this attempt's page lost focus or visibility, this one included. */
  focusLosses: z.number().int(),
  /** The drive's limit; null: none. */
  limit: z.number().int().nullable(),
  /** Reaching the limit submits the attempt. */
  endsAttempt: z.boolean(),
  /** Set when this report reached the limit and the attempt was submitted: its result. */
  resultId: idSchema.nullable(),
});
export type FocusLossNoted = z.infer<typeof focusLossNotedSchema>;

/**
 * What a heartbeat is told (decision 040): the seconds it just got back for a lost connection (0: none), and what
 * the attempt has got back in all, which tells a page that whatever ended its silence (a stream reconnecting, an
 * answer sent again) got time back, to read its clock again.
 */
export const heartbeatReplySchema = z.object({
  creditedSeconds: z.number().nonnegative(),
  creditedInAll: z.number().nonnegative(),
});
export type HeartbeatReply = z.infer<typeof heartbeatReplySchema>;

/** The answer to saving an answer or moving on: where the attempt now stands on the server's clock. */
export const attemptProgressSchema = z.object({
  currentIndex: z.number().int(),
  secondsLeft: z.number().int(),
  /** After Next in a paced attempt: the question now open. */
  question: quizQuestionSchema.nullable().optional(),
  refused: carriedAnswerRefusalSchema,
});
export type AttemptProgress = z.infer<typeof attemptProgressSchema>;

/** Score as a percentage with two decimals, the same on the result page, the admin list and CSV. */
export function scorePercentage(score: number, totalQuestions: number): string {
  return totalQuestions > 0 ? ((score / totalQuestions) * 100).toFixed(2) : "0.00";
}
