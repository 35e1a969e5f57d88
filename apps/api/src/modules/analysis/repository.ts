// Item analysis in the database: who is in the cohort, its score statistics, and each question's facility,
// discrimination, option choices and section, and how the cohort did in each section, computed by PostgreSQL in
// three statements (docs/decisions/019).
import {
  ANALYSIS_GROUP_SHARE,
  ANALYSIS_MINIMUM_COHORT,
  type AnalysisFlag,
  type AnalysisSection,
  type ItemAnalysis,
} from "@trainwise/contract/analysis";
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { renderOptionText, renderQuestionText } from "../../rich-text/render.ts";
import { releaseAtSql, releasedSql } from "../drives/key-release.ts";

export type AnalysisScope = { kind: "drive"; id: string } | { kind: "test"; id: string };

/**
 * The submitted attempts analysed, newest first and at most this many: a test given for years still answers in
 * bounded time, and its latest cohorts are the ones that tell about the questions as they are now.
 */
export const ANALYSIS_MAX_ATTEMPTS = 20_000;

function scopeCondition(scope: AnalysisScope): SQL {
  return scope.kind === "drive"
    ? sql`a.drive_id = ${scope.id}`
    : sql`a.drive_id in (select id from drives where test_id = ${scope.id})`;
}

/**
 * The cohort with each attempt's group. Scores are marks (negative marking applied) as a share of the
 * attempt's questions, so drives of different lengths rank together. One order ranks everyone (score down,
 * then the attempt's id up): the first ceil(0.27 n) places are the upper group and the last as many the lower,
 * so ties at a boundary are split the same way on every run and the groups never share an attempt; below the
 * minimum cohort nobody is grouped.
 */
function cohort(scope: AnalysisScope): SQL {
  return sql`
    scoped as (
      select a.id, coalesce(a.marks, a.score, 0)::float8 / nullif(a.total_questions, 0) * 100 as percent,
             a.score
      from attempts a
      where a.submitted_at is not null and ${scopeCondition(scope)}
      order by a.submitted_at desc, a.id desc
      limit ${ANALYSIS_MAX_ATTEMPTS}
    ),
    ranked as (
      select id, percent, score,
             row_number() over (order by percent desc nulls last, id) as place,
             count(*) over () as n
      from scoped
    ),
    grouped as (
      select id, percent, score,
             case when n < ${ANALYSIS_MINIMUM_COHORT} then null
                  when place <= ceil(${ANALYSIS_GROUP_SHARE}::numeric * n) then 'upper'
                  when place > n - ceil(${ANALYSIS_GROUP_SHARE}::numeric * n) then 'lower'
             end as grp
      from ranked
    )`;
}

type SummaryRow = {
  attempts: number;
  mean: number | null;
  median: number | null;
  sd: number | null;
  score_variance: number | null;
  group_size: number;
};

type QuestionRow = {
  question_id: string;
  text: string;
  category: string;
  retired: boolean;
  served: number;
  right_count: number;
  upper_served: number;
  upper_right: number;
  lower_served: number;
  lower_right: number;
  answered: number;
  section: string | null;
  options: { _id: string; text: string; isCorrect: boolean; chosen: number }[];
};

type SectionRow = {
  name: string;
  attempts: number;
  mean: number | null;
  median: number | null;
  met_cut_off: number | null;
};

async function summaryOf(db: Executor, scope: AnalysisScope): Promise<SummaryRow> {
  const { rows } = await db.execute<SummaryRow>(sql`
    with ${cohort(scope)}
    select count(*)::int as attempts,
           avg(percent) as mean,
           percentile_cont(0.5) within group (order by percent) as median,
           stddev_samp(percent) as sd,
           var_pop(score) as score_variance,
           count(*) filter (where grp = 'upper')::int as group_size
    from grouped`);
  const row = rows[0];
  if (!row) throw new Error("The analysis summary returned no row.");
  return row;
}

/**
 * The options an answer chose, as an array: the one place that reads what a student picked. An answer holding
 * several options (a multiple-answer question) holds them in `selected_option_ids`; the counts below take each
 * option chosen, and "not answered" is an answer that chose none.
 */
const CHOSEN_OPTIONS = sql`array_remove(coalesce(aq.selected_option_ids, array[aq.selected_option_id]), null)`;

/**
 * Each section an attempt of the cohort (`a`, joined to the cohort) was served, with its place among the attempt's
 * sections (`n`, from 1) and the positions it covers, from first_position up to but not including end_position: an
 * attempt's positions follow its sections in order, so a served question's section is found from the counts
 * (decision 034). None for an attempt without sections.
 */
export const SERVED_SECTIONS = sql`
  cross join lateral (
    select x.value, x.n,
           sum((x.value->>'questionCount')::int) over (order by x.n) - (x.value->>'questionCount')::int
             as first_position,
           sum((x.value->>'questionCount')::int) over (order by x.n) as end_position
    from jsonb_array_elements(case when jsonb_typeof(a.sections) = 'array' then a.sections else '[]'::jsonb end)
         with ordinality x(value, n)
  ) s`;

/**
 * Every question served in the cohort with its counts overall and in each group, the section most attempts served
 * it in, and each of its options with how many attempts chose it. Two passes over the cohort's served questions,
 * each aggregated as it is read (nothing the size of the cohort's answers is kept), then one row per question.
 */
async function questionsOf(db: Executor, scope: AnalysisScope): Promise<QuestionRow[]> {
  const { rows } = await db.execute<QuestionRow>(sql`
    with ${cohort(scope)},
    attempt_sections as (
      select g.id as attempt_id, s.value->>'name' as name, s.first_position, s.end_position
      from grouped g
      join attempts a on a.id = g.id
      ${SERVED_SECTIONS}
    ),
    per_question as (
      select aq.question_id,
             count(*)::int as served,
             count(*) filter (where aq.is_correct)::int as right_count,
             count(*) filter (where g.grp = 'upper')::int as upper_served,
             count(*) filter (where g.grp = 'upper' and aq.is_correct)::int as upper_right,
             count(*) filter (where g.grp = 'lower')::int as lower_served,
             count(*) filter (where g.grp = 'lower' and aq.is_correct)::int as lower_right,
             count(*) filter (where cardinality(${CHOSEN_OPTIONS}) > 0)::int as answered,
             -- The most frequent section (nulls, served without sections, are not counted); on a tie, the first
             -- name in alphabetical order, so the report does not change from one run to the next.
             mode() within group (order by sec.name) as section
      from grouped g
      join attempt_questions aq on aq.attempt_id = g.id
      left join attempt_sections sec
        on sec.attempt_id = aq.attempt_id and aq.position >= sec.first_position and aq.position < sec.end_position
      group by aq.question_id
    ),
    per_option as (
      select chosen.option_id, count(*)::int as chosen
      from grouped g
      join attempt_questions aq on aq.attempt_id = g.id
      cross join lateral unnest(${CHOSEN_OPTIONS}) as chosen(option_id)
      group by chosen.option_id
    )
    select q.id as question_id, q.text, q.category, q.archived_at is not null as retired,
           pq.served, pq.right_count, pq.upper_served, pq.upper_right, pq.lower_served, pq.lower_right, pq.answered,
           pq.section,
           (select coalesce(json_agg(json_build_object('_id', o.id, 'text', o.text, 'isCorrect', o.is_correct,
                                                       'chosen', coalesce(po.chosen, 0)) order by o.position),
                            '[]'::json)
              from question_options o left join per_option po on po.option_id = o.id
              where o.question_id = q.id) as options
    from per_question pq
    join questions q on q.id = pq.question_id
    order by q.created_at, q.id`);
  return rows;
}

/** The test the scope reads: the drive's, or the test itself. */
function scopeTest(scope: AnalysisScope): SQL {
  return scope.kind === "drive" ? sql`(select test_id from drives where id = ${scope.id})` : sql`${scope.id}`;
}

/**
 * How the cohort did in each section, from each attempt's own copy of its sections and its marks in each: a share
 * is the section's marks over the questions the attempt was served in it. Sections are matched by name across
 * attempts. A test's drives may hold attempts from before an edit of its sections, so the order is the test's
 * current one, then the sections it no longer has by the earliest place an attempt was served them, then by name.
 */
async function sectionsOf(db: Executor, scope: AnalysisScope): Promise<SectionRow[]> {
  const { rows } = await db.execute<SectionRow>(sql`
    with ${cohort(scope)},
    served as (
      select s.value->>'name' as name, s.n,
             (m.value->>'marks')::float8 / nullif((s.value->>'questionCount')::float8, 0) * 100 as percent,
             s.value->>'cutOff' is not null as has_cut_off,
             (m.value->>'metCutOff')::boolean as met
      from grouped g
      join attempts a on a.id = g.id
      ${SERVED_SECTIONS}
      left join lateral (
        select marked.value
        from jsonb_array_elements(case when jsonb_typeof(a.section_marks) = 'array' then a.section_marks
                                       else '[]'::jsonb end) with ordinality marked(value, n)
        where marked.n = s.n
      ) m on true
    ),
    current_order as (
      select c.value->>'name' as name, c.n
      from tests t cross join jsonb_array_elements(t.sections) with ordinality c(value, n)
      where t.id = ${scopeTest(scope)}
    )
    select sv.name, count(*)::int as attempts,
           avg(sv.percent) as mean,
           percentile_cont(0.5) within group (order by sv.percent) as median,
           case when bool_or(sv.has_cut_off) then (count(*) filter (where sv.met))::int end as met_cut_off
    from served sv
    left join current_order co on co.name = sv.name
    group by sv.name
    order by min(co.n) nulls last, min(sv.n), sv.name`);
  return rows;
}

const percentOf = (part: number, whole: number) => (whole > 0 ? round((part / whole) * 100, 2) : 0);
const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
const figure = (value: number | string | null) => (value === null ? null : round(Number(value), 2));

function flagsOf(row: QuestionRow, discrimination: number | null): AnalysisFlag[] {
  const flags: AnalysisFlag[] = [];
  if (discrimination !== null && discrimination < 0) flags.push("negative_discrimination");
  if (row.served >= ANALYSIS_MINIMUM_COHORT && row.right_count === 0) flags.push("nobody_right");
  if (row.served >= ANALYSIS_MINIMUM_COHORT && row.right_count === row.served) flags.push("everyone_right");
  return flags;
}

/**
 * D = p(upper) − p(lower) over the attempts of each group that were served the question; not given when the
 * cohort is below the minimum, the question was served fewer times than that, or a group never saw it.
 */
function discriminationOf(row: QuestionRow, groupSize: number): number | null {
  if (groupSize === 0 || row.served < ANALYSIS_MINIMUM_COHORT) return null;
  if (row.upper_served === 0 || row.lower_served === 0) return null;
  return round(row.upper_right / row.upper_served - row.lower_right / row.lower_served, 2);
}

/**
 * KR-20 = k/(k−1) · (1 − Σ p·q / σ²) over right/wrong items, meaningful only when every attempt answered the
 * same k questions (a fixed paper); with questions drawn at random per student it is left out.
 */
function kr20Of(summary: SummaryRow, rows: QuestionRow[]): number | null {
  const k = rows.length;
  const variance = summary.score_variance === null ? 0 : Number(summary.score_variance);
  if (summary.attempts < ANALYSIS_MINIMUM_COHORT || k < 2 || variance <= 0) return null;
  if (rows.some((row) => row.served !== summary.attempts)) return null;
  const itemVariance = rows.reduce((sum, row) => {
    const p = row.right_count / row.served;
    return sum + p * (1 - p);
  }, 0);
  return round((k / (k - 1)) * (1 - itemVariance / variance), 2);
}

export async function itemAnalysis(
  db: Executor,
  scope: AnalysisScope,
): Promise<Pick<ItemAnalysis, "summary" | "questions">> {
  const [summary, rows, sections] = await Promise.all([
    summaryOf(db, scope),
    questionsOf(db, scope),
    sectionsOf(db, scope),
  ]);
  const groupSize = summary.group_size;
  return {
    summary: {
      attempts: summary.attempts,
      mean: figure(summary.mean),
      median: figure(summary.median),
      standardDeviation: figure(summary.sd),
      kr20: kr20Of(summary, rows),
      groupSize,
      minimumCohort: ANALYSIS_MINIMUM_COHORT,
      sections: sections.map(
        (section): AnalysisSection => ({
          name: section.name,
          attempts: section.attempts,
          mean: figure(section.mean),
          median: figure(section.median),
          metCutOff: section.met_cut_off,
        }),
      ),
    },
    questions: rows.map((row) => {
      const discrimination = discriminationOf(row, groupSize);
      return {
        questionId: row.question_id,
        text: row.text,
        html: renderQuestionText(row.text),
        category: row.category,
        retired: row.retired,
        served: row.served,
        right: row.right_count,
        facility: percentOf(row.right_count, row.served),
        discrimination,
        upper: { served: row.upper_served, right: row.upper_right },
        lower: { served: row.lower_served, right: row.lower_right },
        notAnswered: row.served - row.answered,
        notAnsweredShare: percentOf(row.served - row.answered, row.served),
        options: row.options.map((option) => ({
          ...option,
          html: renderOptionText(option.text),
          share: percentOf(option.chosen, row.served),
        })),
        flags: flagsOf(row, discrimination),
        section: row.section,
      };
    }),
  };
}

/**
 * Where the report's keys stand (decision 024): whether every drive it reads (the drive; a test's drives with a
 * submitted attempt) has released its key, whether one that has not is a secure test's, and when the last of them
 * releases (null while one has no closing time).
 */
export async function scopeKeyRelease(db: Executor, scope: AnalysisScope) {
  const { rows } = await db.execute<{ released: boolean; secure_pending: boolean; release_at: string | null }>(sql`
    with scoped as (
      select ${sql.raw(releasedSql("d"))} as released, ${sql.raw(releaseAtSql("d"))} as release_at,
             (t.secure or exists (select 1 from attempts sa where sa.drive_id = d.id and sa.secure)) as secure
      from drives d join tests t on t.id = d.test_id
      where ${
        scope.kind === "drive"
          ? sql`d.id = ${scope.id}`
          : sql`d.test_id = ${scope.id}
              and exists (select 1 from attempts a where a.drive_id = d.id and a.submitted_at is not null)`
      }
    )
    select coalesce(bool_and(released), true) as released,
           coalesce(bool_or(secure and not released), false) as secure_pending,
           case when bool_or(release_at is null and not released) then null else max(release_at) end as release_at
    from scoped`);
  const row = rows[0];
  return {
    released: row?.released ?? true,
    securePending: row?.secure_pending ?? false,
    releaseAt: row?.release_at ? new Date(row.release_at) : null,
  };
}

/** The drive or test named, with its test, for the report's heading; undefined when there is none. */
export async function scopeNames(db: Executor, scope: AnalysisScope) {
  const { rows } = await db.execute<{ name: string; test_id: string; test_name: string }>(
    scope.kind === "drive"
      ? sql`select d.name, t.id as test_id, t.name as test_name from drives d join tests t on t.id = d.test_id
            where d.id = ${scope.id}`
      : sql`select t.name, t.id as test_id, t.name as test_name from tests t where t.id = ${scope.id}`,
  );
  const row = rows[0];
  return row && { name: row.name, testId: row.test_id, testName: row.test_name };
}

/**
 * Retires a question (no longer drawn for new attempts, marked in the report) or brings it back. It is the
 * archive a referenced question's deletion already uses, so the bank, the draws and the counts all leave it out
 * without a second notion. False when there is no such question.
 */
export async function setQuestionRetired(db: Executor, id: string, retired: boolean): Promise<boolean> {
  const { rows } = await db.execute<{ id: string }>(sql`
    update questions set archived_at = ${retired ? sql`coalesce(archived_at, now())` : sql`null`}
    where id = ${id}
    returning id`);
  return rows.length > 0;
}
