// A drive's candidates in rank order and the shortlists cut from it (issue 26): one ranking, written once in SQL,
// read by the ranking page and streamed as the recruiter's CSV.

import type { SectionMarks, ServedSection } from "@trainwise/contract/drives";
import { scorePercentage, sectionResultsOf } from "@trainwise/contract/quiz";
import {
  formatTimeTaken,
  RANKING_ROWS_SHOWN,
  type Ranking,
  rankingRule,
  type ShortlistQuery,
} from "@trainwise/contract/ranking";
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import type { CsvCell } from "../../csv/spreadsheet-csv.ts";
import type { Executor } from "../../db/client.ts";
import { wallClockSql } from "../../db/wall-clock.ts";
import { autoSubmittedSql } from "../quiz/repository/clock-sql.ts";
import { percentageCell, sectionsCell } from "../results/export-lines.ts";
import { settledSql } from "./key-release.ts";

/**
 * Every candidate of the drive with their best attempt, rank and percentile, before any cut: `ranked`, computed
 * once per statement (materialized: inlined, a join could run it again per row of another table). The best attempt
 * is the one that would rank highest; the rank counts the candidates strictly ahead on the score's share of the
 * questions, then on the share of each section the drive breaks ties by, in its order, then on whole seconds taken
 * (so a tie the page shows is a tie in rank); the percentile is the share of candidates whose score is the same or
 * lower. Time taken ends at the attempt's deadline: an attempt whose time ran out was closed whenever the sweep or
 * the student's next request came, which must not order the candidates; the time its drive stood paused is not
 * counted (decision 039).
 */
function rankedSql(driveId: string): SQL {
  return sql`ranked as materialized (
      select best.*,
        rank() over (order by share desc, tie_breaks desc, seconds_taken) as rank,
        round((100 * cume_dist() over (order by share))::numeric, 2)::text as percentile
      from (
        select distinct on (a.student_id) a.id, a.student_id, a.total_questions, a.passed, a.submitted_at,
          a.sections, a.section_marks,
          coalesce(a.marks, a.score, 0)::float8 as marks,
          coalesce(coalesce(a.marks, a.score, 0)::float8 / nullif(a.total_questions, 0), 0) as share,
          ${tieBreaksSql("a", "d.tie_break_sections")} as tie_breaks,
          floor(extract(epoch from least(a.submitted_at, a.deadline_at) - a.started_at) - a.paused_seconds)::int
            as seconds_taken,
          ${sql.raw(autoSubmittedSql("a"))} as auto_submitted
        from attempts a join drives d on d.id = a.drive_id
        where a.drive_id = ${driveId} and a.submitted_at is not null
        order by a.student_id, share desc, tie_breaks desc, seconds_taken, a.submitted_at, a.id
      ) best
    )`;
}

/**
 * The attempt's share of each section named in \`names\` (a text[]), in that order, as a float8[] that PostgreSQL
 * compares element by element: a section the attempt was not served counts below any share (negative marking goes
 * down to -1), so it never wins a tie. Empty when the drive breaks no ties by sections.
 */
function tieBreaksSql(attempt: string, names: string): SQL {
  return sql.raw(`array(
      select coalesce((
        select (m.value->>'marks')::float8 / nullif((x.value->>'questionCount')::float8, 0)
        from jsonb_array_elements(${attempt}.sections) with ordinality x(value, n)
        join jsonb_array_elements(${attempt}.section_marks) with ordinality m(value, n) on m.n = x.n
        where x.value->>'name' = tie.name), -2)
      from unnest(${names}) with ordinality tie(name, n) order by tie.n)`);
}

/** Which ranked candidates (`r`, with their student `s`) the cut keeps, and the college and branch asked for. */
function shortlistFilters(query: ShortlistQuery, { groups }: { groups: boolean }): SQL {
  const conditions: SQL[] = [sql`true`];
  if (query.cut === "pass") conditions.push(sql`r.passed`);
  if (query.cut === "top") conditions.push(sql`r.rank <= ${query.top ?? 0}`);
  // An empty filter is no filter, as in every table of the admin area.
  if (!groups && query.college) conditions.push(sql`s.college = ${query.college}`);
  if (!groups && query.course) conditions.push(sql`s.course = ${query.course}`);
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
  sections: ServedSection[] | null;
  section_marks: SectionMarks[] | null;
  seconds_taken: number;
  submitted_at: string;
  submitted_local: string;
  auto_submitted: boolean;
  drive_name: string;
  test_name: string;
};

/**
 * The shortlisted candidates in rank order (then name, then attempt), with the drive's name, test and time zone
 * read once beside them rather than joined per row.
 */
function shortlistSql(driveId: string, query: ShortlistQuery): SQL {
  return sql`
    with ${rankedSql(driveId)},
    drive as (select d.name as drive_name, d.time_zone, t.name as test_name
      from drives d join tests t on t.id = d.test_id where d.id = ${driveId})
    select r.rank::int as rank, r.percentile, r.id, r.student_id, s.name, s.email, s.phone, s.usn_no, s.college,
      s.course, s.year, r.marks, r.total_questions, r.passed, r.sections, r.section_marks, r.seconds_taken,
      r.submitted_at::text as submitted_at,
      ${wallClockSql("r.submitted_at", "drive.time_zone")} as submitted_local, r.auto_submitted, drive.drive_name,
      drive.test_name
    from ranked r
    join students s on s.id = r.student_id
    cross join drive
    where ${shortlistFilters(query, { groups: false })}
    order by r.rank, s.name, r.id`;
}

/**
 * The drive `drive` (an alias of a drives row) has final ranks: it has settled, and every attempt is in. One whose
 * time is up but that nothing has closed yet (the sweep comes every few seconds) can take no answer, but it is not
 * ranked yet, and would appear in a shortlist taken a moment later.
 */
export function finalSql(drive: string): string {
  return `(case when ${settledSql(drive)}
    then not exists (select 1 from attempts open where open.drive_id = ${drive}.id and open.submitted_at is null)
    else false end)`;
}

/**
 * Whether the drive's ranks are final, how many attempts are not in yet, whether its test has a pass mark, and,
 * once final, a version of its submitted attempts (how many, and the latest submission): what is ranked changes
 * only with it, through a registration removed with its attempts or a reopening. Not read while provisional: the
 * default drive never closes, and counting its attempts at every scorecard would cost for nothing.
 */
export async function rankingState(db: Executor, driveId: string) {
  const { rows } = await db.execute<{
    final: boolean;
    unfinished: number;
    has_pass_mark: boolean;
    version: string | null;
    tie_break_sections: string[];
  }>(sql`
    select state.final, state.has_pass_mark, state.unfinished, state.tie_break_sections,
      -- The ranks change with the sections that break ties too.
      case when state.final then (select count(*) || ':' || coalesce(max(a.submitted_at)::text, '') from attempts a
        where a.drive_id = ${driveId} and a.submitted_at is not null)
        || ':' || array_to_string(state.tie_break_sections, ',') end as version
    from (
      select ${sql.raw(finalSql("d"))} as final, t.pass_mark is not null as has_pass_mark, d.tie_break_sections,
        (select count(*)::int from attempts open where open.drive_id = d.id and open.submitted_at is null)
          as unfinished
      from drives d join tests t on t.id = d.test_id
      where d.id = ${driveId}
    ) state`);
  return rows[0];
}

/** Where a candidate's ranked attempt stands: their rank among how many, and percentile. */
export interface Standing {
  rank: number;
  candidates: number;
  percentile: string;
  /** Another candidate has the same rank. */
  shared: boolean;
}

/** Every ranked attempt of the drive with where it stands, by attempt: an attempt missing is not its candidate's best. */
export async function driveStandings(db: Executor, driveId: string): Promise<Map<string, Standing>> {
  const { rows } = await db.execute<{
    id: string;
    rank: number;
    percentile: string;
    candidates: number;
    shared: boolean;
  }>(sql`
    with ${rankedSql(driveId)}
    select r.id, r.rank::int as rank, r.percentile, (count(*) over ())::int as candidates,
      count(*) over (partition by r.rank) > 1 as shared
    from ranked r`);
  return new Map(rows.map(({ id, ...standing }) => [id, standing]));
}

/**
 * The drive's ranking as the page shows it: the first rows of the shortlist and every college and branch's counts,
 * from one ranking in one statement (one connection, however large the drive).
 */
export async function driveRanking(db: Executor, driveId: string, query: ShortlistQuery): Promise<Ranking> {
  const state = await rankingState(db, driveId);
  const { rows } = await db.execute<{ rows: RankedRecord[] | null; groups: Ranking["groups"] | null }>(sql`
    with ${rankedSql(driveId)},
    page as (
      select r.rank::int as rank, r.percentile, r.id, r.student_id, s.name, s.email, s.phone, s.usn_no, s.college,
        s.course, s.year, r.marks, r.total_questions, r.passed, r.sections, r.section_marks, r.seconds_taken,
        r.submitted_at, r.auto_submitted
      from ranked r join students s on s.id = r.student_id
      where ${shortlistFilters(query, { groups: false })}
      order by r.rank, s.name, r.id
      limit ${RANKING_ROWS_SHOWN}
    ),
    groups as (
      select s.college, s.course, count(*)::int as candidates,
        (count(*) filter (where ${shortlistFilters(query, { groups: true })}))::int as shortlisted
      from ranked r join students s on s.id = r.student_id
      group by s.college, s.course
    )
    select (select json_agg(page order by page.rank, page.name, page.id) from page) as rows,
      (select json_agg(groups order by groups.college, groups.course) from groups) as groups`);
  const groups = rows[0]?.groups ?? [];
  const inGroups = groups.filter(
    (group) => (!query.college || group.college === query.college) && (!query.course || group.course === query.course),
  );
  return {
    rule: rankingRule(state?.tie_break_sections ?? []),
    final: state?.final ?? false,
    unfinished: state?.unfinished ?? 0,
    candidates: groups.reduce((sum, group) => sum + group.candidates, 0),
    hasPassMark: state?.has_pass_mark ?? false,
    shortlisted: inGroups.reduce((sum, group) => sum + group.shortlisted, 0),
    groups,
    rows: (rows[0]?.rows ?? []).map((row) => ({
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
      sections: sectionResultsOf(row.sections, row.section_marks),
      secondsTaken: row.seconds_taken,
      submittedAt: new Date(row.submitted_at).toISOString(),
      autoSubmitted: row.auto_submitted,
    })),
  };
}

/** How many shortlisted candidates the CSV fetches from its cursor at a time. */
const SHORTLIST_BATCH = 1000;

/**
 * Every shortlisted candidate in rank order, in batches from one cursor in one read-only snapshot: the drive is
 * ranked once, and a submission arriving meanwhile can neither list a candidate twice nor leave one out (paged
 * batch by batch, each ranking again, an outside attack saw both). Holds one connection until the last batch, or
 * until the reader stops early.
 */
export async function* shortlistBatches(pool: pg.Pool, driveId: string, query: ShortlistQuery) {
  const statement = new PgDialect().sqlToQuery(shortlistSql(driveId, query));
  const client = await pool.connect();
  let open = false;
  try {
    await client.query("begin isolation level repeatable read read only");
    open = true;
    await client.query(`declare shortlist no scroll cursor for ${statement.sql}`, statement.params);
    for (;;) {
      const { rows } = await client.query<RankedRecord>(`fetch ${SHORTLIST_BATCH} from shortlist`);
      if (rows.length > 0) yield rows;
      if (rows.length < SHORTLIST_BATCH) break;
    }
    await client.query("commit");
    open = false;
  } finally {
    if (open) await client.query("rollback").catch(() => undefined);
    client.release();
  }
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
  "Time taken (s)",
  "Submitted",
  "Auto-submitted",
  "Drive",
  "Test",
  "Sections",
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
    "Score (%)": percentageCell(row.marks, row.total_questions),
    Result: row.passed === null ? "" : row.passed ? "Pass" : "Fail",
    "Time taken": formatTimeTaken(row.seconds_taken),
    // The same as a number, for a sheet to sort and add up.
    "Time taken (s)": row.seconds_taken,
    Submitted: row.submitted_local,
    "Auto-submitted": row.auto_submitted ? "Yes" : "No",
    Drive: row.drive_name,
    Test: row.test_name,
    Sections: sectionsCell(sectionResultsOf(row.sections, row.section_marks)),
  };
}
