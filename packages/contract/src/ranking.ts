// A drive's candidates in rank order, and the shortlist a recruiter takes from it: GET /api/drives/:id/ranking and
// its CSV (issue 26). A candidate is a student of the drive with a submitted attempt, ranked by their best one.
import { z } from "zod";
import { idSchema, searchText } from "./common.ts";
import { sectionResultSchema } from "./drives.ts";
import { studentSchema } from "./students.ts";

/**
 * How candidates are ordered, in the words the ranking page shows: every key is one an admin can check on the row,
 * so two candidates share a rank exactly when the row shows them equal.
 */
export function rankingRule(tieBreakSections: readonly string[]): string {
  const sections = tieBreakSections.map((name) => `then by the score in ${name}, `).join("");
  const equal = tieBreakSections.length > 0 ? "in all of these" : "in both";
  return (
    `Ranked by score, ${sections}then by less time taken (to the second); candidates equal ${equal} share a rank. ` +
    "A candidate who took the test more than once is ranked by their best attempt. " +
    "Percentile: the share of the drive's candidates who scored the same or less."
  );
}

/** Which candidates a shortlist keeps: everyone, those who passed, or those ranked within the top `top`. */
export const SHORTLIST_CUTS = ["all", "pass", "top"] as const;
export type ShortlistCut = (typeof SHORTLIST_CUTS)[number];
export const SHORTLIST_CUT_LABELS: Record<ShortlistCut, string> = {
  all: "Every candidate",
  pass: "Candidates who passed",
  top: "The top candidates",
};

/** The most candidates the ranking page lists at once; the CSV has every one. */
export const RANKING_ROWS_SHOWN = 200;

export const shortlistQuerySchema = z
  .object({
    cut: z.enum(SHORTLIST_CUTS, { error: "cut must be all, pass or top" }).default("all"),
    /** With `cut=top`: ranks 1 to `top`, and everyone tied at the last of them. */
    // Named as the ranking page labels the field, for a person reading the refusal there.
    top: z.coerce
      .number({ error: "How many top candidates must be a number" })
      .min(1, { error: "How many top candidates must be at least 1" })
      .max(1_000_000, { error: "How many top candidates must be at most 1000000" })
      .int({ error: "How many top candidates must be a whole number" })
      .optional(),
    /** One college's or one branch's candidates, named exactly as the groups list them. */
    college: searchText("college"),
    course: searchText("course"),
  })
  .refine((query) => query.cut !== "top" || query.top !== undefined, {
    error: "Say how many top candidates to keep (top)",
    path: ["top"],
  });
export type ShortlistQuery = z.output<typeof shortlistQuerySchema>;

/** A ranked candidate: the student as registered, and where their best attempt stands. */
export const rankedCandidateSchema = studentSchema
  .pick({
    name: true,
    email: true,
    phone: true,
    usnNo: true,
    college: true,
    course: true,
    year: true,
  })
  .extend({
    rank: z.number().int(),
    /** 0.00–100.00, two decimals. */
    percentile: z.string(),
    attemptId: idSchema,
    studentId: idSchema,
    marks: z.number(),
    totalQuestions: z.number().int(),
    percentage: z.string(),
    passed: z.boolean().nullable(),
    /** Each section's part (empty: the test has no sections), which ties may be broken by. */
    sections: z.array(sectionResultSchema),
    /** From the attempt's start to its submission or its deadline, whichever came first, in whole seconds. */
    secondsTaken: z.number().int(),
    submittedAt: z.iso.datetime(),
    autoSubmitted: z.boolean(),
  });
export type RankedCandidate = z.infer<typeof rankedCandidateSchema>;

/** A college and branch of the drive: its candidates, and how many of them the shortlist keeps. */
export const shortlistGroupSchema = z.object({
  college: z.string(),
  course: z.string(),
  candidates: z.number().int(),
  shortlisted: z.number().int(),
});
export type ShortlistGroup = z.infer<typeof shortlistGroupSchema>;

export const rankingSchema = z.object({
  rule: z.string(),
  /**
   * The drive has closed and every attempt is in (submitted, or closed when its time ran out): the ranks will not
   * change. Until then they are provisional, and the `unfinished` attempts may yet move them.
   */
  final: z.boolean(),
  /** Attempts started and not yet in: running, or out of time and about to be closed. */
  unfinished: z.number().int(),
  /** Candidates ranked in the drive, before any cut or filter. */
  candidates: z.number().int(),
  /** Whether the test has a pass mark (without one, nobody passes and the "passed" cut keeps nobody). */
  hasPassMark: z.boolean(),
  /** Candidates the cut and filters keep; `rows` are the first RANKING_ROWS_SHOWN of them. */
  shortlisted: z.number().int(),
  groups: z.array(shortlistGroupSchema),
  rows: z.array(rankedCandidateSchema).max(RANKING_ROWS_SHOWN),
});
export type Ranking = z.infer<typeof rankingSchema>;

/**
 * The shortlist's file name, which a recruiter can tell apart from the others: the drive's code, the college and
 * branch (in their own script: two Kannada colleges must not share a name), and "provisional" while the ranks may
 * still change.
 */
export function shortlistFileName(driveCode: string, query: ShortlistQuery, final: boolean): string {
  const parts = [driveCode, query.college, query.course]
    .filter((part): part is string => Boolean(part))
    .map((part) => part.replace(/[^\p{L}\p{M}\p{N}]+/gu, "-").replace(/^-|-$/g, ""))
    .filter(Boolean);
  return `shortlist-${parts.join("-")}${final ? "" : "-provisional"}.csv`;
}

/** "1 h 02 min 05 s", "12 min 05 s", "45 s": a time taken as a recruiter's sheet shows it. */
export function formatTimeTaken(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const pad = (value: number) => String(value).padStart(2, "0");
  if (hours > 0) return `${hours} h ${pad(minutes)} min ${pad(rest)} s`;
  if (minutes > 0) return `${minutes} min ${pad(rest)} s`;
  return `${rest} s`;
}
