// The attempt's clock in SQL, written once: the arithmetic of timing.ts (the reference) as fragments that the
// one-statement paths in clock-statements.ts and the start in attempt-start.ts put into their named statements,
// so that the rules are checked where the row is locked, in one round trip (decisions 004, 006).
// clock-sql.test.ts runs these fragments and timing.ts on generated clocks and compares them.
//
// Each fragment is SQL text built from SQL expressions (column names, `$n::type` parameters), so a statement's
// text stays fixed and PostgreSQL plans it once per connection.

/** Where a statement reads an attempt's clock: the columns of `attempts`, under the alias they have there. */
export interface ClockColumns {
  currentPosition: string;
  currentStartedAt: string;
  secondsPerQuestion: string;
  totalQuestions: string;
  paced: string;
  deadlineAt: string;
}

/** The clock's columns read through `alias` (a table or CTE of the statement), or unqualified without one. */
export function clockColumns(alias?: string): ClockColumns {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return {
    currentPosition: column("current_position"),
    currentStartedAt: column("current_started_at"),
    secondsPerQuestion: column("seconds_per_question"),
    totalQuestions: column("total_questions"),
    paced: column("paced"),
    deadlineAt: column("deadline_at"),
  };
}

/**
 * A new attempt's deadline: every question's window back to back from the start. No window of a paced attempt
 * ends after it, since Next only ever brings windows forward.
 */
export function deadlineSql(values: { startedAt: string; totalQuestions: string; secondsPerQuestion: string }) {
  return `${values.startedAt} + make_interval(secs => ${values.totalQuestions} * ${values.secondsPerQuestion})`;
}

/**
 * A deadline cut at `endsBy` when that comes first: a drive whose closing ends running attempts (null: no cut;
 * PostgreSQL's least passes over a null).
 */
export function endsByCloseSql(deadline: string, endsBy: string) {
  return `least(${deadline}, ${endsBy})`;
}

/**
 * The question open at `now` on a paced clock (readClock's position): the current one and one more for every
 * whole window since it started, `totalQuestions` once every window has closed. (Before `currentStartedAt`,
 * which only a server clock behind another's can ask about, this counts a question back where readClock stays
 * on the current one.)
 */
export function positionNowSql(clock: ClockColumns, now: string) {
  // A deadline cut by the drive's closing can end the attempt before its last window does (readClock).
  return `case when ${now} >= ${clock.deadlineAt} then ${clock.totalQuestions} else least(
      ${clock.currentPosition}
        + floor(extract(epoch from (${now} - ${clock.currentStartedAt})) / ${clock.secondsPerQuestion})::int,
      ${clock.totalQuestions}
    ) end`;
}

/** When the window of `position` opens (or opened) on a paced clock: windowStart. */
export function windowStartSql(clock: ClockColumns, position: string) {
  const offset = `(${position} - ${clock.currentPosition}) * ${clock.secondsPerQuestion}`;
  return `${clock.currentStartedAt} + make_interval(secs => ${offset})`;
}

/** `now` is not past the attempt's deadline, or past it by no more than `graceSeconds` when given. */
export function beforeDeadlineSql(clock: ClockColumns, now: string, graceSeconds?: string) {
  const deadline = graceSeconds ? `${clock.deadlineAt} + make_interval(secs => ${graceSeconds})` : clock.deadlineAt;
  return `${now} <= ${deadline}`;
}

/**
 * Whether an answer to the served question at `position` (never negative) arriving at `now` counts
 * (acceptsAnswer): on a paced attempt its window is open, or closed no more than `graceSeconds` ago, and the
 * attempt has not moved past it; an attempt timed as a whole takes answers until its deadline and the grace. The
 * deadline is checked on a paced attempt too, where it never decides, since every window ends by it.
 * `windowStart` is the window's start when the statement has already computed it.
 */
export function acceptsAnswerSql(
  clock: ClockColumns,
  answer: { position: string; now: string; graceSeconds: string; windowStart?: string },
) {
  const { position, now, graceSeconds } = answer;
  const start = answer.windowStart ?? windowStartSql(clock, position);
  return `${position} < ${clock.totalQuestions} and ${beforeDeadlineSql(clock, now, graceSeconds)}
      and (not ${clock.paced} or (${position} >= ${clock.currentPosition}
        and ${now} >= ${start}
        and ${now} <= ${start} + make_interval(secs => ${clock.secondsPerQuestion} + ${graceSeconds})))`;
}

/**
 * Whether the attempt's time is up at `now` (hasRunOut): its last window or its deadline, whichever comes
 * first, and the grace after it have passed. Until then an answer to the last question still counts. (The last
 * window of an attempt timed as a whole, which never moves, ends at its deadline.)
 */
export function runOutSql(clock: ClockColumns, now: string, graceSeconds: string) {
  return `least(
        ${clock.deadlineAt},
        ${windowStartSql(clock, clock.totalQuestions)}
      ) + make_interval(secs => ${graceSeconds}) < ${now}`;
}

/**
 * Whether the submitted attempt (alias `alias`, with the columns clockColumns names) was submitted once its time
 * was up (runOutSql at its submit, without the grace): by the quiz page's timer or the server's sweep, not by the
 * student. The live board, the results and their exports all ask this one expression.
 */
export function autoSubmittedSql(alias: string): string {
  return `coalesce(${alias}.submitted_at is not null and ${runOutSql(clockColumns(alias), `${alias}.submitted_at`, "0")}, false)`;
}
