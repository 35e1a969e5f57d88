// A drive's candidates in rank order and the shortlists cut from it (issue 26): one ranking, written once in SQL,
// read by the ranking page and streamed as the recruiter's CSV.

import { scorePercentage } from "@trainwise/contract/quiz";
import {
  formatTimeTaken,
  RANKING_ROWS_SHOWN,
  RANKING_RULE,
  type Ranking,
  type ShortlistQuery,
} from "@trainwise/contract/ranking";
import { type SQL, sql } from "drizzle-orm";
import type { CsvCell } from "../../csv/spreadsheet-csv.ts";
import type { Executor } from "../../db/client.ts";
import { keysetBatches } from "../../db/paging.ts";
import { wallClockSql } from "../../db/wall-clock.ts";
import { autoSubmittedSql } from "../quiz/repository/clock-sql.ts";
import { settledSql, stillRunningSql } from "./key-release.ts";

/**
 * Every candidate of the drive with their best attempt, rank and percentile, before any cut: `ranked`. The best
 * attempt is the one that would rank highest; the rank counts the candidates strictly ahead on the score's share of
 * the questions, then on whole seconds taken (so a tie the page shows is a tie in rank); the percentile is the share
 * of candidates whose score is the same or lower.
 */
function rankedSql(driveId: string): SQL {
  return sql`best as (
      select distinct on (a.student_id) a.id, a.student_id, a.drive_id, a.total_questions, a.passed, a.submitted_at,
        coalesce(a.marks, a.score, 0)::float8 as marks,
        coalesce(coalesce(a.marks, a.score, 0)::float8 / nullif(a.total_questions, 0), 0) as share,
        floor(extract(epoch from a.submitted_at - a.started_at))::int as seconds_taken,
        ${sql.raw(autoSubmittedSql("a"))} as auto_submitted
      from attempts a
      where a.drive_id = ${driveId} and a.submitted_at is not null
      order by a.student_id, share desc, seconds_taken, a.submitted_at, a.id
    ),
    ranked as (
      select best.*,
        rank() over (order by share desc, seconds_taken) as rank,
        round((100 * cume_dist() over (order by share))::numeric, 2)::text as percentile
      from best
    )`;
}

/** Which ranked candidates (`r`, with their student `s`) the cut keeps, and the college and branch asked for. */
function shortlistFilters(query: ShortlistQuery, { groups }: { groups: boolean }): SQL {
  const conditions: SQL[] = [sql`true`];
  if (query.cut === "pass") conditions.push(sql`r.passed`);
  if (query.cut === "top") conditions.push(sql`r.rank <= ${query.top ?? 0}`);
  if (!groups && query.college !== undefined) conditions.push(sql`s.college = ${query.college}`);
  if (!groups && query.course !== undefined) conditions.push(sql`s.course = ${query.course}`);
  return sql.join(conditions, sql` and `);
}

type RankedRecord = {
  rank: number;
  percentile: string;
  id: string;
  student_id: string;
  name: string;
  email: string;
  phone: string;
  usn_no: string;
  college: string;
  course: string;
  year: string;
  marks: number;
  total_questions: number;
  passed: boolean | null;
  seconds_taken: number;
  submitted_at: string;
  submitted_local: string;
  auto_submitted: boolean;
  drive_name: string;
  test_name: string;
};

const RANKED_COLUMNS = sql`r.rank::int as rank, r.percentile, r.id, r.student_id, s.name, s.email, s.phone, s.usn_no,
  s.college, s.course, s.year, r.marks, r.total_questions, r.passed, r.seconds_taken,
  r.submitted_at::text as submitted_at, ${wallClockSql("r.submitted_at", "d.time_zone")} as submitted_local,
  r.auto_submitted, d.name as drive_name, t.name as test_name`;

/** The shortlisted candidates after `after` (rank, then name, then attempt), at most `size` of them. */
async function shortlistRows(
  db: Executor,
  driveId: string,
  query: ShortlistQuery,
  after: { rank: number; name: string; id: string } | undefined,
  size: number,
): Promise<RankedRecord[]> {
  const { rows } = await db.execute<RankedRecord>(sql`
    with ${rankedSql(driveId)}
    select ${RANKED_COLUMNS}
    from ranked r
    join students s on s.id = r.student_id
    join drives d on d.id = r.drive_id
    join tests t on t.id = d.test_id
    where ${shortlistFilters(query, { groups: false })}
      ${after ? sql`and (r.rank, s.name, r.id) > (${after.rank}, ${after.name}, ${after.id}::uuid)` : sql``}
    order by r.rank, s.name, r.id
    limit ${size}`);
  return rows;
}

/** Whether the drive's ranks are final, how many attempts could still move them, and whether its test has a pass mark. */
export async function rankingState(db: Executor, driveId: string) {
  const { rows } = await db.execute<{ final: boolean; still_running: number; has_pass_mark: boolean }>(sql`
    select ${sql.raw(settledSql("d"))} as final, t.pass_mark is not null as has_pass_mark,
      (select count(*)::int from attempts open
        where open.drive_id = d.id and ${sql.raw(stillRunningSql("open"))}) as still_running
    from drives d join tests t on t.id = d.test_id
    where d.id = ${driveId}`);
  return rows[0];
}

/**
 * Where one attempt stands in its drive's ranking: its candidate's rank among how many, and percentile; undefined
 * when the attempt is not its candidate's best (the candidate is ranked by another).
 */
export async function attemptStanding(db: Executor, driveId: string, attemptId: string) {
  const { rows } = await db.execute<{ rank: number; percentile: string; candidates: number }>(sql`
    with ${rankedSql(driveId)}
    select r.rank::int as rank, r.percentile, (select count(*)::int from ranked) as candidates
    from ranked r where r.id = ${attemptId}`);
  return rows[0];
}

/** The drive's ranking as the page shows it: the first rows of the shortlist, its counts, and where it stands. */
export async function driveRanking(db: Executor, driveId: string, query: ShortlistQuery): Promise<Ranking> {
  const [rows, groups, state] = await Promise.all([
    shortlistRows(db, driveId, query, undefined, RANKING_ROWS_SHOWN),
    db.execute<{ college: string; course: string; candidates: number; shortlisted: number }>(sql`
      with ${rankedSql(driveId)}
      select s.college, s.course, count(*)::int as candidates,
        (count(*) filter (where ${shortlistFilters(query, { groups: true })}))::int as shortlisted
      from ranked r join students s on s.id = r.student_id
      group by s.college, s.course
      order by s.college, s.course`),
    rankingState(db, driveId),
  ]);
  const drive = state;
  const inGroups = groups.rows.filter(
    (group) =>
      (query.college === undefined || group.college === query.college) &&
      (query.course === undefined || group.course === query.course),
  );
  return {
    rule: RANKING_RULE,
    final: drive?.final ?? false,
    stillRunning: drive?.still_running ?? 0,
    candidates: groups.rows.reduce((sum, group) => sum + group.candidates, 0),
    hasPassMark: drive?.has_pass_mark ?? false,
    shortlisted: inGroups.reduce((sum, group) => sum + group.shortlisted, 0),
    groups: groups.rows,
    rows: rows.map((row) => ({
      rank: row.rank,
      percentile: row.percentile,
      attemptId: row.id,
      studentId: row.student_id,
      name: row.name,
      email: row.email,
      phone: row.phone,
      usnNo: row.usn_no,
      college: row.college,
      course: row.course,
      year: row.year,
      marks: row.marks,
      totalQuestions: row.total_questions,
      percentage: scorePercentage(row.marks, row.total_questions),
      passed: row.passed,
      secondsTaken: row.seconds_taken,
      submittedAt: new Date(row.submitted_at).toISOString(),
      autoSubmitted: row.auto_submitted,
    })),
  };
}

/** Every shortlisted candidate in rank order, in keyset batches: the CSV streams these. */
export function shortlistBatches(db: Executor, driveId: string, query: ShortlistQuery) {
  return keysetBatches<RankedRecord, { rank: number; name: string; id: string }>(
    (after, size) => shortlistRows(db, driveId, query, after, size),
    (row) => ({ rank: row.rank, name: row.name, id: row.id }),
  );
}

/** The columns of a recruiter's tracking sheet, in its order: who, where from, how they did. */
export const SHORTLIST_COLUMNS = [
  "Rank",
  "Percentile",
  "Name",
  "Email",
  "Phone",
  "USN",
  "College",
  "Branch/Course",
  "Year",
  "Marks",
  "Out of",
  "Score (%)",
  "Result",
  "Time taken",
  "Submitted",
  "Auto-submitted",
  "Drive",
  "Test",
] as const;

export function shortlistLine(row: RankedRecord): Record<(typeof SHORTLIST_COLUMNS)[number], CsvCell> {
  return {
    Rank: row.rank,
    Percentile: row.percentile,
    Name: row.name,
    Email: row.email,
    Phone: row.phone,
    USN: row.usn_no,
    College: row.college,
    "Branch/Course": row.course,
    Year: row.year,
    Marks: row.marks,
    "Out of": row.total_questions,
    "Score (%)": scorePercentage(row.marks, row.total_questions),
    Result: row.passed === null ? "" : row.passed ? "Pass" : "Fail",
    "Time taken": formatTimeTaken(row.seconds_taken),
    Submitted: row.submitted_local,
    "Auto-submitted": row.auto_submitted ? "Yes" : "No",
    Drive: row.drive_name,
    Test: row.test_name,
  };
}
