// The answer-timing signals (packages/contract/src/answer-timing.ts) in SQL, for the lists that show them for
// thousands of attempts (the results export, a drive's results and their CSV, the live board): PostgreSQL counts
// them beside the row, where sending each attempt's answer times as JSON to be read and judged here cost this
// thread about half of a results export's CPU. The rule is written twice, so a property test runs both on
// generated answers (answer-timing-sql.test.ts).
import { ANSWER_TIMING } from "@trainwise/contract/answer-timing";
import { type SQL, sql } from "drizzle-orm";

const LATE_SHARE = sql.raw(String(ANSWER_TIMING.lateShare));
const BURST_GAP = `interval '${ANSWER_TIMING.burstGapSeconds} seconds'`;

/** The save time of the answer `offset` places after this one in the attempt's order (before, when negative). */
function savedAt(offset: number): string {
  if (offset === 0) return "saved";
  return offset < 0 ? `lag(saved, ${-offset}) over w` : `lead(saved, ${offset}) over w`;
}

/**
 * Whether an answer is in a run of at least `burstRun` close answers: some stretch of that many answers holding
 * it has every neighbour close to the next (for three: the two links before it, one on each side, or the two
 * after it). Close means saved less than the gap apart, compared to the millisecond as the result page's Date
 * values are; a missing neighbour is not close.
 */
function inBurstSql(): string {
  const run = ANSWER_TIMING.burstRun;
  const stretches = Array.from({ length: run }, (_, back) => {
    const first = back - (run - 1);
    return Array.from({ length: run - 1 }, (_, link) => {
      const earlier = savedAt(first + link);
      const later = savedAt(first + link + 1);
      return `${later} - ${earlier} < ${BURST_GAP}`;
    }).join(" and ");
  });
  return `coalesce(saved is not null and (${stretches.map((stretch) => `(${stretch})`).join(" or ")}), false)`;
}

/**
 * `answers` with each row's `in_burst`: a relation with `answered_at` (timestamptz), `ms_to_answer` (int) and
 * `position` (int, unique: it orders answers saved in the same instant), one row per served question as
 * `answerTimingSignals` takes them, and any other columns, which are kept. Read once: late answers and bursts
 * are then counted from the same rows (`lateAnswersSql`, `BURST_ANSWERS_SQL`) beside anything else summed there;
 * each further read of an attempt's questions raised the planner's estimate past PostgreSQL's threshold for
 * compiling a query (an outside review measured the board's read 2.6 times slower with JIT on).
 */
export function withBurstsSql(answers: SQL): SQL {
  return sql`(select timed.*, ${sql.raw(inBurstSql())} as in_burst
      from (select answer.*, date_trunc('milliseconds', answer.answered_at) as saved from ${answers} answer) timed
      window w as (order by timed.saved, timed.position))`;
}

/** The seconds a question of the attempt `a`, when it is timed per question (else null): `lateAnswersSql`'s argument. */
export const PACED_SECONDS_OF_ATTEMPT = sql`case when a.paced then a.seconds_per_question end`;

/** An aggregate over `withBurstsSql`'s rows: the late answers; null unless `secondsPerQuestion` is (paced). */
export function lateAnswersSql(secondsPerQuestion: SQL): SQL {
  return sql`(case when (${secondsPerQuestion}) is not null then
      count(*) filter (where ms_to_answer >= ${LATE_SHARE} * (${secondsPerQuestion}) * 1000) end)::int`;
}

/** An aggregate over `withBurstsSql`'s rows: the answers in a burst. */
export const BURST_ANSWERS_SQL = sql`(count(*) filter (where in_burst))::int`;
