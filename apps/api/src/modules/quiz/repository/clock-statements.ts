// The statements that check the clock where the attempt's row is locked: the common case of saving an answer
// and of Next, each in one statement and one round trip (the hot path of a drive, decisions 004 and 006), and
// the sweep that finds attempts whose time has run out. The clock's arithmetic in them is clock-sql.ts's.
import { type Executor, type NamedStatement, runNamed } from "../../../db/client.ts";
import { type Choice, questionRevisionSql, type ServedRef, saveAnswerSql, type TimestampText } from "./attempt-rows.ts";
import {
  acceptsAnswerSql,
  beforeDeadlineSql,
  clockColumns,
  positionNowSql,
  runOutSql,
  windowStartSql,
} from "./clock-sql.ts";

const overdueAttemptIdsStatement: NamedStatement = {
  name: "quiz.overdue-attempt-ids",
  text: `select id from attempts
    where submitted_at is null
      and ${runOutSql(clockColumns(), "now()", "$1::int")}
    order by deadline_at
    limit $2::int
    for update skip locked`,
};

/** Open attempts whose last window (or absolute deadline) has passed by more than `graceSeconds`. */
export async function overdueAttemptIds(db: Executor, graceSeconds: number, limit = 100): Promise<string[]> {
  const rows = await runNamed<{ id: string }>(db, overdueAttemptIdsStatement, [graceSeconds, limit]);
  return rows.map((row) => row.id);
}

/** The attempt's clock after a one-statement save or Next. */
export interface ClockRow {
  currentPosition: number;
  currentStartedAt: TimestampText;
  secondsPerQuestion: number;
  totalQuestions: number;
  paced: boolean;
  deadlineAt: TimestampText;
}

const saveAnswerIfOpenStatement: NamedStatement = {
  name: "quiz.save-answer-if-open",
  // $1 student, $2 question, $3 option, $4 now, $5 grace seconds, $6 a multiple answer's options ($3 null)
  text: `
    with attempt as materialized (
      -- The student's open attempt first, so that the served question is found by (attempt, question).
      select id, current_position, current_started_at, seconds_per_question, total_questions, paced, deadline_at
      from attempts
      where student_id = $1::uuid and submitted_at is null
      for update
    ), target as (
      select a.*, aq.position, ${windowStartSql(clockColumns("a"), "aq.position")}
               as window_start
      from attempt a
      join attempt_questions aq on aq.attempt_id = a.id and aq.question_id = $2::uuid
      where case when $6::uuid[] is null then $3::uuid = any(aq.option_order)
                 -- Several options only for a multiple-answer question: the one case that reads the question.
                 else $6::uuid[] <@ aq.option_order and (cardinality($6::uuid[]) = 1
                   or exists (select 1 from questions q where q.id = aq.question_id and q.type = 'multiple')) end
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
    select w.seconds_per_question as "secondsPerQuestion", w.total_questions as "totalQuestions", w.paced,
           w.deadline_at as "deadlineAt",
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

// Next's two statements ($1 student, $2 position asked for, $3 now) start alike. A paced attempt's open question
// at $3 (`position_now`), on its row locked; Next is for a paced attempt before its deadline.
const PACED_ATTEMPT_FOR_NEXT = `
      select id, current_position, current_started_at, seconds_per_question, total_questions, deadline_at, paced,
             ${positionNowSql(clockColumns(), "$3::timestamptz")} as position_now
      from attempts
      where student_id = $1::uuid and submitted_at is null
        and paced and ${beforeDeadlineSql(clockColumns(), "$3::timestamptz")}
      for update
    `;
// Next may open the question after the open one, or one the clock has already reached; not past the last.
const NEXT_ALLOWED = "position_now < total_questions and $2::int <= position_now + 1 and $2::int < total_questions";
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
    with target as (${PACED_ATTEMPT_FOR_NEXT}), allowed as (
      select * from target where ${NEXT_ALLOWED}
    ), moved as (
      update attempts a set current_position = $2::int, current_started_at = $3::timestamptz
      from allowed t where a.id = t.id and $2::int = t.position_now + 1
      returning a.id, a.current_position, a.current_started_at
    ), ${RECORD_TIMER_MOVE}
    select t.id as "attemptId", t.seconds_per_question as "secondsPerQuestion", t.total_questions as "totalQuestions",
           t.paced, t.deadline_at as "deadlineAt",
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

const nextInOneGoStatement: NamedStatement = {
  name: "quiz.next-in-one-go",
  // $1 student, $2 position asked for, $3 now, $4 question being left (null: no answer), $5 its option,
  // $6 grace seconds, $7 a multiple answer's options ($5 null). The same rules as advance-if-allowed after
  // save-answer-if-open, read from one locked row.
  text: `
    with attempt as materialized (${PACED_ATTEMPT_FOR_NEXT}), allowed as (
      select * from attempt where ${NEXT_ALLOWED}
    ), answer_open as (
      select w.id, w.answer_position, w.window_start from (
        select al.*, aq.position as answer_position,
               ${windowStartSql(clockColumns("al"), "aq.position")} as window_start
        from allowed al
        join attempt_questions aq on aq.attempt_id = al.id and aq.question_id = $4::uuid
        where case when $7::uuid[] is null then $5::uuid = any(aq.option_order)
                   else $7::uuid[] <@ aq.option_order and (cardinality($7::uuid[]) = 1
                     or exists (select 1 from questions q where q.id = aq.question_id and q.type = 'multiple')) end
      ) w
      where ${acceptsAnswerSql(clockColumns("w"), {
        position: "w.answer_position",
        now: "$3::timestamptz",
        graceSeconds: "$6::int",
        windowStart: "w.window_start",
      })}
    ), go as (
      -- All of it or nothing: an answer sent must be taken, or the caller goes the long way to learn why.
      select al.*, ao.answer_position, ao.window_start,
             case when $2::int = al.position_now + 1 then $2::int else al.position_now end as open_position,
             greatest(al.position_now, ao.answer_position) as timer_position
      from allowed al left join answer_open ao on ao.id = al.id
      where $4::uuid is null or ao.id is not null
    ), saved as (
      update attempt_questions aq
      set ${saveAnswerSql({
        optionId: "$5::uuid",
        optionIds: "$7::uuid[]",
        now: "$3::timestamptz",
        windowStart: "go.window_start",
      })}
      from go where go.answer_position is not null and aq.attempt_id = go.id and aq.position = go.answer_position
      returning aq.position
    ), moved as (
      -- Next moves the clock on; else it records where the timer has taken the attempt (RECORD_TIMER_MOVE): the
      -- open question, or the question answered when that is later.
      update attempts a
      set current_position = case when $2::int = go.position_now + 1 then $2::int else go.timer_position end,
          current_started_at = case when $2::int = go.position_now + 1 then $3::timestamptz
            else ${windowStartSql(clockColumns("go"), "go.timer_position")} end
      from go
      where a.id = go.id and ($2::int = go.position_now + 1 or go.timer_position > go.current_position)
      returning a.id, a.current_position, a.current_started_at
    )
    select go.id as "attemptId", go.seconds_per_question as "secondsPerQuestion",
           go.total_questions as "totalQuestions", go.paced, go.deadline_at as "deadlineAt",
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

/**
 * Next with the answer to the question being left, in one statement: saves the answer when one is sent and its
 * window is open, moves on as advance-if-allowed does, and returns the clock with the question served at
 * `openPosition`, the one open by the clock at `now`. Returns undefined, having changed nothing, when any part would be
 * refused; the caller then takes the long way, which says why.
 */
export async function nextInOneGo(
  db: Executor,
  values: {
    studentId: string;
    position: number;
    now: Date;
    answer?: { questionId: string; choice: Choice };
    graceSeconds: number;
  },
) {
  const { studentId, position, now, answer, graceSeconds } = values;
  const [row] = await runNamed<ClockRow & { attemptId: string; openPosition: number } & Nullable<ServedRef>>(
    db,
    nextInOneGoStatement,
    [
      studentId,
      position,
      now,
      answer?.questionId ?? null,
      answer?.choice.optionId ?? null,
      graceSeconds,
      answer?.choice.optionIds ?? null,
    ],
  );
  if (!row) return undefined;
  const { questionId, optionOrder, revision, ...clock } = row;
  // Null when the open position serves nothing (past the last question).
  const question: ServedRef | null = questionId === null ? null : ({ questionId, optionOrder, revision } as ServedRef);
  return { ...clock, question };
}

type Nullable<T> = { [K in keyof T]: T[K] | null };
