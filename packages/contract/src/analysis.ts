// Item analysis of a drive or of a test across its drives (admin): GET /api/drives/:id/analysis,
// GET /api/tests/:id/analysis, their CSV, and retiring a question from the report. Formulas: docs/decisions/019.
import { z } from "zod";
import { idSchema } from "./common.ts";
import { richTextHtml } from "./questions.ts";

/**
 * Fewer submitted attempts than this (or fewer attempts served a question) and the discrimination index is not
 * shown, nor are the "nobody right" and "everyone right" flags: a group of two or three students says nothing.
 */
export const ANALYSIS_MINIMUM_COHORT = 10;
/** Share of the cohort in each of the upper and lower groups (Kelley's 27 %), rounded up. */
export const ANALYSIS_GROUP_SHARE = 0.27;

/** The attempts in each of the upper and lower groups for a cohort of `attempts`, or 0 when too small to tell. */
export function analysisGroupSize(attempts: number): number {
  return attempts < ANALYSIS_MINIMUM_COHORT ? 0 : Math.ceil(ANALYSIS_GROUP_SHARE * attempts);
}

export const ANALYSIS_FLAGS = ["negative_discrimination", "nobody_right", "everyone_right"] as const;
export type AnalysisFlag = (typeof ANALYSIS_FLAGS)[number];

/** Each flag's badge and the sentence that says what it means and what to do about it. */
export const ANALYSIS_FLAG_TEXT: Record<AnalysisFlag, { label: string; explanation: string }> = {
  negative_discrimination: {
    label: "Discriminates negatively",
    explanation:
      "Students with low total scores got this right more often than students with high ones: the key may be wrong or the question misleading.",
  },
  nobody_right: {
    label: "Nobody right",
    explanation: "No student answered this correctly: check the key, the wording, or whether it was taught.",
  },
  everyone_right: {
    label: "Too easy",
    explanation: "Every student answered this correctly: it does not tell students apart.",
  },
};

export const analysisOptionSchema = z.object({
  _id: idSchema,
  text: z.string(),
  /** The option's text rendered and sanitised (inline content). */
  html: richTextHtml,
  /** Null while the key is hidden from the reader (`keyHidden`). */
  isCorrect: z.boolean().nullable(),
  /**
   * Attempts that chose this option (a multiple-answer question counts each option chosen). Null while the key is
   * hidden: with the question's facility, the option chosen as often as it is answered right names the key.
   */
  chosen: z.number().int().nullable(),
  /** `chosen` as a percentage of the attempts served the question; null while the key is hidden. */
  share: z.number().nullable(),
});

export const analysisQuestionSchema = z.object({
  questionId: idSchema,
  text: z.string(),
  /** The question's text rendered and sanitised (block content). */
  html: richTextHtml,
  category: z.string(),
  /** Archived: no longer drawn for new attempts (retired from the report, deleted, or replaced by an edit). */
  retired: z.boolean(),
  /** Submitted attempts that were served the question. */
  served: z.number().int(),
  right: z.number().int(),
  /** Percentage of `served` answered right. */
  facility: z.number(),
  /** p(upper) − p(lower), −1 to 1; null when the cohort or the question's groups are too small. */
  discrimination: z.number().nullable(),
  upper: z.object({ served: z.number().int(), right: z.number().int() }),
  lower: z.object({ served: z.number().int(), right: z.number().int() }),
  notAnswered: z.number().int(),
  notAnsweredShare: z.number(),
  options: z.array(analysisOptionSchema),
  flags: z.array(z.enum(ANALYSIS_FLAGS)),
  /**
   * The section the question was served in: the one most attempts served it in when that varies (sections sharing a
   * category, or a section renamed between drives); null when it was served without sections.
   */
  section: z.string().nullable(),
});
export type AnalysisQuestion = z.infer<typeof analysisQuestionSchema>;

/** How the cohort did in one section of the test, from each attempt's own marks in it. */
export const analysisSectionSchema = z.object({
  name: z.string(),
  /** Submitted attempts that were served the section. */
  attempts: z.number().int(),
  /** Marks in the section (negative marking applied) in percent of its questions; null without attempts. */
  mean: z.number().nullable(),
  median: z.number().nullable(),
  /** Attempts that met the section's cut-off; null when the section had none. */
  metCutOff: z.number().int().nullable(),
});
export type AnalysisSection = z.infer<typeof analysisSectionSchema>;

export const analysisSummarySchema = z.object({
  /** Submitted attempts analysed. */
  attempts: z.number().int(),
  /** Score statistics in percent of the attempt's questions (negative marking applied); null without attempts. */
  mean: z.number().nullable(),
  median: z.number().nullable(),
  /** Sample standard deviation; null below two attempts. */
  standardDeviation: z.number().nullable(),
  /** KR-20 reliability; null unless every attempt was served the same questions and scores vary. */
  kr20: z.number().nullable(),
  /** Attempts in each of the upper and lower groups; 0 when the cohort is below the minimum. */
  groupSize: z.number().int(),
  minimumCohort: z.number().int(),
  /**
   * Each section the cohort was served, in the test's current order, then any section the test no longer has (renamed
   * or removed since) in the order attempts were served it; empty for a test without sections.
   */
  sections: z.array(analysisSectionSchema),
});

export const itemAnalysisSchema = z.object({
  scope: z.object({
    kind: z.enum(["drive", "test"]),
    _id: idSchema,
    name: z.string(),
    testId: idSchema,
    testName: z.string(),
  }),
  summary: analysisSummarySchema,
  /**
   * The reader is a viewer and a drive of the report has not yet released its key (decision 024): which options
   * are right, and how often each was chosen, are left out.
   */
  keyHidden: z.boolean(),
  /**
   * Also a secure test's right and wrong are held back until its drives release: `questions` is empty (decision 027).
   */
  marksHidden: z.boolean(),
  /** While the key is hidden: when the last of the report's drives releases it (null: once they close). */
  keyShownFrom: z.iso.datetime().nullable(),
  questions: z.array(analysisQuestionSchema),
});
export type ItemAnalysis = z.infer<typeof itemAnalysisSchema>;

export const retirementInputSchema = z.object({
  retired: z.boolean({ error: "Say whether the question is retired (true or false)" }),
});
export type RetirementInput = z.infer<typeof retirementInputSchema>;
