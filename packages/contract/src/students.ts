// GET /api/students and GET /api/students/results/all (admin).
import { z } from "zod";
import { answerTimingSchema } from "./answer-timing.ts";
import { studentDetailsSchema } from "./auth.ts";
import { idSchema, listOf, pagingQuerySchema, searchText } from "./common.ts";
import { richTextHtml } from "./questions.ts";

export const studentSchema = z.object({
  _id: idSchema,
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  usnNo: z.string(),
  college: z.string(),
  course: z.string(),
  group: z.string(),
  year: z.string(),
  createdAt: z.iso.datetime(),
});
export type Student = z.infer<typeof studentSchema>;
export const studentListSchema = listOf(studentSchema);

/** A dashboard result row: the original `_id`, `studentName`, `score`, plus the total it was out of. */
export const resultRowSchema = z.object({
  _id: idSchema,
  studentName: z.string(),
  score: z.number().int(),
  totalQuestions: z.number().int(),
  submittedAt: z.iso.datetime(),
});
export type ResultRow = z.infer<typeof resultRowSchema>;
export const resultRowListSchema = listOf(resultRowSchema);

/**
 * PATCH /api/students/:id: an admin corrects a candidate's details, any of them, by the registration form's rules.
 * Email and USN stay unique within the drive.
 */
export const studentCorrectionSchema = studentDetailsSchema
  .partial()
  .refine((details) => Object.values(details).some((value) => value !== undefined), {
    error: "Send at least one detail to correct.",
  });
export type StudentCorrection = z.input<typeof studentCorrectionSchema>;

/** Minutes the resume code an admin's "let resume" makes stays usable (once). */
export const LET_RESUME_MINUTES = 30;

/**
 * An admin's "let resume": a one-time resume code for the admin to hand to the student, shown only in this answer
 * (the server keeps its hash), and when it stops working.
 */
export const letResumeResponseSchema = z.object({
  message: z.string(),
  resumeCode: z.string(),
  expiresAt: z.iso.datetime(),
});
export type LetResumeResponse = z.infer<typeof letResumeResponseSchema>;

/**
 * Extra time, as the product names it everywhere in code: a student's time multiplier on the seconds per question
 * (1 is no extra time). The database's check takes its bounds from here.
 */
export const TIME_MULTIPLIER = { min: 1, max: 3 } as const;
export const MAX_TIME_MULTIPLIER = TIME_MULTIPLIER.max;
/**
 * Time an invigilator adds to running attempts from the live board (decision 037), in whole minutes: a lost
 * connection, a power cut, a question withdrawn. More than a few hours is a new sitting, not added time.
 */
export const ADDED_MINUTES = { min: 1, max: 180 } as const;

const addedMinutesError = `Minutes to add must be a whole number from ${ADDED_MINUTES.min} to ${ADDED_MINUTES.max}`;
export const addTimeInputSchema = z.object({
  minutes: z
    .number({ error: addedMinutesError })
    .int({ error: addedMinutesError })
    .min(ADDED_MINUTES.min, { error: addedMinutesError })
    .max(ADDED_MINUTES.max, { error: addedMinutesError }),
});
export type AddTimeInput = z.infer<typeof addTimeInputSchema>;

/**
 * Time added, in words, as the live board and the invigilator's confirmation say it: "2 min", "1 min 30 s", "30 s"
 * (a drive's closing can cut an add to part of a minute).
 */
export function addedTimeText(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  if (minutes === 0) return `${rest} s`;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

export const timeMultiplierInputSchema = z.object({
  timeMultiplier: z
    .number({ error: "Extra time must be a number" })
    .min(TIME_MULTIPLIER.min, { error: "Extra time must be at least 1× (no extra time)" })
    .max(MAX_TIME_MULTIPLIER, { error: `Extra time must be at most ${MAX_TIME_MULTIPLIER}×` }),
});

export const studentAdminSchema = studentSchema.extend({
  /** The drive the student registered for. */
  driveId: idSchema,
  driveName: z.string(),
  /** The drive's time zone, in which the admin screens show when the student registered. */
  timeZone: z.string(),
  timeMultiplier: z.number(),
  attemptsAllowed: z.number().int(),
  attemptsUsed: z.number().int(),
});
export type StudentAdmin = z.infer<typeof studentAdminSchema>;

/** One submitted attempt as an admin sees it: every served question, the answer given and the right one. */
export const resultDetailSchema = z.object({
  _id: idSchema,
  studentName: z.string(),
  studentEmail: z.string(),
  usnNo: z.string(),
  score: z.number().int(),
  totalQuestions: z.number().int(),
  submittedAt: z.iso.datetime(),
  /** The drive's time zone, in which the admin screens show the attempt's times. */
  timeZone: z.string(),
  /** Submitted when its time ran out (by the quiz page's timer or the server's sweep), not by the student. */
  autoSubmitted: z.boolean(),
  /** Times the quiz page lost focus or visibility during the attempt (recorded, never used to block). */
  focusLosses: z.number().int(),
  ...answerTimingSchema.shape,
  /**
   * Time given back for lost connections (decision 040), each: the page silent from its last contact until it was
   * heard again, and the seconds given back beyond the drive's grace, up to its most.
   */
  credits: z.array(z.object({ silentFrom: z.iso.datetime(), heardAt: z.iso.datetime(), seconds: z.number() })),
  /**
   * The options chosen and the right ones are left out (null): the reader is a viewer, and the drive has not yet
   * released what gives its key away (decision 024). Right or wrong, marks and scores are always shown.
   */
  keyHidden: z.boolean(),
  /** While the key is hidden: when the drive releases it (null: once it closes). */
  keyShownFrom: z.iso.datetime().nullable(),
  /**
   * Right or wrong and each question's mark are left out too (null): a secure test's attempt before release,
   * read by a viewer, who could otherwise read the key off throw-away attempts (decision 024).
   */
  marksHidden: z.boolean(),
  answers: z.array(
    z.object({
      questionId: idSchema,
      question: z.string(),
      /** The question's text rendered and sanitised (block content), as the student saw it. */
      questionHtml: richTextHtml,
      answered: z.boolean(),
      /** The option chosen; a multiple answer's options joined with "; ". Null when unanswered or hidden. */
      chosen: z.string().nullable(),
      /** `chosen` rendered (inline content, each option's HTML joined with "; "). */
      chosenHtml: richTextHtml.nullable(),
      /** The right option (a multiple answer's, joined with "; "); null while the key is hidden. */
      correct: z.string().nullable(),
      /** `correct` rendered like `chosenHtml`. */
      correctHtml: richTextHtml.nullable(),
      /** Null while marks are hidden. */
      isCorrect: z.boolean().nullable(),
      /** 0 to 1: below 1 and above 0 only for a partly right multiple answer. Null while marks are hidden. */
      mark: z.number().nullable(),
      focusLosses: z.number().int(),
      /** Seconds from the question's window opening to its first answer; null unless timed per question. */
      secondsToAnswer: z.number().int().nullable(),
    }),
  ),
});
export type ResultDetail = z.infer<typeof resultDetailSchema>;

/** The dashboard's overview: counts, how scores spread, and how often each question was answered right. */
export const resultsSummarySchema = z.object({
  students: z.number().int(),
  submitted: z.number().int(),
  questions: z.number().int(),
  averagePercentage: z.number().nullable(),
  distribution: z.array(z.object({ label: z.string(), count: z.number().int() })),
  items: z.array(
    z.object({
      questionId: idSchema,
      text: z.string(),
      html: richTextHtml,
      served: z.number().int(),
      correct: z.number().int(),
      correctShare: z.number(),
    }),
  ),
});
export type ResultsSummary = z.infer<typeof resultsSummarySchema>;

export const studentListQuerySchema = pagingQuerySchema.extend({
  search: searchText("search", 200),
  /** Only the students of this drive. */
  driveId: idSchema.optional(),
});
export type StudentListQuery = z.infer<typeof studentListQuerySchema>;
