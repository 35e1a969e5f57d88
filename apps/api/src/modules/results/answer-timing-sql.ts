// The answer-timing signals (packages/contract/src/answer-timing.ts) in SQL, for the lists that show them for
// thousands of attempts (the results export, a drive's results and their CSV): PostgreSQL counts them beside the
// row, where sending each attempt's answer times as JSON to be read and judged here cost this thread about half
// of a results export's CPU. The rule is written twice, so a property test runs both on generated answers
// (answer-timing-sql.test.ts).
import { ANSWER_TIMING } from "@trainwise/contract/answer-timing";
import { type SQL, sql } from "drizzle-orm";

const LATE_SHARE = sql.raw(String(ANSWER_TIMING.lateShare));
const BURST_GAP = sql.raw(`interval '${ANSWER_TIMING.burstGapSeconds} seconds'`);
const BURST_RUN = sql.raw(String(ANSWER_TIMING.burstRun));

/**
 * A query of one row, `late_answers` and `burst_answers`, over `answers`: a relation with `answered_at`
 * (timestamptz), `ms_to_answer` (int) and `position` (int, unique: it orders answers saved in the same instant),
 * one row per served question as `answerTimingSignals` takes them. `secondsPerQuestion` is null unless the attempt
 * is timed per question (then `late_answers` is null too).
 */
export function answerTimingSignalsSql(answers: SQL, secondsPerQuestion: SQL): SQL {
  // Gaps and islands: an answer more than the gap after the one before starts a run; a run's number is how many
  // runs started up to it; the runs of at least `burstRun` answers are bursts.
  return sql`select
      case when ${secondsPerQuestion} is not null then (
        select count(*) from ${answers} timed
        where timed.ms_to_answer >= ${LATE_SHARE} * ${secondsPerQuestion} * 1000
      )::int end as late_answers,
      (select coalesce(sum(run_length) filter (where run_length >= ${BURST_RUN}), 0)::int
        from (select count(*) as run_length
          from (select sum(starts_run) over (order by answered_at, position rows unbounded preceding) as run
            from (select answered_at, position,
                case when answered_at - lag(answered_at) over (order by answered_at, position) < ${BURST_GAP}
                  then 0 else 1 end as starts_run
              from ${answers} arrived where arrived.answered_at is not null) gaps) runs
          group by run) run_lengths) as burst_answers`;
}
