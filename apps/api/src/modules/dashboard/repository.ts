// The dashboard's figures, each from an aggregate query (nothing here reads a list row by row): counts, the spread
// of scores, the drives taking students right now, and how often each question was answered right lately.
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { renderQuestionText } from "../../rich-text/render.ts";

/** Drives open at this moment (not archived, not closed, past their opening), the default drive last. */
export async function openDrivesNow(db: Executor) {
  const { rows } = await db.execute<{
    id: string;
    name: string;
    organisation: string;
    closes_at: Date | null;
    time_zone: string;
    students: number;
    submitted: number;
  }>(sql`
    with open as (
      select d.id, d.name, d.organisation, d.closes_at, d.time_zone, d.is_default
      from drives d
      where d.archived_at is null and d.closed_at is null
        and (d.opens_at is null or d.opens_at <= now()) and (d.closes_at is null or d.closes_at > now())
      order by d.is_default, d.closes_at nulls last, d.name
      limit 20
    ),
    -- Counted by one pass over each table, grouped, rather than a look-up per row of each open drive.
    registered as (
      select drive_id, count(*)::int as n from students where drive_id in (select id from open) group by drive_id
    ),
    submitted as (
      select drive_id, count(*)::int as n from attempts
      where submitted_at is not null and drive_id in (select id from open) group by drive_id
    )
    select o.id, o.name, o.organisation, o.closes_at, o.time_zone, coalesce(r.n, 0) as students, coalesce(s.n, 0) as submitted
    from open o
    left join registered r on r.drive_id = o.id
    left join submitted s on s.drive_id = o.id
    order by o.is_default, o.closes_at nulls last, o.name`);
  return rows.map((row) => ({
    _id: row.id,
    name: row.name,
    organisation: row.organisation,
    closesAt: row.closes_at ? new Date(row.closes_at).toISOString() : null,
    timeZone: row.time_zone,
    students: row.students,
    submitted: row.submitted,
  }));
}

const BUCKETS = ["0–20%", "20–40%", "40–60%", "60–80%", "80–100%"];

/** How many of the latest submitted quizzes the per-question analysis reads: bounded work at any size. */
export const ANALYSIS_WINDOW = 500;

/** Counts and the spread of scores, each from one aggregate query (nothing per attempt reaches the server). */
export async function resultCounts(db: Executor) {
  const { rows } = await db.execute<{
    students: number;
    questions: number;
    submitted: number;
    average: number | null;
    buckets: number[] | null;
  }>(sql`
    select (select count(*)::int from students) as students,
           (select count(*)::int from questions where archived_at is null) as questions,
           count(*)::int as submitted,
           avg(percent) as average,
           array[
             count(*) filter (where bucket = 0), count(*) filter (where bucket = 1),
             count(*) filter (where bucket = 2), count(*) filter (where bucket = 3),
             count(*) filter (where bucket >= 4)
           ]::int[] as buckets
    from (
      select percent, floor(greatest(coalesce(percent, 0), 0) / 20)::int as bucket
      from (
        -- Marks, not right answers: negative marking and partial credit count, as on every other screen.
        select coalesce(marks, score, 0)::float / nullif(total_questions, 0) * 100 as percent
        from attempts where submitted_at is not null
      ) scored
    ) submitted`);
  const row = rows[0];
  return {
    students: row?.students ?? 0,
    submitted: row?.submitted ?? 0,
    questions: row?.questions ?? 0,
    averagePercentage: row?.average === null || row?.average === undefined ? null : Math.round(row.average * 100) / 100,
    distribution: BUCKETS.map((label, index) => ({ label, count: row?.buckets?.[index] ?? 0 })),
  };
}

/** How often each question was answered right in the latest `ANALYSIS_WINDOW` submitted quizzes, hardest first. */
export async function questionAnalysis(db: Executor) {
  // `= any(array(…))` makes PostgreSQL fetch the window's answers by the attempt index instead of hashing all
  // of them: the cost follows the window, not the table.
  const items = await db.execute<{ question_id: string; text: string; served: number; correct: number }>(sql`
    select aq.question_id, q.text, count(*)::int as served, count(*) filter (where aq.is_correct)::int as correct
    from attempt_questions aq
    join questions q on q.id = aq.question_id
    where aq.attempt_id = any(array(
      select id from attempts where submitted_at is not null order by submitted_at desc limit ${ANALYSIS_WINDOW}))
    group by aq.question_id, q.text
    order by count(*) filter (where aq.is_correct)::float / count(*), q.text`);
  return items.rows.map((row) => ({
    questionId: row.question_id,
    text: row.text,
    html: renderQuestionText(row.text),
    served: row.served,
    correct: row.correct,
    correctShare: row.served ? Math.round((row.correct / row.served) * 10000) / 100 : 0,
  }));
}

export async function resultsSummary(db: Executor) {
  return { ...(await resultCounts(db)), items: await questionAnalysis(db) };
}
