// An attempt as the quiz's statements read and write it: its columns, aliased to the schema's field names, and
// the shapes of what is served and answered that the other quiz statements share.
import { type Executor, type NamedStatement, runNamed } from "../../../db/client.ts";
import type { attempts, questions } from "../../../db/schema.ts";

/** An attempt's row, its open section filled in (one section, the attempt's, when it is not timed per section). */
export type AttemptRow = Omit<typeof attempts.$inferSelect, "sectionEnd" | "sectionDeadlineAt"> & {
  sectionEnd: number;
  sectionDeadlineAt: Date;
};

/**
 * The SET list of `attempt_questions` (under the alias `aq`) that saves an answer: the choice, when, and how long
 * after the question's window opened (`windowStart`, a timestamptz expression, null unless the attempt is timed
 * per question; none for an answer before it, in a window an invigilator lengthened), which answer-timing.ts reads.
 */
export function saveAnswerSql(values: { optionId: string; optionIds: string; now: string; windowStart: string }) {
  const { optionId, optionIds, now, windowStart } = values;
  // greatest() passes over a null, so a missing window start is tested first.
  return `selected_option_id = ${optionId}, selected_option_ids = ${optionIds}, answered_at = ${now},
      ms_to_answer = case when ${windowStart} is null or ${windowStart} > ${now} then null
                          else greatest(0, round(extract(epoch from (${now} - ${windowStart})) * 1000))::int end`;
}

/**
 * The palette's change to a served row of `attempt_questions` (under the alias `aq`), from SQL expressions: it was
 * opened (`now`, kept from the first time), marked for review or not (`marked`, null: as it was), and its answer
 * cleared (`clear`): a cleared answer is no answer at all, as before one was chosen, with nothing of its choice or
 * its time left. `unchanged` is true where the change would write nothing, so that a repeat costs no write.
 */
export function paletteChangeSql(values: { now: string; marked: string; clear: string }) {
  const { now, marked, clear } = values;
  return {
    set: `visited_at = coalesce(aq.visited_at, ${now}),
        marked_for_review = coalesce(${marked}, aq.marked_for_review),
        selected_option_id = case when ${clear} then null else aq.selected_option_id end,
        selected_option_ids = case when ${clear} then null else aq.selected_option_ids end,
        answered_at = case when ${clear} then null else aq.answered_at end,
        ms_to_answer = case when ${clear} then null else aq.ms_to_answer end`,
    unchanged: `(aq.visited_at is not null and coalesce(${marked}, aq.marked_for_review) = aq.marked_for_review
        and not (${clear} and ${answeredSql("aq")}))`,
  };
}

/** Whether the served row `alias` of `attempt_questions` holds an answer: one option, or a multiple answer's. */
export function answeredSql(alias: string): string {
  return `(${alias}.selected_option_id is not null or ${alias}.selected_option_ids is not null)`;
}

/**
 * A question as the bank holds it (questionContents): its options in the admin's order, at
 * `revision`, the version of its row that the read saw. Without correctness.
 */
export interface QuestionContent {
  questionId: string;
  text: string;
  category: string;
  difficulty: (typeof questions.$inferSelect)["difficulty"];
  type: (typeof questions.$inferSelect)["type"];
  options: { _id: string; text: string }[];
  revision: string;
}

/** A question served in an attempt: which one, its options in the student's order, and its row's revision. */
export interface ServedRef {
  questionId: string;
  optionOrder: string[];
  revision: string;
}

/**
 * A question row's version, as every statement that draws or serves a question reads it: the row's xmin, which
 * changes with every update of the row. Any change of content changes it, options included, since updateQuestion
 * rewrites them in the transaction that updates the row (question-contents.ts relies on this).
 */
export function questionRevisionSql(alias: string): string {
  return `${alias}.xmin::text`;
}

/** Where a served question stands: its place, its options' order, and the saved answer. */
export interface AnswerSlot {
  position: number;
  questionId: string;
  optionOrder: string[];
  selectedOptionId: string | null;
  /** The choices of a multiple-answer question. */
  selectedOptionIds: string[] | null;
  /** The question takes several options. */
  multiple: boolean;
  /** The student has opened the question (the palette of an attempt timed as a whole). */
  visited: boolean;
  /** The student has marked the question for review. */
  marked: boolean;
}

/**
 * An answer as stored: one option in `optionId` (single and true/false questions, and every answer of the
 * original all-at-once client, decision 007), or a multiple-answer question's options in `optionIds`; the other
 * is null.
 */
export interface Choice {
  optionId: string | null;
  optionIds: string[] | null;
}

export const ATTEMPT_COLUMNS = `id, student_id as "studentId", started_at as "startedAt", deadline_at as "deadlineAt",
  seconds_per_question as "secondsPerQuestion", current_position as "currentPosition",
  current_started_at as "currentStartedAt", submitted_at as "submittedAt", score, marks, passed,
  total_questions as "totalQuestions", drive_id as "driveId", timing_mode as "timingMode", paced,
  negative_mark as "negativeMark", pass_mark as "passMark", review_policy as "reviewPolicy", secure,
  sections, section_marks as "sectionMarks", section_first as "sectionFirst",
  coalesce(section_end, total_questions) as "sectionEnd",
  coalesce(section_deadline_at, deadline_at) as "sectionDeadlineAt", added_seconds as "addedSeconds",
  credited_seconds as "creditedSeconds"`;

export type TimestampText = string | Date;

export type AttemptText = Omit<
  AttemptRow,
  "startedAt" | "deadlineAt" | "currentStartedAt" | "submittedAt" | "sectionDeadlineAt"
> & {
  startedAt: TimestampText;
  deadlineAt: TimestampText;
  currentStartedAt: TimestampText;
  submittedAt: TimestampText | null;
  sectionDeadlineAt: TimestampText;
};

export function attemptFrom(row: AttemptText): AttemptRow {
  return {
    ...row,
    startedAt: new Date(row.startedAt),
    deadlineAt: new Date(row.deadlineAt),
    currentStartedAt: new Date(row.currentStartedAt),
    sectionDeadlineAt: new Date(row.sectionDeadlineAt),
    submittedAt: row.submittedAt === null ? null : new Date(row.submittedAt),
  };
}

export async function attemptRows(db: Executor, statement: NamedStatement, values: unknown[]): Promise<AttemptRow[]> {
  return (await runNamed<AttemptText>(db, statement, values)).map(attemptFrom);
}

/** Whose attempts a statement reaches: one student's, or every student's of a drive. */
export type AttemptsOf = { studentId: string } | { driveId: string };
