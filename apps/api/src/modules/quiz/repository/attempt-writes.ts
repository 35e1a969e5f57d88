// Changing an attempt outside the one-statement paths of clock-statements.ts: the slow path's answer and move
// (after it has worked out which rule applies), scoring and closing, and counting a lost focus.
import type { AttemptEnding } from "@trainwise/contract/drives";
import { type Executor, type NamedStatement, runNamed } from "../../../db/client.ts";
import { MARK_GRID, questionMarkSql } from "../marking.ts";
import type { AttemptClock } from "../timing.ts";
import {
  ATTEMPT_COLUMNS,
  type AttemptsOf,
  attemptRows,
  type Choice,
  paletteChangeSql,
  saveAnswerSql,
} from "./attempt-rows.ts";
import {
  addedTimeSql,
  clockColumns,
  clockRunningSql,
  deadlineSql,
  endsByCloseSql,
  runOutSql,
  sectionsFromSecondsSql,
  sectionsSecondsSql,
  windowStartSql,
} from "./clock-sql.ts";

const saveSelectedOptionStatement: NamedStatement = {
  name: "quiz.save-selected-option",
  // $3 the one option (null for a multiple answer), $5 a multiple answer's options, $6 the question's window start
  text: `update attempt_questions aq
    set ${saveAnswerSql({ optionId: "$3::uuid", optionIds: "$5::uuid[]", now: "$4::timestamptz", windowStart: "$6::timestamptz" })}
    where attempt_id = $1::uuid and position = $2::int`,
};

/** Saves an answer; `windowStart` is when the question's window opened, null unless timed per question. */
export async function saveSelectedOption(
  db: Executor,
  values: { attemptId: string; position: number; choice: Choice; now: Date; windowStart: Date | null },
) {
  const { attemptId, position, choice, now, windowStart } = values;
  await runNamed(db, saveSelectedOptionStatement, [
    attemptId,
    position,
    choice.optionId,
    now,
    choice.optionIds,
    windowStart,
  ]);
}

const moveCurrentPositionStatement: NamedStatement = {
  name: "quiz.move-current-position",
  text: "update attempts set current_position = $2::int, current_started_at = $3::timestamptz where id = $1::uuid",
};

export async function moveCurrentPosition(db: Executor, attemptId: string, position: number, startedAt: Date) {
  await runNamed(db, moveCurrentPositionStatement, [attemptId, position, startedAt]);
}

const openSectionStatement: NamedStatement = {
  name: "quiz.open-section",
  text: `update attempts set current_position = $2::int, current_started_at = $3::timestamptz,
      seconds_per_question = $4::int, paced = $5::boolean, section_first = $6::int, section_end = $7::int,
      section_deadline_at = $8::timestamptz, deadline_at = $9::timestamptz
    where id = $1::uuid`,
};

/**
 * Writes the clock of the section the attempt has moved on to (timing.ts's nextSectionClock) and the attempt's last
 * moment from it (deadlineFrom), its row locked.
 */
export async function openSection(db: Executor, attemptId: string, clock: AttemptClock, deadlineAt: Date) {
  await runNamed(db, openSectionStatement, [
    attemptId,
    clock.currentPosition,
    clock.currentStartedAt,
    clock.secondsPerQuestion,
    clock.paced,
    clock.sectionFirst,
    clock.sectionEnd,
    clock.sectionDeadlineAt,
    deadlineAt,
  ]);
}

/** Decimals a section's marks are kept to in `attempts.section_marks`, for showing; cut-offs use the exact marks. */
const SHOWN_MARK_DECIMALS = 4;

/**
 * The exact sum (numeric) of the marks `mark` (reals, each a whole number of MARK_GRID steps): the marks pass
 * and cut-offs are decided on, with a negative mark of at most NEGATIVE_MARK_DECIMALS decimals taken off.
 */
function exactCreditSql(mark: string): string {
  return `coalesce(sum(round(${mark}::float8 * ${MARK_GRID})), 0)::numeric / ${MARK_GRID}`;
}

const scoreAndCloseStatement: NamedStatement = {
  name: "quiz.score-and-close",
  // Each question's mark from the options chosen, by Moodle's rule for its kind (marking.ts, decision 018).
  // Unanswered scores nothing; an answer that scores 0 or less also costs the attempt's negative mark. The score
  // counts questions marked 1.
  text: `with chosen as (
      select aq.position, q.type, q.scoring,
             coalesce(aq.selected_option_ids, case when aq.selected_option_id is null then null
                                                   else array[aq.selected_option_id] end) as picks,
             aq.question_id
      from attempt_questions aq join questions q on q.id = aq.question_id
      where aq.attempt_id = $1::uuid
    ), graded as (
      select c.position, c.picks is not null as answered,
             ${questionMarkSql({ type: "c.type", scoring: "c.scoring", picks: "c.picks", questionId: "c.question_id" })} as mark
      from chosen c
    ), marked as (
      update attempt_questions aq set is_correct = g.mark = 1, mark = g.mark
      from graded g where aq.attempt_id = $1::uuid and aq.position = g.position
      returning aq.position, aq.is_correct, aq.mark, g.answered
    ), tally as (
      select count(*) filter (where is_correct)::int as correct,
             -- Added up in double precision, where a few hundred marks add up exactly in any order: added as
             -- reals, the same marks came to 3.9166665 or 3.9166667 as the rows came back.
             coalesce(sum(mark::float8), 0)::real as credit,
             ${exactCreditSql("mark")} as exact_credit,
             count(*) filter (where answered and mark <= 0)::int as wrong
      from marked
    ), sections as (
      -- A sectioned attempt's sections (decision 034), each up to the position before next_first.
      select s.ordinality as section, (s.value->>'questionCount')::int as question_count,
             (s.value->>'negativeMark')::numeric as negative_mark, (s.value->>'cutOff')::int as cut_off,
             sum((s.value->>'questionCount')::int) over (order by s.ordinality) as next_first
      from attempts a cross join jsonb_array_elements(a.sections) with ordinality s
      where a.id = $1::uuid
    ), section_tally as (
      -- Each section tallied as a whole attempt is, less its own negative mark, exactly.
      select s.section, count(m.position) filter (where m.is_correct)::int as correct,
             ${exactCreditSql("m.mark")}
               - s.negative_mark * count(m.position) filter (where m.answered and m.mark <= 0) as marks,
             s.question_count, s.cut_off
      from sections s left join marked m on m.position >= s.next_first - s.question_count and m.position < s.next_first
      group by s.section, s.question_count, s.cut_off, s.negative_mark
    ), section_met as (
      -- A cut-off is met by marks of at least its share of the section's questions; a section served no question
      -- meets none (a start refuses one, so this only guards).
      select st.*, case when st.cut_off is null then null
                        else st.question_count > 0 and st.marks * 100 >= st.cut_off * st.question_count end as met
      from section_tally st
    ), section_marks as (
      select sum(marks) as marks, bool_and(met) filter (where met is not null) as met_cut_offs,
             bool_or(cut_off is not null) as cut_offs,
             jsonb_agg(jsonb_build_object('score', correct, 'marks', round(marks, ${SHOWN_MARK_DECIMALS}),
               'metCutOff', met) order by section) as parts
      from section_met
    ), result as (
      -- Without sections, the marks stored are the attempt's own arithmetic, unchanged.
      select t.correct, coalesce(sm.marks::real, t.credit - a.negative_mark * t.wrong) as scored_marks,
             coalesce(sm.marks, t.exact_credit - a.negative_mark::numeric * t.wrong) as exact_marks, sm.parts,
             coalesce(sm.cut_offs, false) as cut_offs, coalesce(sm.met_cut_offs, true) as met_cut_offs
      from tally t cross join attempts a left join section_marks sm on a.sections is not null
      where a.id = $1::uuid
    )
    update attempts set submitted_at = $2::timestamptz, score = result.correct, marks = result.scored_marks,
      section_marks = result.parts,
      -- Pass or fail is decided here, once, on the exact marks: the pass mark and every section's cut-off. In
      -- reals, 6 right and 4 wrong at 0.1 came to 5.5999999 and failed a pass mark of 56% (an outside attack).
      passed = case when pass_mark is null and not result.cut_offs then null
                    else (pass_mark is null or result.exact_marks * 100 >= pass_mark * total_questions)
                         and result.met_cut_offs end
    from result
    where id = $1::uuid and submitted_at is null
    returning ${ATTEMPT_COLUMNS}`,
};

/** Marks every served question right or wrong and closes the attempt with its score. */
export async function scoreAndClose(db: Executor, attemptId: string, now: Date) {
  const [closed] = await attemptRows(db, scoreAndCloseStatement, [attemptId, now]);
  return closed;
}

const recordFocusLossStatement: NamedStatement = {
  name: "quiz.record-focus-loss",
  // The caller holds the attempt's row locked, so every other report has committed before this statement's
  // snapshot: the sum is exact, plus the one this statement adds, which its own snapshot does not see. (Locked in
  // the same statement, the sum read the snapshot from before the wait: two reports at once each read one, and an
  // attempt passed the limit without ending, an outside attack.) The drive's rule comes with it, as it is now.
  text: `with counted as (
      update attempt_questions set focus_losses = focus_losses + 1
      where attempt_id = $1::uuid and position = $2::int
      returning attempt_id
    )
    select (select sum(focus_losses)::int + 1 from attempt_questions where attempt_id = c.attempt_id) as "focusLosses",
      d.focus_loss_limit as "limit", d.focus_loss_ends_attempt as "endsAttempt"
    from counted c join attempts a on a.id = c.attempt_id join drives d on d.id = a.drive_id`,
};

/**
 * Counts one loss of focus or visibility on the attempt's question at `position`, the attempt locked by the caller:
 * the attempt's count with it, and its drive's focus-loss rule (decision 035).
 */
export async function recordFocusLoss(db: Executor, attemptId: string, position: number) {
  const [row] = await runNamed<{ focusLosses: number; limit: number | null; endsAttempt: boolean }>(
    db,
    recordFocusLossStatement,
    [attemptId, position],
  );
  return row;
}

const fullScreenExitStatement: NamedStatement = {
  name: "quiz.full-screen-exit",
  // $2 the grace after a deadline: an attempt whose time has run out is waiting to be closed, not being sat.
  text: `update attempts a set full_screen_exits = a.full_screen_exits + 1
    from drives d
    where a.student_id = $1::uuid and a.submitted_at is null and d.id = a.drive_id and d.full_screen
      and d.paused_at is null
      and not ${runOutSql(clockColumns("a"), "now()", "$2::int")}
    returning a.full_screen_exits as "fullScreenExits"`,
};

/**
 * Counts one exit from full screen on the student's attempt while it is being sat (its time not run out past the
 * grace), on a drive that asks for it; false when none.
 */
export async function recordFullScreenExit(db: Executor, studentId: string, graceSeconds: number): Promise<boolean> {
  return (await runNamed(db, fullScreenExitStatement, [studentId, graceSeconds])).length > 0;
}

const endedByStatement: NamedStatement = {
  name: "quiz.ended-by",
  text: "update attempts set ended_by = $2 where id = $1::uuid",
};

/** Notes on an attempt just closed who ended it: the drive's focus-loss limit, or an invigilator. */
export async function markEndedBy(db: Executor, attemptId: string, endedBy: AttemptEnding): Promise<void> {
  await runNamed(db, endedByStatement, [attemptId, endedBy]);
}

const changePaletteStatement: NamedStatement = {
  name: "quiz.change-palette",
  // $1 attempt, $2 position, $3 now, $4 marked (null: as it was), $5 clear the answer
  text: `update attempt_questions aq
    set ${paletteChangeSql({ now: "$3::timestamptz", marked: "$4::boolean", clear: "$5::boolean" }).set}
    where aq.attempt_id = $1::uuid and aq.position = $2::int`,
};

/** The palette's change to the served question at `position` (opened, marked or not, its answer cleared). */
export async function changePaletteOf(
  db: Executor,
  values: { attemptId: string; position: number; now: Date; marked: boolean | null; clear: boolean },
) {
  const { attemptId, position, now, marked, clear } = values;
  await runNamed(db, changePaletteStatement, [attemptId, position, now, marked, clear]);
}

const recordReloadStatement: NamedStatement = {
  name: "quiz.record-reload",
  text: "update attempts set reloads = reloads + 1, reloaded_at = $2::timestamptz where id = $1::uuid",
};

/** Counts the quiz opened again on the running attempt (not a loss of focus: the page came back). */
export async function recordReload(db: Executor, attemptId: string, now: Date) {
  await runNamed(db, recordReloadStatement, [attemptId, now]);
}

/** The closing time that cuts a drive's attempts (alias `d`), null when its closing does not end them. */
const ENDS_BY_SQL = "case when d.closing_ends_attempts then coalesce(d.closed_at, d.closes_at) end";

const reclockOpenAttemptsStatement: NamedStatement = {
  name: "quiz.reclock-open-attempts",
  // Every deadline written again, cut by the close where the drive's closing ends attempts: from its start, with the
  // time invigilators added (decision 037), its drive's pauses (decision 039) and lost connections (decision 040)
  // gave back, or on an attempt timed per section from the open section's end (a paced
  // section's last window's end, moved by time added as its start was; a section on one clock keeps its start as its
  // current window's) with every later section's time, as leaving a section set it
  // (deadlineFrom): from the start, a reopening gave back the time sections left early had given up (an outside
  // attack). The open section's deadline is its end, cut by that deadline; without sections it is the attempt's.
  text: `with timed as (
      select a.id, a.started_at, a.timing_mode = 'per_section' as per_section, a.section_end is not null as sectioned,
        a.total_questions * a.seconds_per_question + a.added_seconds + a.paused_seconds + a.credited_seconds
          as whole_seconds,
        ${sectionsFromSecondsSql("a", "a.section_end")} as later_seconds,
        case when a.paced then ${windowStartSql(clockColumns("a"), "a.section_end")}
          else a.current_started_at + make_interval(secs => ${sectionsSecondsSql("a", "a.section_first", "a.section_end")})
        end as section_ends,
        ${ENDS_BY_SQL} as ends_by
      from attempts a join drives d on d.id = a.drive_id
      where d.id = $1::uuid and a.submitted_at is null
    ), reclocked as (
      select t.id, t.sectioned, t.section_ends, ${endsByCloseSql(
        `case when t.per_section then t.section_ends + make_interval(secs => t.later_seconds)
          else ${deadlineSql({ startedAt: "t.started_at", seconds: "t.whole_seconds" })} end`,
        "t.ends_by",
      )} as deadline_at
      from timed t
    )
    update attempts a set deadline_at = r.deadline_at,
      section_deadline_at = case when r.sectioned then least(r.section_ends, r.deadline_at) end
    from reclocked r where a.id = r.id`,
};

/**
 * After a drive's close, closing time or closing rule changed: its open attempts' deadlines as a start would
 * write them now, so that a closing that ends attempts ends those already running too (the sweeper then submits
 * them), and a reopening or a later closing time gives them their time back.
 */
export async function reclockOpenAttempts(db: Executor, driveId: string) {
  await runNamed(db, reclockOpenAttemptsStatement, [driveId]);
}

const added = addedTimeSql(clockColumns("a"), {
  deadlineAt: "a.deadline_at",
  endsBy: "r.ends_by",
  now: "$4::timestamptz",
  seconds: "$3::float8",
});

const addTimeStatement: NamedStatement = {
  name: "quiz.add-time",
  // $1 the student, or null for every running attempt of drive $2; $3 seconds (to the millisecond); $4 the moment
  // they are added at; $5 the most seconds an invigilator may add to an attempt in all; $6 whose time it is
  // (TimeGiven): an invigilator's, limited by $5; a drive's pause given back (decision 039), or a lost connection's
  // (decision 040), each kept apart. Only a running clock gets time (timing.ts's withAddedTime), as each row stands
  // once locked: an attempt whose time is up, or in the grace after a section, is left to its clock; nor does a
  // paused drive's, whose clock stands still. Each row answers with the seconds its deadline actually moved, and a
  // lost connection's credit counts that much (a closing that ends attempts may cut it). A resume moves the last
  // contact on by the pause, so that a silence around it is measured without it (decision 040).
  text: `with running as (
      select a.id, a.deadline_at as was, ${ENDS_BY_SQL} as ends_by
      from attempts a join drives d on d.id = a.drive_id
      where a.submitted_at is null and d.paused_at is null
        and (a.student_id = $1::uuid or ($1::uuid is null and a.drive_id = $2::uuid))
        and ${clockRunningSql(clockColumns("a"), "$4::timestamptz")}
        and ($6::text <> 'invigilator' or a.added_seconds + $3::float8 <= $5::int)
      for update of a
    )
    update attempts a set current_position = ${added.currentPosition},
      current_started_at = ${added.currentStartedAt},
      section_deadline_at = case when a.section_deadline_at is not null then ${added.sectionDeadlineAt} end,
      deadline_at = ${added.deadlineAt},
      added_seconds = a.added_seconds + case when $6::text = 'invigilator' then round($3::float8)::int else 0 end,
      paused_seconds = a.paused_seconds + case when $6::text = 'pause' then round($3::float8)::int else 0 end,
      credited_seconds = a.credited_seconds
        + case when $6::text = 'credit' then extract(epoch from ${added.deadlineAt} - a.deadline_at)::float8 else 0 end,
      last_contact_at = case when $6::text = 'pause'
        then greatest(a.last_contact_at, a.started_at) + make_interval(secs => $3::float8) else a.last_contact_at end
    from running r where a.id = r.id
    returning a.student_id as "studentId", extract(epoch from a.deadline_at - r.was)::float8 as "movedSeconds"`,
};

/** One attempt given more time, and how far its deadline moved (less than the time added when a closing cuts it). */
export interface TimeAdded {
  studentId: string;
  movedSeconds: number;
}

/**
 * Whose time is added: an invigilator's (decision 037), each attempt getting up to `mostSeconds` in all; a drive's
 * pause given back (decision 039: added at the moment it paused); or a lost connection's (decision 040: added at
 * the moment its grace ran out). Neither of the last two is limited here, and each is kept in its own column.
 */
export type TimeGiven = { mostSeconds: number } | "pause" | "credit";

/** Adds `seconds` at `now` to the running attempt of a student, or to every running attempt of a drive. */
export async function addTime(
  db: Executor,
  of: AttemptsOf,
  seconds: number,
  now: Date,
  given: TimeGiven,
): Promise<TimeAdded[]> {
  const studentId = "studentId" in of ? of.studentId : null;
  const driveId = "driveId" in of ? of.driveId : null;
  const kind = typeof given === "string" ? given : "invigilator";
  const mostSeconds = typeof given === "string" ? 0 : given.mostSeconds;
  return runNamed<TimeAdded>(db, addTimeStatement, [studentId, driveId, seconds, now, mostSeconds, kind]);
}
