// The statements that check the clock where the attempt's row is locked: the common case of saving an answer
// and of Next, each in one statement and one round trip (the hot path of a drive, decisions 004 and 006), and
// the sweep that finds attempts whose time has run out. The clock's arithmetic in them is clock-sql.ts's.
import { type Executor, type NamedStatement, runNamed } from "../../../db/client.ts";
import {
  ATTEMPT_COLUMNS,
  type AttemptRow,
  type AttemptsOf,
  attemptRows,
  type Choice,
  paletteChangeSql,
  questionRevisionSql,
  type ServedRef,
  saveAnswerSql,
  type TimestampText,
} from "./attempt-rows.ts";
import {
  acceptsAnswerSql,
  beforeDeadlineSql,
  clockColumns,
  clockSelectSql,
  driveRunsSql,
  positionNowSql,
  runOutSql,
  windowStartSql,
} from "./clock-sql.ts";
import { silenceHoldsSql } from "./silence-sql.ts";

/**
 * The choice (`option`, or several in `options`) is among the options the served row `served` showed, and several
 * are given only to a multiple-answer question: the one case that reads the question. Read as a value, not an
 * exists, which PostgreSQL may hash over the whole bank. Saving an answer and Next both check it here.
 */
export function choiceServedSql(served: string, option: string, options: string): string {
  return `case when ${options} is null then ${option} = any(${served}.option_order)
    else ${options} <@ ${served}.option_order and (cardinality(${options}) = 1
      or (select q.type from questions q where q.id = ${served}.question_id) = 'multiple') end`;
}

const PALETTE_CHANGE = paletteChangeSql({ now: "$3::timestamptz", marked: "$4::boolean", clear: "$5::boolean" });

const overdueAttemptsStatement: NamedStatement = {
  name: "quiz.overdue-attempts",
  // $3 only this student's, $4 only this drive's (null: anyone's); $5 the moment (null: now()). A paused drive's
  // clocks stand still (decision 039): nothing of it is overdue until it is resumed; nor is an attempt held open for
  // its lost connection (decision 040).
  text: `select ${ATTEMPT_COLUMNS} from attempts
    where submitted_at is null
      and ${runOutSql(clockColumns(), "coalesce($5::timestamptz, now())", "$1::int")}
      and ($3::uuid is null or student_id = $3::uuid) and ($4::uuid is null or drive_id = $4::uuid)
      and ${driveRunsSql("attempts")}
      and not exists (select 1 from drives d where d.id = attempts.drive_id
        and ${silenceHoldsSql("attempts", "d", "coalesce($5::timestamptz, now())")})
    order by deadline_at
    limit $2::int
    for update skip locked`,
};

/**
 * Open attempts whose open section's last window (or its deadline) has passed by more than `graceSeconds` at `at`
 * (now by default), locked: in the last section (or without sections) the attempt's time is up; before it, the next
 * section is due. Anyone's, or only those `of` a student or a drive; never a paused drive's.
 */
export async function overdueAttempts(
  db: Executor,
  graceSeconds: number,
  limit = 100,
  of?: AttemptsOf,
  at?: Date,
): Promise<AttemptRow[]> {
  const studentId = of && "studentId" in of ? of.studentId : null;
  const driveId = of && "driveId" in of ? of.driveId : null;
  return attemptRows(db, overdueAttemptsStatement, [graceSeconds, limit, studentId, driveId, at ?? null]);
}

/** The attempt's clock after a one-statement save or Next. */
export interface ClockRow {
  currentPosition: number;
  currentStartedAt: TimestampText;
  secondsPerQuestion: number;
  paced: boolean;
  sectionFirst: number;
  sectionEnd: number;
  sectionDeadlineAt: TimestampText;
}

/** The clock's columns of `alias` under the names ClockRow gives them, for a statement's final select. */
function clockRowSql(alias: string) {
  return `${alias}.current_position as "currentPosition", ${alias}.current_started_at as "currentStartedAt",
    ${alias}.seconds_per_question as "secondsPerQuestion", ${alias}.paced, ${alias}.section_first as "sectionFirst",
    ${alias}.section_end as "sectionEnd", ${alias}.section_deadline_at as "sectionDeadlineAt"`;
}

const saveAnswerIfOpenStatement: NamedStatement = {
  name: "quiz.save-answer-if-open",
  // $1 student, $2 question, $3 option, $4 now, $5 grace seconds, $6 a multiple answer's options ($3 null)
  text: `
    with attempt as materialized (
      -- The student's open attempt first, so that the served question is found by (attempt, question).
      select id, ${clockSelectSql()}
      from attempts
      where student_id = $1::uuid and submitted_at is null and ${driveRunsSql("attempts")}
      for update
    ), target as (
      select a.*, aq.position, ${windowStartSql(clockColumns("a"), "aq.position")}
               as window_start
      from attempt a
      join attempt_questions aq on aq.attempt_id = a.id and aq.question_id = $2::uuid
      where ${choiceServedSql("aq", "$3::uuid", "$6::uuid[]")}
    ), open_window as (
      select * from target
      where ${acceptsAnswerSql(clockColumns(), {
        position: "position",
        now: "$4::timestamptz",
        graceSeconds: "$5::int",
        windowStart: "window_start",
      })}
    ), -- PostgreSQL runs data-modifying WITH parts once, whether or not the final select reads them.
    saved as (
      update attempt_questions aq
      set ${saveAnswerSql({
        optionId: "$3::uuid",
        optionIds: "$6::uuid[]",
        now: "$4::timestamptz",
        windowStart: "case when w.paced then w.window_start end",
      })}
      from open_window w where aq.attempt_id = w.id and aq.position = w.position
      returning aq.position
    ), moved as (
      update attempts a set current_position = w.position, current_started_at = w.window_start
      from open_window w where a.id = w.id and w.paced and w.position > w.current_position
      returning a.id
    )
    select w.seconds_per_question as "secondsPerQuestion", w.paced, w.section_first as "sectionFirst",
           w.section_end as "sectionEnd", w.section_deadline_at as "sectionDeadlineAt",
           case when w.paced then greatest(w.current_position, w.position) else w.current_position end
             as "currentPosition",
           case when w.paced and w.position > w.current_position then w.window_start else w.current_started_at end
             as "currentStartedAt"
    from open_window w`,
};

/**
 * The common case of saving an answer in one statement: the question is served in the student's open attempt,
 * the option is one of its own, and its window (plus `graceSeconds`) is open at `now`. Returns the attempt's
 * clock after the save, or undefined when any condition fails (the caller then finds out which, slowly).
 */
export async function saveAnswerIfOpen(
  db: Executor,
  values: { studentId: string; questionId: string; choice: Choice; now: Date; graceSeconds: number },
) {
  const { studentId, questionId, choice, now, graceSeconds } = values;
  const [row] = await runNamed<ClockRow>(db, saveAnswerIfOpenStatement, [
    studentId,
    questionId,
    choice.optionId,
    now,
    graceSeconds,
    choice.optionIds,
  ]);
  return row;
}

const changePaletteIfOpenStatement: NamedStatement = {
  name: "quiz.change-palette-if-open",
  // $1 student, $2 position, $3 now, $4 marked (null: as it was), $5 clear the answer, $6 grace seconds
  text: `
    with attempt as materialized (
      select id, ${clockSelectSql()}
      from attempts
      where student_id = $1::uuid and submitted_at is null and ${driveRunsSql("attempts")}
      for update
    ), open_attempt as (
      -- The palette is a section on one clock's (or a whole-quiz attempt's): a paced one's questions open in turn,
      -- as its clock says.
      select * from attempt a
      where not a.paced and $2::int >= a.section_first and $2::int < a.section_end
        and ${beforeDeadlineSql(clockColumns("a"), "$3::timestamptz", "$6::int")}
    ), changed as (
      update attempt_questions aq
      set ${PALETTE_CHANGE.set}
      from open_attempt o
      where aq.attempt_id = o.id and aq.position = $2::int and not ${PALETTE_CHANGE.unchanged}
      returning aq.position
    )
    select ${clockRowSql("open_attempt")}
    from open_attempt`,
};

/**
 * The palette's change in one statement, the common case: the student's open section is on one clock (or the
 * attempt is timed as a whole), the position is one of its questions and it still takes answers at `now` (its deadline and `graceSeconds`). Returns
 * the attempt's clock, or undefined when any condition fails (the caller then finds out which, slowly). A change
 * that changes nothing (a question opened again) writes nothing.
 */
export async function changePaletteIfOpen(
  db: Executor,
  values: {
    studentId: string;
    position: number;
    now: Date;
    marked: boolean | null;
    clear: boolean;
    graceSeconds: number;
  },
) {
  const { studentId, position, now, marked, clear, graceSeconds } = values;
  const [row] = await runNamed<ClockRow>(db, changePaletteIfOpenStatement, [
    studentId,
    position,
    now,
    marked,
    clear,
    graceSeconds,
  ]);
  return row;
}

// A paced attempt's open question at `now` (`position_now`), on its row locked; Next is for a paced attempt before
// its deadline. `from` names the attempts (alias a) and what picks the student's; `now` the time of the Next.
function pacedAttemptForNextSql(from: string, now: string) {
  return `
      select a.id, ${clockSelectSql("a")}, ${positionNowSql(clockColumns("a"), now)} as position_now
      ${from}
      and a.submitted_at is null and a.paced and ${beforeDeadlineSql(clockColumns("a"), now)} and ${driveRunsSql("a")}`;
}
// Next (to `position`) may open the question after the open one, or one the clock has already reached; not past
// the open section's last (the next section opens by leaving this one).
function nextAllowedSql(position: string) {
  return `position_now < section_end and ${position} <= position_now + 1 and ${position} < section_end`;
}
// A Next the clock got to first (the page asks when a question's time runs out) records where the timer has taken
// the attempt: the same clock, written from the open question's window, so that the live board sees the student
// there and hears from them (decision 017). Without it such a student stayed on question 1 and went "quiet".
const RECORD_TIMER_MOVE = `recorded as (
      update attempts a set current_position = t.position_now,
        current_started_at = ${windowStartSql(clockColumns("t"), "t.position_now")}
      from allowed t where a.id = t.id and $2::int <= t.position_now and t.position_now > t.current_position
      returning a.id, a.current_position, a.current_started_at
    )`;

const advanceIfAllowedStatement: NamedStatement = {
  name: "quiz.advance-if-allowed",
  // $1 student, $2 position asked for, $3 now
  text: `
    with target as (${pacedAttemptForNextSql("from attempts a where a.student_id = $1::uuid", "$3::timestamptz")}
      for update
    ), allowed as (
      select * from target where ${nextAllowedSql("$2::int")}
    ), moved as (
      update attempts a set current_position = $2::int, current_started_at = $3::timestamptz
      from allowed t where a.id = t.id and $2::int = t.position_now + 1
      returning a.id, a.current_position, a.current_started_at
    ), ${RECORD_TIMER_MOVE}
    select t.id as "attemptId", t.seconds_per_question as "secondsPerQuestion", t.paced,
           t.section_first as "sectionFirst", t.section_end as "sectionEnd", t.section_deadline_at as "sectionDeadlineAt",
           coalesce(m.current_position, r.current_position, t.current_position) as "currentPosition",
           coalesce(m.current_started_at, r.current_started_at, t.current_started_at) as "currentStartedAt"
    from allowed t left join moved m on m.id = t.id left join recorded r on r.id = t.id`,
};

/**
 * Next, in one statement, when it is allowed: `position` is the question after the one open on the clock.
 * A position the clock has already reached is accepted without change. Returns the clock afterwards, or
 * undefined for anything else (closed attempt, a jump ahead, time up), which the caller explains.
 */
export async function advanceIfAllowed(db: Executor, values: { studentId: string; position: number; now: Date }) {
  const { studentId, position, now } = values;
  const [row] = await runNamed<ClockRow & { attemptId: string }>(db, advanceIfAllowedStatement, [
    studentId,
    position,
    now,
  ]);
  return row;
}

export const nextInOneGoStatement: NamedStatement = {
  name: "quiz.next-in-one-go",
  // Several students' Nexts in one statement (next-batches.ts), the same place of each array for one Next:
  // $1 students, $2 positions asked for, $3 the Nexts' times, $4 questions being left (null: no answer), $5 their
  // options, $7 a multiple answer's options as an array's text ($5 null); $6 grace seconds. Each Next follows the
  // rules of advance-if-allowed after save-answer-if-open, read from its attempt's row locked. A student named
  // twice has only the first Next taken; the rest come back without a row, as refused ones do, and so does a Next
  // whose attempt another transaction holds.
  text: `
    with input as materialized (
      select distinct on (i.student_id) i.n, i.student_id as in_student, i.position as in_position,
             i.now as in_now, i.question_id as in_question, i.option_id as in_option, i.option_ids::uuid[] as in_options
      from unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::uuid[], $5::uuid[], $7::text[])
        with ordinality as i(student_id, position, now, question_id, option_id, option_ids, n)
      order by i.student_id, i.n
    ), attempt as materialized (
      -- An attempt another transaction holds (the student's submit, their other tab, an admin ending it) is left
      -- out, not waited for: its Next goes the long way and waits there alone, where here it would hold up every
      -- other Next of the statement. So every other write to an open attempt's served questions locks the attempt
      -- first (the slow path, scoring, a lost focus).
      select t.*, i.* from input i cross join lateral (${pacedAttemptForNextSql(
        "from attempts a where a.student_id = i.in_student",
        "i.in_now",
      )}
        for update skip locked) t
    ), allowed as (
      select * from attempt where ${nextAllowedSql("in_position")}
    ), go as (
      -- All of it or nothing: an answer sent must be taken, or the caller goes the long way to learn why.
      select al.*, ao.answer_position, ao.window_start,
             case when al.in_position = al.position_now + 1 then al.in_position else al.position_now end
               as open_position,
             greatest(al.position_now, ao.answer_position) as timer_position
      from allowed al left join lateral (
        select w.answer_position, w.window_start from (
          -- Each Next's own served question, by its attempt and question (the unique index). Planned on its own
          -- (offset 0): joined to the batch, PostgreSQL chose to read every attempt served that question.
          select aq.position as answer_position, ${windowStartSql(clockColumns("al"), "aq.position")} as window_start
          from attempt_questions aq
          where aq.attempt_id = al.id and aq.question_id = al.in_question
            and ${choiceServedSql("aq", "al.in_option", "al.in_options")}
          offset 0
        ) w
        where ${acceptsAnswerSql(clockColumns("al"), {
          position: "w.answer_position",
          now: "al.in_now",
          graceSeconds: "$6::int",
          windowStart: "w.window_start",
        })}
      ) ao on true
      where al.in_question is null or ao.answer_position is not null
    ), saved as (
      update attempt_questions aq
      set ${saveAnswerSql({
        optionId: "go.in_option",
        optionIds: "go.in_options",
        now: "go.in_now",
        windowStart: "go.window_start",
      })}
      from go where go.answer_position is not null and aq.attempt_id = go.id and aq.position = go.answer_position
      returning aq.position
    ), moved as (
      -- Next moves the clock on; else it records where the timer has taken the attempt (RECORD_TIMER_MOVE): the
      -- open question, or the question answered when that is later.
      update attempts a
      set current_position = case when go.in_position = go.position_now + 1 then go.in_position
            else go.timer_position end,
          current_started_at = case when go.in_position = go.position_now + 1 then go.in_now
            else ${windowStartSql(clockColumns("go"), "go.timer_position")} end
      from go
      where a.id = go.id and (go.in_position = go.position_now + 1 or go.timer_position > go.current_position)
      returning a.id, a.current_position, a.current_started_at
    )
    select go.n as "batchIndex", go.id as "attemptId", go.seconds_per_question as "secondsPerQuestion", go.paced,
           go.section_first as "sectionFirst", go.section_end as "sectionEnd",
           go.section_deadline_at as "sectionDeadlineAt",
           coalesce(m.current_position, go.current_position) as "currentPosition",
           coalesce(m.current_started_at, go.current_started_at) as "currentStartedAt",
           go.open_position as "openPosition",
           -- Which question is open, not its text: the server keeps served questions' texts (question-contents.ts).
           served.question_id as "questionId", served.option_order as "optionOrder", served.revision
    from go left join moved m on m.id = go.id
      left join lateral (
        select aq.question_id, aq.option_order, ${questionRevisionSql("q")} as revision
        from attempt_questions aq join questions q on q.id = aq.question_id
        where aq.attempt_id = go.id and aq.position = go.open_position
      ) served on true`,
};

/** One student's Next for nextInOneGo: the answer to the question being left, when one is sent. */
export interface NextRequest {
  studentId: string;
  position: number;
  now: Date;
  answer?: { questionId: string; choice: Choice };
}

/** What nextInOneGo did with one Next: the clock, and the question served at `openPosition` (null past the last). */
export type NextDone = ClockRow & { attemptId: string; openPosition: number; question: ServedRef | null };

/** A multiple answer's options as PostgreSQL reads an array's text; null for none. */
function arrayText(values: string[] | null): string | null {
  return values === null ? null : `{${values.join(",")}}`;
}

/**
 * Several students' Nexts with the answers to the questions being left, in one statement and one commit: each
 * saves its answer when one is sent and its window is open, moves on as advance-if-allowed does, and comes back
 * with the clock and the question served at `openPosition`, the one open by the clock at the Next's `now`. A Next
 * comes back undefined, having changed nothing, when any part of it would be refused (the caller then takes the
 * long way, which says why or waits), and so does a second Next of a student already in `requests`, and one whose
 * attempt another transaction holds locked.
 */
export async function nextInOneGo(
  db: Executor,
  requests: NextRequest[],
  graceSeconds: number,
): Promise<(NextDone | undefined)[]> {
  const rows = await runNamed<
    ClockRow & { batchIndex: string; attemptId: string; openPosition: number } & Nullable<ServedRef>
  >(db, nextInOneGoStatement, [
    requests.map((request) => request.studentId),
    requests.map((request) => request.position),
    requests.map((request) => request.now),
    requests.map((request) => request.answer?.questionId ?? null),
    requests.map((request) => request.answer?.choice.optionId ?? null),
    graceSeconds,
    requests.map((request) => arrayText(request.answer?.choice.optionIds ?? null)),
  ]);
  const done: (NextDone | undefined)[] = requests.map(() => undefined);
  for (const { batchIndex, questionId, optionOrder, revision, ...clock } of rows) {
    // Null when the open position serves nothing (past the last question).
    const question: ServedRef | null =
      questionId === null ? null : ({ questionId, optionOrder, revision } as ServedRef);
    // `with ordinality` counts from 1.
    done[Number(batchIndex) - 1] = { ...clock, question };
  }
  return done;
}

type Nullable<T> = { [K in keyof T]: T[K] | null };
