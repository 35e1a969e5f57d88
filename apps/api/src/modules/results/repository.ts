// Submitted attempts as admins see them: the results table and its export, the whole list, and one attempt in full.
import type { resultTableQuerySchema } from "@trainwise/contract/admin-tables";
import { answerTimingSignals } from "@trainwise/contract/answer-timing";
import type { SectionMarks, ServedSection } from "@trainwise/contract/drives";
import { sectionResultsOf } from "@trainwise/contract/quiz";
import { count, desc, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Executor } from "../../db/client.ts";
import {
  containsPattern,
  keysetBatches,
  type ListQuery,
  limitOffset,
  listWindow,
  orderBy,
  TOTAL_OVER_ALL,
  toPage,
} from "../../db/paging.ts";
import { attemptCredits, attemptQuestions, attempts, questionOptions, questions, students } from "../../db/schema.ts";
import { renderOptionText, renderQuestionText } from "../../rich-text/render.ts";
import { releaseAtSql, releasedSql } from "../drives/key-release.ts";
import { autoSubmittedSql } from "../quiz/repository/clock-sql.ts";
import { RESULT_LINE_ANSWERS, RESULT_LINE_SQL, type ResultLineRecord } from "./export-lines.ts";

const resultColumns = {
  id: attempts.id,
  studentName: students.name,
  studentEmail: students.email,
  usnNo: students.usnNo,
  score: attempts.score,
  totalQuestions: attempts.totalQuestions,
  submittedAt: attempts.submittedAt,
};

/** Submitted attempts, newest first: a window of them (`listWindow`) and how many there are in all. */
export async function listResults(db: Executor, query: ListQuery) {
  const { limit, offset } = listWindow(query);
  const [rows, [counted]] = await Promise.all([
    db
      .select(resultColumns)
      .from(attempts)
      .innerJoin(students, eq(students.id, attempts.studentId))
      .where(isNotNull(attempts.submittedAt))
      .orderBy(desc(attempts.submittedAt), desc(attempts.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(attempts).where(isNotNull(attempts.submittedAt)),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

export async function resultDetail(db: Executor, id: string) {
  const [attempt] = await db
    .select({
      ...resultColumns,
      paced: attempts.paced,
      secondsPerQuestion: attempts.secondsPerQuestion,
      secure: attempts.secure,
      timeZone: sql<string>`(select tz.time_zone from drives tz where tz.id = ${attempts.driveId})`,
      autoSubmitted: sql<boolean>`${sql.raw(autoSubmittedSql("attempts"))}`,
      keyReleased: sql<boolean>`(select ${sql.raw(releasedSql("kd"))} from drives kd where kd.id = ${attempts.driveId})`,
      keyReleaseAt: sql<
        string | null
      >`(select ${sql.raw(releaseAtSql("kd"))} from drives kd where kd.id = ${attempts.driveId})`,
    })
    .from(attempts)
    .innerJoin(students, eq(students.id, attempts.studentId))
    .where(eq(attempts.id, id));
  if (!attempt?.submittedAt) return undefined;
  const answers = await db.execute<{
    question_id: string;
    question: string;
    chosen: string[] | null;
    correct: string[] | null;
    is_correct: boolean | null;
    mark: number;
    focus_losses: number;
    answered_at: Date | null;
    ms_to_answer: number | null;
  }>(sql`
    select aq.question_id, q.text as question, aq.is_correct, aq.focus_losses, aq.answered_at, aq.ms_to_answer,
           coalesce(aq.mark, case when aq.is_correct then 1 else 0 end) as mark,
           -- A multiple answer's options, and every right option, each listed in the question's own order.
           (select array_agg(o.text order by o.position) from ${questionOptions} o
             where o.question_id = aq.question_id
               and (o.id = aq.selected_option_id or o.id = any(aq.selected_option_ids))) as chosen,
           (select array_agg(o.text order by o.position) from ${questionOptions} o
             where o.question_id = aq.question_id and o.is_correct) as correct
    from ${attemptQuestions} aq
    join ${questions} q on q.id = aq.question_id
    where aq.attempt_id = ${id}
    order by aq.position`);
  const credits = await db.execute<{ silentFrom: Date; heardAt: Date; seconds: number }>(sql`
    select silent_from as "silentFrom", heard_at as "heardAt", seconds from ${attemptCredits}
    where attempt_id = ${id} order by silent_from`);
  const { paced, secondsPerQuestion, secure, keyReleased, keyReleaseAt, ...shown } = attempt;
  const times = answers.rows.map((row) => ({
    answeredAt: row.answered_at ? new Date(row.answered_at).getTime() : null,
    msToAnswer: row.ms_to_answer,
  }));
  return {
    ...shown,
    submittedAt: attempt.submittedAt,
    focusLosses: answers.rows.reduce((sum, row) => sum + row.focus_losses, 0),
    ...answerTimingSignals(times, paced ? secondsPerQuestion : null),
    credits: credits.rows.map((credit) => ({
      silentFrom: new Date(credit.silentFrom),
      heardAt: new Date(credit.heardAt),
      seconds: Number(credit.seconds),
    })),
    secure,
    keyReleased,
    keyReleaseAt: keyReleaseAt === null ? null : new Date(keyReleaseAt),
    answers: answers.rows.map((row) => ({
      questionId: row.question_id,
      question: row.question,
      questionHtml: renderQuestionText(row.question),
      answered: row.chosen !== null,
      chosen: row.chosen?.join("; ") ?? null,
      chosenHtml: row.chosen?.map(renderOptionText).join("; ") ?? null,
      correct: row.correct?.join("; ") ?? "",
      correctHtml: row.correct?.map(renderOptionText).join("; ") ?? "",
      isCorrect: row.is_correct === true,
      mark: Number(row.mark),
      focusLosses: row.focus_losses,
      secondsToAnswer: row.ms_to_answer === null ? null : Math.round(row.ms_to_answer / 1000),
    })),
  };
}

type ResultTableQuery = z.output<typeof resultTableQuerySchema>;
/** The filters of the results table (and its export), without paging or sorting. */
export type ResultFilters = Pick<ResultTableQuery, "search" | "driveId" | "testId" | "college" | "outcome">;

/** The filters with a test named by its drives, as `resultFilters` reads them. */
type ResolvedFilters = ResultFilters & { testDriveIds?: string[] };

/**
 * Names the test filter by its drives' ids, read first. Written as a subquery on drives, the filter left the
 * planner guessing how many attempts a test has (817 of 50,000 where a campus test had 41,667): it chose 41,667
 * index lookups of students over one hash join, and a test-and-college filter took 64 ms a page (bench:admin).
 * With the ids in the statement, the attempts' statistics of `drive_id` give the true share.
 */
async function resolveTest<Filters extends ResultFilters>(db: Executor, filters: Filters) {
  if (!filters.testId) return filters as Filters & ResolvedFilters;
  const { rows } = await db.execute<{ id: string }>(sql`select id from drives where test_id = ${filters.testId}`);
  return { ...filters, testDriveIds: rows.map((row) => row.id) };
}

function resultFilters(filters: ResolvedFilters): SQL {
  const conditions: SQL[] = [sql`a.submitted_at is not null`];
  if (filters.search) {
    const pattern = containsPattern(filters.search);
    conditions.push(sql`(s.name ilike ${pattern} or s.usn_no ilike ${pattern} or s.email ilike ${pattern})`);
  }
  if (filters.driveId) conditions.push(sql`a.drive_id = ${filters.driveId}`);
  if (filters.testId) conditions.push(sql`a.drive_id = any(${sql.param(filters.testDriveIds ?? [])}::uuid[])`);
  if (filters.college) conditions.push(sql`s.college ilike ${containsPattern(filters.college)}`);
  if (filters.outcome) conditions.push(sql`a.passed = ${filters.outcome === "pass"}`);
  return sql.join(conditions, sql` and `);
}

type ResultTableRow = {
  id: string;
  student_id: string;
  student_name: string;
  email: string;
  usn_no: string;
  college: string;
  drive_id: string;
  drive_name: string;
  test_name: string;
  score: number | null;
  marks: number | null;
  total_questions: number;
  passed: boolean | null;
  sections: ServedSection[] | null;
  section_marks: SectionMarks[] | null;
  submitted_at: Date | string;
  time_zone: string;
  auto_submitted: boolean;
  total: string;
};

/** marks (or, before negative marking existed, the score) as a share of the questions. */
const PERCENTAGE = sql`coalesce(a.marks, a.score, 0)::float / nullif(a.total_questions, 0)`;
const RESULT_SORTS = { date: sql`a.submitted_at`, score: PERCENTAGE, name: sql`s.name` } as const;

const RESULT_COLUMNS = sql`a.id, a.student_id, s.name as student_name, s.email, s.usn_no, s.college, a.drive_id,
  d.name as drive_name, t.name as test_name, a.score, a.marks, a.total_questions, a.passed, a.sections,
  a.section_marks, d.time_zone,
  ${sql.raw(autoSubmittedSql("a"))} as auto_submitted`;

/** Whether the filters or the sort read the student's row (the join is left out when they do not). */
function needsStudent(query: ResultTableQuery): boolean {
  return Boolean(query.search || query.college || query.sort === "name");
}

/**
 * One page of the results table in one query: the page's ids with `count(*) over ()` first (from the attempts
 * alone when no student field is asked about), then the page's rows with their student, drive and test.
 */
export async function resultTable(db: Executor, asked: ResultTableQuery) {
  const query = await resolveTest(db, asked);
  const order = orderBy(RESULT_SORTS[query.sort], sql`a.id`, query.order, { nullsLast: true });
  // With the student joined, the rows are counted in a CTE of their own before the page is cut: planned under the
  // page's LIMIT, the join was costed as if the scan could stop after a page, though `count(*) over ()` reads every
  // match, and it looked each student up by index once per attempt (a college filter: 41,667 lookups).
  const matched = needsStudent(query)
    ? sql`counted as materialized (
        select a.id, ${RESULT_SORTS[query.sort]} as sort_key, ${TOTAL_OVER_ALL} as total
        from attempts a join students s on s.id = a.student_id
        where ${resultFilters(query)}
      ),
      matched as (
        select id, total from counted
        order by ${orderBy(sql`sort_key`, sql`id`, query.order, { nullsLast: true })}
        ${limitOffset(query)}
      )`
    : sql`matched as (
        select a.id, ${TOTAL_OVER_ALL} as total
        from attempts a
        where ${resultFilters(query)}
        order by ${order}
        ${limitOffset(query)}
      )`;
  const { rows } = await db.execute<ResultTableRow>(sql`
    with ${matched}
    select ${RESULT_COLUMNS}, a.submitted_at, m.total
    from matched m
    join attempts a on a.id = m.id
    join students s on s.id = a.student_id
    join drives d on d.id = a.drive_id
    join tests t on t.id = d.test_id
    order by ${order}`);
  return toPage(rows, query, resultOut, async () => {
    const { rows: counted } = await db.execute<{ total: number }>(sql`
      select count(*)::int as total from attempts a join students s on s.id = a.student_id
      where ${resultFilters(query)}`);
    return counted[0]?.total ?? 0;
  });
}

function resultOut(row: ResultTableRow) {
  const marks = row.marks ?? row.score ?? 0;
  return {
    _id: row.id,
    studentId: row.student_id,
    studentName: row.student_name,
    email: row.email,
    usnNo: row.usn_no,
    college: row.college,
    driveId: row.drive_id,
    driveName: row.drive_name,
    testName: row.test_name,
    score: row.score ?? 0,
    marks,
    totalQuestions: row.total_questions,
    percentage: row.total_questions > 0 ? (marks / row.total_questions) * 100 : 0,
    passed: row.passed,
    sections: sectionResultsOf(row.sections, row.section_marks),
    submittedAt: new Date(row.submitted_at).toISOString(),
    timeZone: row.time_zone,
    autoSubmitted: row.auto_submitted,
  };
}

/** Every submitted attempt matching the filters, newest first, in keyset batches: the export streams these. */
export function resultBatches(db: Executor, asked: ResultFilters) {
  let resolved: Promise<ResolvedFilters> | undefined;
  return keysetBatches<ResultLineRecord, { submittedAt: string; id: string }>(
    async (after, size) => {
      resolved ??= resolveTest(db, asked);
      const filters = await resolved;
      const { rows } = await db.execute<ResultLineRecord>(sql`
        select ${RESULT_LINE_SQL}
        from attempts a
        join students s on s.id = a.student_id
        join drives d on d.id = a.drive_id
        join tests t on t.id = d.test_id
        ${RESULT_LINE_ANSWERS}
        where ${resultFilters(filters)}
          ${after ? sql`and (a.submitted_at, a.id) < (${after.submittedAt}::timestamptz, ${after.id}::uuid)` : sql``}
        order by a.submitted_at desc, a.id desc
        limit ${size}`);
      return rows;
    },
    (row) => ({ submittedAt: row.submitted_at, id: row.id }),
  );
}
