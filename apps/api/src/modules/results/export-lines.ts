// A line of a results export, the same in every export of results (the results table's and a drive's): one set of
// columns under the admin's own names, times in the drive's time zone, and whether the attempt was auto-submitted
// (decision 027). Each export reads its rows with `RESULT_LINE_SQL` and writes them with `resultLine`.
import type { AnswerTimingSignals } from "@trainwise/contract/answer-timing";
import type { SectionMarks, SectionResult, ServedSection } from "@trainwise/contract/drives";
import { cutOffText, scorePercentage, sectionResultsOf } from "@trainwise/contract/quiz";
import { sql } from "drizzle-orm";
import type { CsvCell } from "../../csv/spreadsheet-csv.ts";
import { wallClockSql } from "../../db/wall-clock.ts";
import { autoSubmittedSql } from "../quiz/repository/clock-sql.ts";
import { BURST_ANSWERS_SQL, lateAnswersSql, PACED_SECONDS_OF_ATTEMPT, withBurstsSql } from "./answer-timing-sql.ts";

export const RESULT_EXPORT_COLUMNS = [
  "Student",
  "Email",
  "USN",
  "College",
  "Drive",
  "Test",
  "Right answers",
  "Marks",
  "Questions",
  "Score (%)",
  "Result",
  "Submitted",
  "Time zone",
  "Auto-submitted",
  "Left the quiz (times)",
  "Late answers",
  "Answers in a burst",
  // Last, so that a sheet reading the columns before it by place reads them as before.
  "Sections",
] as const;
export type ResultExportColumn = (typeof RESULT_EXPORT_COLUMNS)[number];

/**
 * The columns of a submitted attempt `a` that a results line needs, with its student `s`, drive `d` and test `t`
 * joined, and `RESULT_LINE_ANSWERS` beside them.
 */
export const RESULT_LINE_SQL = sql`a.id, s.id as student_id, s.name as student_name, s.email, s.usn_no, s.college,
  d.name as drive_name, t.name as test_name, d.time_zone, a.score, coalesce(a.marks, a.score, 0)::float8 as marks,
  a.total_questions, a.passed, a.sections, a.section_marks, a.submitted_at::text as submitted_at, ${wallClockSql("a.submitted_at", "d.time_zone")}
  as submitted_local, a.paced, a.seconds_per_question,
  ${sql.raw(autoSubmittedSql("a"))} as auto_submitted, answered.focus_losses, answered.late_answers as "lateAnswers",
  answered.burst_answers as "burstAnswers"`;

/** The attempt's answers, summed once per attempt with what their times show (a lateral join after `a`). */
export const RESULT_LINE_ANSWERS = sql`cross join lateral (
    select coalesce(sum(focus_losses), 0)::int as focus_losses,
      ${lateAnswersSql(PACED_SECONDS_OF_ATTEMPT)} as late_answers,
      ${BURST_ANSWERS_SQL} as burst_answers
    from ${withBurstsSql(sql`(select aq.answered_at, aq.ms_to_answer, aq.position, aq.focus_losses
      from attempt_questions aq where aq.attempt_id = a.id)`)} timed_answers
  ) answered`;

/** A row as `RESULT_LINE_SQL` reads it. */
export type ResultLineRecord = {
  id: string;
  student_id: string;
  student_name: string;
  email: string;
  usn_no: string;
  college: string;
  drive_name: string;
  test_name: string;
  time_zone: string;
  score: number | null;
  /** The score less negative marking: the percentage and pass/fail come from it. */
  marks: number;
  total_questions: number;
  passed: boolean | null;
  sections: ServedSection[] | null;
  section_marks: SectionMarks[] | null;
  /** As PostgreSQL prints it: microseconds kept, so a batch's last row is an exact keyset bound. */
  submitted_at: string;
  /** The drive's wall clock at the submission (wallClockSql). */
  submitted_local: string;
  paced: boolean;
  seconds_per_question: number;
  auto_submitted: boolean;
  focus_losses: number;
} & AnswerTimingSignals;

/**
 * A score's percentage as a CSV cell: "66.67" as written everywhere, and a negative one (negative marking) as the
 * number it is, since as text its minus sign is escaped like a formula's and the column stops sorting.
 */
export function percentageCell(marks: number, totalQuestions: number): CsvCell {
  const percentage = scorePercentage(marks, totalQuestions);
  return percentage.startsWith("-") ? Number(percentage) : percentage;
}

/**
 * Each section's part in one cell ("Verbal: 1.5 of 2 (75.00%), cut-off 60% met; …"; empty without sections): the
 * columns stay the same for every test, and a spreadsheet splits the cell where a recruiter wants columns.
 */
export function sectionsCell(sections: SectionResult[]): string {
  return sections
    .map((section) => {
      const cutOff = section.cutOff === null ? "" : `, ${cutOffText(section)}`;
      return `${section.name}: ${section.marks} of ${section.questionCount} (${section.percentage}%)${cutOff}`;
    })
    .join("; ");
}

/** One line of a results export. */
export function resultLine(row: ResultLineRecord): Record<ResultExportColumn, CsvCell> {
  return {
    Student: row.student_name,
    Email: row.email,
    USN: row.usn_no,
    College: row.college,
    Drive: row.drive_name,
    Test: row.test_name,
    "Right answers": row.score ?? 0,
    // Negative marking and partial credit count in marks; the percentage comes from them (decision 018).
    Marks: row.marks,
    Questions: row.total_questions,
    "Score (%)": percentageCell(row.marks, row.total_questions),
    Result: row.passed === null ? "" : row.passed ? "Pass" : "Fail",
    Submitted: row.submitted_local,
    "Time zone": row.time_zone,
    "Auto-submitted": row.auto_submitted ? "Yes" : "No",
    "Left the quiz (times)": row.focus_losses,
    "Late answers": row.lateAnswers ?? "",
    "Answers in a burst": row.burstAnswers,
    Sections: sectionsCell(sectionResultsOf(row.sections, row.section_marks)),
  };
}
