// Attempts and their served questions in the database. Every statement here runs for every student, most of
// them many times per quiz, so each is a named statement (see runNamed) written in SQL; column names are
// aliased to the schema's field names so rows arrive in the shapes the service uses.

import type { DifficultyMix } from "@trainwise/contract/drives";
import { type Executor, type NamedStatement, runNamed } from "../../db/client.ts";
import type { attempts, questions, tests } from "../../db/schema.ts";

export type AttemptRow = typeof attempts.$inferSelect;

/** A served question as the student sees it: options in the student's order, without correctness. */
export interface ServedQuestion {
  questionId: string;
  text: string;
  category: string;
  difficulty: (typeof questions.$inferSelect)["difficulty"];
  type: (typeof questions.$inferSelect)["type"];
  options: { _id: string; text: string }[];
}

/** Where a served question stands: its place, its options' order, and the saved answer. */
export interface AnswerSlot {
  position: number;
  questionId: string;
  optionOrder: string[];
  selectedOptionId: string | null;
  /** The choices of a multiple-answer question. */
  selectedOptionIds: string[] | null;
  /** The question takes several options. */
  multiple: boolean;
}

const ATTEMPT_COLUMNS = `id, student_id as "studentId", started_at as "startedAt", deadline_at as "deadlineAt",
  seconds_per_question as "secondsPerQuestion", current_position as "currentPosition",
  current_started_at as "currentStartedAt", submitted_at as "submittedAt", score, marks, passed,
  total_questions as "totalQuestions", drive_id as "driveId", timing_mode as "timingMode", paced,
  negative_mark as "negativeMark", pass_mark as "passMark", review_policy as "reviewPolicy"`;

type TimestampText = string | Date;

type AttemptText = Omit<AttemptRow, "startedAt" | "deadlineAt" | "currentStartedAt" | "submittedAt"> & {
  startedAt: TimestampText;
  deadlineAt: TimestampText;
  currentStartedAt: TimestampText;
  submittedAt: TimestampText | null;
};

function attemptFrom(row: AttemptText): AttemptRow {
  return {
    ...row,
    startedAt: new Date(row.startedAt),
    deadlineAt: new Date(row.deadlineAt),
    currentStartedAt: new Date(row.currentStartedAt),
    submittedAt: row.submittedAt === null ? null : new Date(row.submittedAt),
  };
}

async function attemptRows(db: Executor, statement: NamedStatement, values: unknown[]): Promise<AttemptRow[]> {
  return (await runNamed<AttemptText>(db, statement, values)).map(attemptFrom);
}

/** A student about to start an attempt: their allowances, their drive's window and the test's rules. */
export interface StudentForStart {
  attemptsAllowed: number;
  timeMultiplier: number;
  driveId: string;
  opensAt: TimestampText | null;
  closesAt: TimestampText | null;
  closedAt: TimestampText | null;
  timeZone: string;
  testIsDefault: boolean;
  testName: string;
  /** The student's attempts, newest first. */
  attempts: AttemptRow[];
  test: Pick<
    typeof tests.$inferSelect,
    | "categories"
    | "difficultyMix"
    | "questionCount"
    | "secondsPerQuestion"
    | "timingMode"
    | "attemptsAllowed"
    | "passMark"
    | "negativeMark"
    | "reviewPolicy"
  >;
}

const lockStudentStatement: NamedStatement = {
  name: "quiz.lock-student",
  text: `select s.attempts_allowed as "attemptsAllowed", s.time_multiplier as "timeMultiplier", s.drive_id as "driveId",
      d.opens_at as "opensAt", d.closes_at as "closesAt", d.closed_at as "closedAt", d.time_zone as "timeZone",
      t.is_default as "testIsDefault", t.name as "testName",
      (select coalesce(json_agg(a order by a."startedAt" desc), '[]')
        from (select ${ATTEMPT_COLUMNS} from attempts where student_id = s.id) a) as attempts,
      json_build_object('categories', t.categories, 'difficultyMix', t.difficulty_mix,
        'questionCount', t.question_count, 'secondsPerQuestion', t.seconds_per_question, 'timingMode', t.timing_mode,
        'attemptsAllowed', t.attempts_allowed, 'passMark', t.pass_mark, 'negativeMark', t.negative_mark,
        'reviewPolicy', t.review_policy) as test
    from students s join drives d on d.id = s.drive_id join tests t on t.id = d.test_id
    where s.id = $1::uuid for update of s`,
};

/**
 * Locks the student's row so that concurrent starts of one student run one at a time, and reads what a start
 * needs with it: their drive, its test and their attempts.
 */
export async function lockStudent(db: Executor, studentId: string): Promise<StudentForStart | undefined> {
  const [student] = await runNamed<Omit<StudentForStart, "attempts"> & { attempts: AttemptText[] }>(
    db,
    lockStudentStatement,
    [studentId],
  );
  return student && { ...student, attempts: student.attempts.map(attemptFrom) };
}

const attemptsOfStatement: NamedStatement = {
  name: "quiz.attempts-of",
  text: `select ${ATTEMPT_COLUMNS} from attempts where student_id = $1::uuid order by started_at desc`,
};

/** The student's attempts, newest first. */
export function attemptsOf(db: Executor, studentId: string) {
  return attemptRows(db, attemptsOfStatement, [studentId]);
}

const lockOpenAttemptStatement: NamedStatement = {
  name: "quiz.lock-open-attempt",
  text: `select ${ATTEMPT_COLUMNS} from attempts where student_id = $1::uuid and submitted_at is null for update`,
};

export async function lockOpenAttempt(db: Executor, studentId: string) {
  const [attempt] = await attemptRows(db, lockOpenAttemptStatement, [studentId]);
  return attempt;
}

const lockOpenAttemptWithSlotsStatement: NamedStatement = {
  name: "quiz.lock-open-attempt-with-slots",
  text: `select ${ATTEMPT_COLUMNS},
      (select coalesce(json_agg(json_build_object('position', aq.position, 'questionId', aq.question_id,
                 'optionOrder', aq.option_order, 'selectedOptionId', aq.selected_option_id,
                 'selectedOptionIds', aq.selected_option_ids, 'multiple', q.type = 'multiple') order by aq.position), '[]')
        from attempt_questions aq join questions q on q.id = aq.question_id where aq.attempt_id = attempts.id) as slots
    from attempts where student_id = $1::uuid and submitted_at is null for update`,
};

/** The open attempt, locked, with where each of its questions stands: what a submit reads. */
export async function lockOpenAttemptWithSlots(db: Executor, studentId: string) {
  const [row] = await runNamed<AttemptText & { slots: AnswerSlot[] }>(db, lockOpenAttemptWithSlotsStatement, [
    studentId,
  ]);
  if (!row) return undefined;
  const { slots, ...attempt } = row;
  return { attempt: attemptFrom(attempt), slots };
}

const randomQuestionsStatement: NamedStatement = {
  name: "quiz.random-questions",
  // $1 how many, $2 categories (empty: all), $3–$5 easy/medium/hard counts (null: any difficulty)
  text: `select q.id as "questionId", q.text, q.category, q.difficulty, q.type,
      (select coalesce(json_agg(json_build_object('_id', o.id, 'text', o.text) order by o.position), '[]')
        from question_options o where o.question_id = q.id) as options
    from (
      select q.*, row_number() over (partition by q.difficulty order by random()) as drawn
      from questions q
      where q.archived_at is null and (cardinality($2::text[]) = 0 or q.category = any($2::text[]))
    ) q
    where $3::int is null
       or q.drawn <= case q.difficulty when 'easy' then $3::int when 'medium' then $4::int else $5::int end
    order by random() limit $1::int`,
};

/**
 * Up to `count` current questions in random order from the test's categories (all when none are named),
 * `mix` of each difficulty when the test sets one; each with its options in the order the admin gave.
 */
export function randomQuestions(
  db: Executor,
  draw: { count: number; categories: string[]; mix: DifficultyMix | null },
) {
  const { count, categories, mix } = draw;
  return runNamed<ServedQuestion>(db, randomQuestionsStatement, [
    count,
    categories,
    mix?.easy ?? null,
    mix?.medium ?? null,
    mix?.hard ?? null,
  ]);
}

const insertAttemptStatement: NamedStatement = {
  name: "quiz.insert-attempt",
  // $1 student, $2 now, $3 seconds per question, $4 question ids in order, $5 each one's option order,
  // $6 drive, $7 timing mode, $8 paced, $9 negative mark, $10 pass mark, $11 review policy
  text: `with attempt as (
      insert into attempts (student_id, started_at, current_started_at, seconds_per_question, total_questions,
                            deadline_at, drive_id, timing_mode, paced, negative_mark, pass_mark, review_policy)
      values ($1::uuid, $2::timestamptz, $2::timestamptz, $3::int, cardinality($4::uuid[]),
              $2::timestamptz + make_interval(secs => cardinality($4::uuid[]) * $3::int),
              $6::uuid, $7::timing_mode, $8::boolean, $9::real, $10::int, $11::review_policy)
      returning ${ATTEMPT_COLUMNS}
    ), served as (
      insert into attempt_questions (attempt_id, position, question_id, option_order)
      select attempt.id, served.ordinality - 1, served.question_id, served.option_order::uuid[]
      from attempt, unnest($4::uuid[], $5::text[]) with ordinality as served(question_id, option_order, ordinality)
    )
    select * from attempt`,
};

/** Stores a new attempt and the questions served in it, in order, with each one's option order. */
export async function insertAttempt(
  db: Executor,
  values: {
    studentId: string;
    now: Date;
    served: ServedQuestion[];
    rules: Pick<
      AttemptRow,
      "secondsPerQuestion" | "driveId" | "timingMode" | "paced" | "negativeMark" | "passMark" | "reviewPolicy"
    >;
  },
) {
  const { studentId, now, served, rules } = values;
  const [attempt] = await attemptRows(db, insertAttemptStatement, [
    studentId,
    now,
    rules.secondsPerQuestion,
    served.map((question) => question.questionId),
    // PostgreSQL array literals; uuids need no quoting.
    served.map((question) => `{${question.options.map((option) => option._id).join(",")}}`),
    rules.driveId,
    rules.timingMode,
    rules.paced,
    rules.negativeMark,
    rules.passMark,
    rules.reviewPolicy,
  ]);
  if (!attempt) throw new Error("The attempt was not stored.");
  return attempt;
}

const servedQuestionsStatement: NamedStatement = {
  name: "quiz.served-questions",
  // $1 attempt, $2 one position (null: every position)
  text: `select aq.question_id as "questionId", q.text, q.category, q.difficulty, q.type,
      (select coalesce(json_agg(json_build_object('_id', o.id, 'text', o.text) order by shown.ordinality), '[]')
        from unnest(aq.option_order) with ordinality as shown(id, ordinality)
        join question_options o on o.id = shown.id) as options
    from attempt_questions aq join questions q on q.id = aq.question_id
    where aq.attempt_id = $1::uuid and ($2::int is null or aq.position = $2::int)
    order by aq.position`,
};

/** The served questions of an attempt in order, with each one's options in the order the student sees them. */
export function servedQuestions(db: Executor, attemptId: string) {
  return runNamed<ServedQuestion>(db, servedQuestionsStatement, [attemptId, null]);
}

/** One served question, for a paced attempt that reveals a question only when its window opens. */
export async function servedQuestionAt(db: Executor, attemptId: string, position: number) {
  const [question] = await runNamed<ServedQuestion>(db, servedQuestionsStatement, [attemptId, position]);
  return question;
}

const answerSlotsStatement: NamedStatement = {
  name: "quiz.answer-slots",
  text: `select aq.position, aq.question_id as "questionId", aq.option_order as "optionOrder",
      aq.selected_option_id as "selectedOptionId", aq.selected_option_ids as "selectedOptionIds",
      q.type = 'multiple' as multiple
    from attempt_questions aq join questions q on q.id = aq.question_id
    where aq.attempt_id = $1::uuid order by aq.position`,
};

export function answerSlots(db: Executor, attemptId: string) {
  return runNamed<AnswerSlot>(db, answerSlotsStatement, [attemptId]);
}

const resultRowsStatement: NamedStatement = {
  name: "quiz.result-rows",
  text: `select aq.question_id as "questionId", coalesce(aq.is_correct, false) as "isCorrect",
      (aq.selected_option_id is not null or aq.selected_option_ids is not null) as answered,
      coalesce(aq.mark, case when aq.is_correct then 1 else 0 end) as mark, q.text
    from attempt_questions aq join questions q on q.id = aq.question_id
    where aq.attempt_id = $1::uuid order by aq.position`,
};

/** A result's line: the question, whether it was answered, and whether the answer was right (never the key). */
export interface ResultRow {
  questionId: string;
  isCorrect: boolean;
  answered: boolean;
  /** 0 to 1; scored before marks were kept, a right answer counts 1. */
  mark: number;
  text: string;
}

/** Each served question's text and whether the saved answer was right: what a result shows, no answer key. */
export function resultRows(db: Executor, attemptId: string) {
  return runNamed<ResultRow>(db, resultRowsStatement, [attemptId]);
}

const resultViewStatement: NamedStatement = {
  name: "quiz.result-view",
  // $1 attempt, $2 student: the attempt if it is theirs, its drive's context and its result rows, in one read.
  text: `select a.*, t.name as "testName", d.closes_at as "closesAt", d.closed_at as "closedAt",
      (select coalesce(json_agg(json_build_object('questionId', aq.question_id,
                 'isCorrect', coalesce(aq.is_correct, false),
                 'answered', aq.selected_option_id is not null or aq.selected_option_ids is not null,
                 'mark', coalesce(aq.mark, case when aq.is_correct then 1 else 0 end), 'text', q.text) order by aq.position), '[]')
        from attempt_questions aq join questions q on q.id = aq.question_id
        where aq.attempt_id = a.id) as rows
    from (select ${ATTEMPT_COLUMNS} from attempts where id = $1::uuid and student_id = $2::uuid) a
    join drives d on d.id = a."driveId" join tests t on t.id = d.test_id`,
};

/** A result as it is stored now: the attempt (if it is the student's), its context and its rows. */
export async function resultView(db: Executor, studentId: string, attemptId: string) {
  const [row] = await runNamed<AttemptText & ResultContext & { rows: ResultRow[] }>(db, resultViewStatement, [
    attemptId,
    studentId,
  ]);
  if (!row) return undefined;
  const { testName, closesAt, closedAt, rows, ...attempt } = row;
  return { attempt: attemptFrom(attempt), context: { testName, closesAt, closedAt }, rows };
}

const saveSelectedOptionStatement: NamedStatement = {
  name: "quiz.save-selected-option",
  // $3 the one option (null for a multiple answer), $5 a multiple answer's options
  text: `update attempt_questions
    set selected_option_id = $3::uuid, selected_option_ids = $5::uuid[], answered_at = $4::timestamptz
    where attempt_id = $1::uuid and position = $2::int`,
};

export async function saveSelectedOption(
  db: Executor,
  values: { attemptId: string; position: number; choice: Choice; now: Date },
) {
  const { attemptId, position, choice, now } = values;
  await runNamed(db, saveSelectedOptionStatement, [attemptId, position, choice.optionId, now, choice.optionIds]);
}

/**
 * An answer as stored: one option in `optionId` (single and true/false questions, and the spec's clients), or
 * a multiple-answer question's options in `optionIds`; the other is null.
 */
export interface Choice {
  optionId: string | null;
  optionIds: string[] | null;
}

const moveCurrentPositionStatement: NamedStatement = {
  name: "quiz.move-current-position",
  text: "update attempts set current_position = $2::int, current_started_at = $3::timestamptz where id = $1::uuid",
};

export async function moveCurrentPosition(db: Executor, attemptId: string, position: number, startedAt: Date) {
  await runNamed(db, moveCurrentPositionStatement, [attemptId, position, startedAt]);
}

const scoreAndCloseStatement: NamedStatement = {
  name: "quiz.score-and-close",
  // Each question's mark from the options chosen (decision 018): exactly the right ones scores 1; under partial
  // scoring, (right chosen - wrong chosen) / right ones, at least 0. Unanswered scores nothing; an answer that
  // scores 0 also costs the attempt's negative mark. The score counts questions marked 1.
  text: `with chosen as (
      select aq.position, q.scoring,
             coalesce(aq.selected_option_ids, case when aq.selected_option_id is null then null
                                                   else array[aq.selected_option_id] end) as picks,
             aq.question_id
      from attempt_questions aq join questions q on q.id = aq.question_id
      where aq.attempt_id = $1::uuid
    ), graded as (
      select c.position, c.picks is not null as answered, coalesce((
        select case
          when bool_and(o.is_correct = (o.id = any(c.picks))) then 1
          when c.scoring = 'partial' then greatest(0,
            (count(*) filter (where o.is_correct and o.id = any(c.picks))
              - count(*) filter (where not o.is_correct and o.id = any(c.picks)))::real
            / nullif(count(*) filter (where o.is_correct), 0))
          else 0 end
        from question_options o where o.question_id = c.question_id and c.picks is not null), 0)::real as mark
      from chosen c
    ), marked as (
      update attempt_questions aq set is_correct = g.mark = 1, mark = g.mark
      from graded g where aq.attempt_id = $1::uuid and aq.position = g.position
      returning aq.is_correct, aq.mark, g.answered
    ), tally as (
      select count(*) filter (where is_correct)::int as correct,
             coalesce(sum(mark), 0)::real as credit,
             count(*) filter (where answered and mark = 0)::int as wrong
      from marked
    )
    update attempts set submitted_at = $2::timestamptz, score = tally.correct,
      marks = tally.credit - negative_mark * tally.wrong,
      -- Pass or fail is decided here, once, in the same arithmetic as the marks it is decided on.
      passed = case when pass_mark is null then null
                    else (tally.credit - negative_mark * tally.wrong) * 100 >= pass_mark * total_questions end
    from tally
    where id = $1::uuid and submitted_at is null
    returning ${ATTEMPT_COLUMNS}`,
};

/** Marks every served question right or wrong and closes the attempt with its score. */
export async function scoreAndClose(db: Executor, attemptId: string, now: Date) {
  const [closed] = await attemptRows(db, scoreAndCloseStatement, [attemptId, now]);
  return closed;
}

const overdueAttemptIdsStatement: NamedStatement = {
  name: "quiz.overdue-attempt-ids",
  text: `select id from attempts
    where submitted_at is null
      and least(
        deadline_at,
        current_started_at + make_interval(secs => (total_questions - current_position) * seconds_per_question)
      ) + make_interval(secs => $1::int) < now()
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
        and $4::timestamptz <= deadline_at + make_interval(secs => $5::int)
      for update
    ), target as (
      select a.*, aq.position,
             a.current_started_at + make_interval(secs => (aq.position - a.current_position) * a.seconds_per_question)
               as window_start
      from attempt a
      join attempt_questions aq on aq.attempt_id = a.id and aq.question_id = $2::uuid
      where case when $6::uuid[] is null then $3::uuid = any(aq.option_order)
                 -- Several options only for a multiple-answer question: the one case that reads the question.
                 else $6::uuid[] <@ aq.option_order and (cardinality($6::uuid[]) = 1
                   or exists (select 1 from questions q where q.id = aq.question_id and q.type = 'multiple')) end
        and (not a.paced or aq.position >= a.current_position) and aq.position < a.total_questions
    ), open_window as (
      -- An attempt timed as a whole is one window, already checked against its deadline above.
      select * from target
      where not paced or ($4::timestamptz >= window_start
        and $4::timestamptz <= window_start + make_interval(secs => seconds_per_question + $5::int))
    ), -- PostgreSQL runs data-modifying WITH parts once, whether or not the final select reads them.
    saved as (
      update attempt_questions aq
      set selected_option_id = $3::uuid, selected_option_ids = $6::uuid[], answered_at = $4::timestamptz
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

const advanceIfAllowedStatement: NamedStatement = {
  name: "quiz.advance-if-allowed",
  // $1 student, $2 position asked for, $3 now
  text: `
    with target as (
      select id, current_position, current_started_at, seconds_per_question, total_questions, deadline_at, paced,
             least(
               current_position
                 + floor(extract(epoch from ($3::timestamptz - current_started_at)) / seconds_per_question)::int,
               total_questions
             ) as position_now
      from attempts
      where student_id = $1::uuid and submitted_at is null and paced and $3::timestamptz <= deadline_at
      for update
    ), allowed as (
      select * from target
      where position_now < total_questions and $2::int <= position_now + 1 and $2::int < total_questions
    ), moved as (
      update attempts a set current_position = $2::int, current_started_at = $3::timestamptz
      from allowed t where a.id = t.id and $2::int = t.position_now + 1
      returning a.id, a.current_position, a.current_started_at
    )
    select t.id as "attemptId", t.seconds_per_question as "secondsPerQuestion", t.total_questions as "totalQuestions",
           t.paced, t.deadline_at as "deadlineAt",
           coalesce(m.current_position, t.current_position) as "currentPosition",
           coalesce(m.current_started_at, t.current_started_at) as "currentStartedAt"
    from allowed t left join moved m on m.id = t.id`,
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
  // $6 grace seconds, $7 a multiple answer's options ($5 null). The same rules as advance-if-allowed after save-answer-if-open, read from one locked row.
  text: `
    with attempt as materialized (
      select id, current_position, current_started_at, seconds_per_question, total_questions, deadline_at, paced,
             least(
               current_position
                 + floor(extract(epoch from ($3::timestamptz - current_started_at)) / seconds_per_question)::int,
               total_questions
             ) as position_now
      from attempts
      where student_id = $1::uuid and submitted_at is null and paced and $3::timestamptz <= deadline_at
      for update
    ), allowed as (
      select * from attempt
      where position_now < total_questions and $2::int <= position_now + 1 and $2::int < total_questions
    ), answer_open as (
      select w.* from (
        select al.id, aq.position as answer_position, al.seconds_per_question as window_seconds,
               al.current_started_at
                 + make_interval(secs => (aq.position - al.current_position) * al.seconds_per_question) as window_start
        from allowed al
        join attempt_questions aq on aq.attempt_id = al.id and aq.question_id = $4::uuid
        where case when $7::uuid[] is null then $5::uuid = any(aq.option_order)
                   else $7::uuid[] <@ aq.option_order and (cardinality($7::uuid[]) = 1
                     or exists (select 1 from questions q where q.id = aq.question_id and q.type = 'multiple')) end
          and aq.position >= al.current_position
      ) w
      where $3::timestamptz >= w.window_start
        and $3::timestamptz <= w.window_start + make_interval(secs => w.window_seconds + $6::int)
    ), go as (
      -- All of it or nothing: an answer sent must be taken, or the caller goes the long way to learn why.
      select al.*, ao.answer_position, ao.window_start,
             case when $2::int = al.position_now + 1 then $2::int else al.position_now end as open_position
      from allowed al left join answer_open ao on ao.id = al.id
      where $4::uuid is null or ao.id is not null
    ), saved as (
      update attempt_questions aq
      set selected_option_id = $5::uuid, selected_option_ids = $7::uuid[], answered_at = $3::timestamptz
      from go where go.answer_position is not null and aq.attempt_id = go.id and aq.position = go.answer_position
      returning aq.position
    ), moved as (
      -- Next moves the clock on; else an answer to a later window records where the timer has taken it.
      update attempts a
      set current_position = case when $2::int = go.position_now + 1 then $2::int else go.answer_position end,
          current_started_at = case when $2::int = go.position_now + 1 then $3::timestamptz else go.window_start end
      from go
      where a.id = go.id and ($2::int = go.position_now + 1 or go.answer_position > go.current_position)
      returning a.id, a.current_position, a.current_started_at
    )
    select go.id as "attemptId", go.seconds_per_question as "secondsPerQuestion",
           go.total_questions as "totalQuestions", go.paced, go.deadline_at as "deadlineAt",
           coalesce(m.current_position, go.current_position) as "currentPosition",
           coalesce(m.current_started_at, go.current_started_at) as "currentStartedAt",
           go.open_position as "openPosition",
           (select json_build_object('questionId', q.id, 'text', q.text, 'category', q.category,
                     'difficulty', q.difficulty, 'type', q.type,
                     'options', (select coalesce(json_agg(json_build_object('_id', o.id, 'text', o.text)
                                                            order by shown.ordinality), '[]')
                                 from unnest(aq.option_order) with ordinality as shown(id, ordinality)
                                 join question_options o on o.id = shown.id))
            from attempt_questions aq join questions q on q.id = aq.question_id
            where aq.attempt_id = go.id and aq.position = go.open_position) as question
    from go left join moved m on m.id = go.id`,
};

/**
 * Next with the answer to the question being left, in one statement: saves the answer when one is sent and its
 * window is open, moves on as advance-if-allowed does, and returns the clock with the question now open (at
 * `openPosition` by the clock at `now`). Returns undefined, having changed nothing, when any part would be
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
  const [row] = await runNamed<ClockRow & { attemptId: string; openPosition: number; question: ServedQuestion | null }>(
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
  return row;
}

const recordFocusLossStatement: NamedStatement = {
  name: "quiz.record-focus-loss",
  text: `update attempt_questions aq set focus_losses = aq.focus_losses + 1
    from attempts a
    where a.student_id = $1::uuid and a.submitted_at is null and aq.attempt_id = a.id and aq.position = $2::int
    returning aq.focus_losses as "focusLosses"`,
};

/** Counts one loss of focus or visibility on the open attempt's question at `position`. */
export async function recordFocusLoss(db: Executor, studentId: string, position: number) {
  const [row] = await runNamed<{ focusLosses: number }>(db, recordFocusLossStatement, [studentId, position]);
  return row;
}

/** What a result page needs beyond the attempt: the test's name and when the drive closes. */
export interface ResultContext {
  testName: string;
  closesAt: TimestampText | null;
  closedAt: TimestampText | null;
}

const resultContextStatement: NamedStatement = {
  name: "quiz.result-context",
  text: `select t.name as "testName", d.closes_at as "closesAt", d.closed_at as "closedAt"
    from drives d join tests t on t.id = d.test_id where d.id = $1::uuid`,
};

export async function resultContext(db: Executor, driveId: string) {
  const [row] = await runNamed<ResultContext>(db, resultContextStatement, [driveId]);
  if (!row) throw new Error("The attempt's drive is missing.");
  return row;
}
