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
  paced: string;
  /** The open section's bounds (timing.ts's AttemptClock): every position and the deadline without sections. */
  sectionFirst: string;
  sectionEnd: string;
  sectionDeadlineAt: string;
}

/**
 * The clock's columns read through `alias` (a table or CTE of the statement), or unqualified without one. An
 * attempt not timed per section keeps no section of its own (null): its one section is every position, until its
 * deadline.
 */
export function clockColumns(alias?: string): ClockColumns {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return {
    currentPosition: column("current_position"),
    currentStartedAt: column("current_started_at"),
    secondsPerQuestion: column("seconds_per_question"),
    paced: column("paced"),
    sectionFirst: column("section_first"),
    sectionEnd: `coalesce(${column("section_end")}, ${column("total_questions")})`,
    sectionDeadlineAt: `coalesce(${column("section_deadline_at")}, ${column("deadline_at")})`,
  };
}

/**
 * The clock's columns of `alias` as a select list under their own names, the open section's filled in
 * (clockColumns), with what clockColumns reads them from, for a statement's CTE that reads the attempt.
 */
export function clockSelectSql(alias?: string) {
  const clock = clockColumns(alias);
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return `${clock.currentPosition}, ${clock.currentStartedAt}, ${clock.secondsPerQuestion}, ${clock.paced},
    ${clock.sectionFirst}, ${clock.sectionEnd} as section_end, ${clock.sectionDeadlineAt} as section_deadline_at,
    ${column("total_questions")}, ${column("deadline_at")}`;
}

/**
 * An attempt's deadline, `seconds` after its start: every question's window back to back (sectionsSecondsSql for
 * an attempt timed per section). No window of a paced attempt ends after it, since Next only ever brings windows
 * forward, nor does a section, since leaving one early only brings the next forward.
 */
export function deadlineSql(values: { startedAt: string; seconds: string }) {
  return `${values.startedAt} + make_interval(secs => ${values.seconds})`;
}

/**
 * The seconds sections of an attempt timed per section are given (timing.ts's sectionsSeconds), from the sections
 * it was served (`attempts.sections` under `alias`): each section's questions times its seconds per question, over
 * the sections whose first position is from `first` up to before `end` (SQL integer expressions).
 */
export function sectionsSecondsSql(alias: string, first: string, end: string) {
  return `(select coalesce(sum(x.seconds), 0) from (
      select (s.value->>'questionCount')::int * (s.value->>'secondsPerQuestion')::int as seconds,
             sum((s.value->>'questionCount')::int) over (order by s.ordinality) - (s.value->>'questionCount')::int
               as first
      from jsonb_array_elements(${alias}.sections) with ordinality s) x
    where x.first >= ${first} and x.first < ${end})`;
}

/** The seconds of the sections from position `first` on (sectionsSecondsSql to the end): a section and those after. */
export function sectionsFromSecondsSql(alias: string, first: string) {
  // The largest position PostgreSQL's int holds: no section starts after it.
  return sectionsSecondsSql(alias, first, "2147483647");
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
 * whole window since it started, the open section's end once every window of it has closed; before
 * `currentStartedAt` (time added moved it later), the current one.
 */
export function positionNowSql(clock: ClockColumns, now: string) {
  // A deadline cut by the drive's closing can end the attempt before its last window does (readClock).
  return `case when ${now} >= ${clock.sectionDeadlineAt} then ${clock.sectionEnd} else least(
      ${clock.currentPosition} + greatest(0,
        floor(extract(epoch from (${now} - ${clock.currentStartedAt})) / ${clock.secondsPerQuestion})::int),
      ${clock.sectionEnd}
    ) end`;
}

/** When the window of `position` opens (or opened) on a paced clock: windowStart. */
export function windowStartSql(clock: ClockColumns, position: string) {
  const offset = `(${position} - ${clock.currentPosition}) * ${clock.secondsPerQuestion}`;
  return `${clock.currentStartedAt} + make_interval(secs => ${offset})`;
}

/** `now` is not past the open section's deadline, or past it by no more than `graceSeconds` when given. */
export function beforeDeadlineSql(clock: ClockColumns, now: string, graceSeconds?: string) {
  const deadline = graceSeconds
    ? `${clock.sectionDeadlineAt} + make_interval(secs => ${graceSeconds})`
    : clock.sectionDeadlineAt;
  return `${now} <= ${deadline}`;
}

/**
 * Whether an answer to the served question at `position` arriving at `now` counts (acceptsAnswer): it is in the
 * open section, and on a paced attempt its window is open (the current one until it ends, even before its start),
 * or closed no more than `graceSeconds` ago, and the attempt has not moved past it; an attempt timed as a whole
 * takes answers until its deadline and the grace. The deadline is checked on a paced attempt too, where it never
 * decides, since every window ends by it.
 * `windowStart` is the window's start when the statement has already computed it.
 */
export function acceptsAnswerSql(
  clock: ClockColumns,
  answer: { position: string; now: string; graceSeconds: string; windowStart?: string },
) {
  const { position, now, graceSeconds } = answer;
  const start = answer.windowStart ?? windowStartSql(clock, position);
  return `${position} >= ${clock.sectionFirst} and ${position} < ${clock.sectionEnd}
      and ${beforeDeadlineSql(clock, now, graceSeconds)}
      and (not ${clock.paced} or (${position} >= ${clock.currentPosition}
        and (${position} = ${clock.currentPosition} or ${now} >= ${start})
        and ${now} <= ${start} + make_interval(secs => ${clock.secondsPerQuestion} + ${graceSeconds})))`;
}

/** When the open section's time ends (sectionEndsAt): its last window's end (paced) or its deadline, the first. */
export function sectionEndsAtSql(clock: ClockColumns) {
  return `case when ${clock.paced} then least(${clock.sectionDeadlineAt}, ${windowStartSql(clock, clock.sectionEnd)})
    else ${clock.sectionDeadlineAt} end`;
}

/**
 * Whether the open section's time is up at `now` (hasRunOut): its last window or its deadline, whichever comes
 * first, and the grace after it have passed; in the last section (or without sections), the attempt's. Until then
 * an answer to its last question still counts. (The last window of a section on one clock, which never moves,
 * ends at its deadline.)
 */
export function runOutSql(clock: ClockColumns, now: string, graceSeconds: string) {
  return `${runsOutAtSql(clock)} + make_interval(secs => ${graceSeconds}) < ${now}`;
}

/** When the open section's time runs out (before its grace): its last window's start, or its deadline if sooner. */
export function runsOutAtSql(clock: ClockColumns): string {
  return `least(
        ${clock.sectionDeadlineAt},
        ${windowStartSql(clock, clock.sectionEnd)}
      )`;
}

/**
 * Whether the submitted attempt (alias `alias`, with the columns clockColumns names) was submitted once its time
 * was up (runOutSql at its submit, without the grace, in the section it was submitted in: the last, when it ran out): by the quiz page's timer or the server's sweep, not by the
 * student. The live board, the results and their exports all ask this one expression.
 */
export function autoSubmittedSql(alias: string): string {
  return `coalesce(${alias}.submitted_at is not null and ${runOutSql(clockColumns(alias), `${alias}.submitted_at`, "0")}, false)`;
}

/** Whether the clock is running at `now` (timing.ts's isRunning): a window (paced) or the open section is open. */
export function clockRunningSql(clock: ClockColumns, now: string) {
  return `(${now} < ${clock.sectionDeadlineAt} and (not ${clock.paced} or ${positionNowSql(clock, now)} < ${clock.sectionEnd}))`;
}

/**
 * A running clock's columns once `seconds` are added at `now` (timing.ts's withAddedTime): on a paced clock the
 * timer's position caught up and its window opened `seconds` later, on one clock its start as much later; the open
 * section's deadline and the attempt's (`deadlineAt`) `seconds` later, cut at `endsBy` (null: no cut). Each is an
 * expression of the row before the change, as an UPDATE's SET reads it.
 */
export function addedTimeSql(
  clock: ClockColumns,
  values: { deadlineAt: string; endsBy: string; now: string; seconds: string },
) {
  const { deadlineAt, endsBy, now, seconds } = values;
  const later = (moment: string) => `(${moment}) + make_interval(secs => ${seconds})`;
  const caughtUp = positionNowSql(clock, now);
  const deadline = endsByCloseSql(later(deadlineAt), endsBy);
  return {
    currentPosition: `case when ${clock.paced} then ${caughtUp} else ${clock.currentPosition} end`,
    currentStartedAt: later(
      `case when ${clock.paced} then ${windowStartSql(clock, caughtUp)} else ${clock.currentStartedAt} end`,
    ),
    sectionDeadlineAt: `least(${later(clock.sectionDeadlineAt)}, ${deadline})`,
    deadlineAt: deadline,
  };
}

/**
 * The attempt of alias `alias` belongs to a drive that is not paused (decision 039). Every statement that changes an
 * attempt, and the sweep, ask it of the database: while a drive stands paused, nothing of it changes, whichever
 * instance is asked.
 */
export function driveRunsSql(alias: string): string {
  return `not exists (select 1 from drives paused where paused.id = ${alias}.drive_id and paused.paused_at is not null)`;
}
