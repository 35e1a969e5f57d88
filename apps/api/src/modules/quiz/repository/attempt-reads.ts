// Reading attempts: the open one (locked, for the slow path and submit), a student's attempts, the questions
// served in one, where its answers stand, and its result. Named statements like the rest of the quiz's
// (decision 006).
import { type Executor, type NamedStatement, runNamed } from "../../../db/client.ts";
import { releaseAtSql } from "../../drives/key-release.ts";
import {
  type AnswerSlot,
  ATTEMPT_COLUMNS,
  type AttemptsOf,
  type AttemptText,
  answeredSql,
  attemptFrom,
  attemptRows,
  type QuestionContent,
  questionRevisionSql,
  type ServedRef,
  type TimestampText,
} from "./attempt-rows.ts";
import { silenceHoldsSql } from "./silence-sql.ts";

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

const drivePausedAtStatement: NamedStatement = {
  name: "quiz.drive-paused-at",
  // $1 a student (their drive), or $2 a drive
  text: `select paused_at as "pausedAt" from drives
    where id = coalesce($2::uuid, (select drive_id from students where id = $1::uuid))`,
};

/**
 * When the drive of a student, or a drive, was paused (decision 039), as the database has it now; null while its
 * clocks run. What refuses a change of an attempt, and what a paused attempt is read at.
 */
export async function drivePausedAt(db: Executor, of: AttemptsOf): Promise<Date | null> {
  const studentId = "studentId" in of ? of.studentId : null;
  const driveId = "driveId" in of ? of.driveId : null;
  const [row] = await runNamed<{ pausedAt: string | Date | null }>(db, drivePausedAtStatement, [studentId, driveId]);
  return row?.pausedAt ? new Date(row.pausedAt) : null;
}

const clockHeldStatement: NamedStatement = {
  name: "quiz.clock-held",
  // $1 an attempt, $2 now
  text: `select d.paused_at is not null or ${silenceHoldsSql("a", "d", "$2::timestamptz")} as held
    from attempts a join drives d on d.id = a.drive_id where a.id = $1::uuid`,
};

/**
 * Whether nothing may close the attempt or move it on at `now`, as the database has it: its drive stands paused
 * (decision 039), or its candidate's lost connection holds it open (decision 040).
 */
export async function clockHeld(db: Executor, attemptId: string, now: Date): Promise<boolean> {
  const [row] = await runNamed<{ held: boolean }>(db, clockHeldStatement, [attemptId, now]);
  return row?.held === true;
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

const servedRefsStatement: NamedStatement = {
  name: "quiz.served-refs",
  // $1 attempt, $2 one position (null: every position)
  text: `select aq.question_id as "questionId", aq.option_order as "optionOrder", ${questionRevisionSql("q")} as revision
    from attempt_questions aq join questions q on q.id = aq.question_id
    where aq.attempt_id = $1::uuid and ($2::int is null or aq.position = $2::int)
    order by aq.position`,
};

/** The questions served in an attempt, in order, each with its options in the order the student sees them. */
export function servedRefs(db: Executor, attemptId: string) {
  return runNamed<ServedRef>(db, servedRefsStatement, [attemptId, null]);
}

/** The question served at `position`, for a paced attempt that reveals a question only when its window opens. */
export async function servedRefAt(db: Executor, attemptId: string, position: number) {
  const [served] = await runNamed<ServedRef>(db, servedRefsStatement, [attemptId, position]);
  return served;
}

const questionContentsStatement: NamedStatement = {
  name: "quiz.question-contents",
  text: `select q.id as "questionId", q.text, q.category, q.difficulty, q.type,
      (select coalesce(json_agg(json_build_object('_id', o.id, 'text', o.text) order by o.position), '[]')
        from question_options o where o.question_id = q.id) as options,
      ${questionRevisionSql("q")} as revision
    from questions q where q.id = any($1::uuid[])`,
};

/** The bank's questions with these ids as they are now, each with its options in the admin's order. */
export function questionContents(db: Executor, questionIds: string[]) {
  return runNamed<QuestionContent>(db, questionContentsStatement, [questionIds]);
}

const answerSlotsStatement: NamedStatement = {
  name: "quiz.answer-slots",
  text: `select aq.position, aq.question_id as "questionId", aq.option_order as "optionOrder",
      aq.selected_option_id as "selectedOptionId", aq.selected_option_ids as "selectedOptionIds",
      q.type = 'multiple' as multiple, aq.visited_at is not null as visited, aq.marked_for_review as marked
    from attempt_questions aq join questions q on q.id = aq.question_id
    where aq.attempt_id = $1::uuid order by aq.position`,
};

export function answerSlots(db: Executor, attemptId: string) {
  return runNamed<AnswerSlot>(db, answerSlotsStatement, [attemptId]);
}

/**
 * A result's line, under the alias `aq` of the served row and `q` of its question: whether it was answered and
 * right, its mark, and which of its served options were chosen and which are right, by id (their texts come from
 * question-contents.ts, in the order the student saw them), which only a review showing the ticks passes on.
 */
const RESULT_ROW_FIELDS = {
  questionId: "aq.question_id",
  isCorrect: "coalesce(aq.is_correct, false)",
  answered: answeredSql("aq"),
  mark: "coalesce(aq.mark, case when aq.is_correct then 1 else 0 end)",
  optionOrder: "aq.option_order",
  revision: questionRevisionSql("q"),
  chosenIds: "coalesce(aq.selected_option_ids, array_remove(array[aq.selected_option_id], null))",
  rightIds: "array(select o.id from question_options o where o.question_id = aq.question_id and o.is_correct)",
};

const resultRowsStatement: NamedStatement = {
  name: "quiz.result-rows",
  text: `select ${Object.entries(RESULT_ROW_FIELDS)
    .map(([field, value]) => `${value} as "${field}"`)
    .join(", ")}
    from attempt_questions aq join questions q on q.id = aq.question_id
    where aq.attempt_id = $1::uuid order by aq.position`,
};

/** A result's line: see RESULT_ROW_FIELDS. */
export interface ResultRow extends ServedRef {
  isCorrect: boolean;
  answered: boolean;
  /** 0 to 1; scored before marks were kept, a right answer counts 1. */
  mark: number;
  chosenIds: string[];
  rightIds: string[];
}

/** Each served question's line of the attempt's result, in order. */
export function resultRows(db: Executor, attemptId: string) {
  return runNamed<ResultRow>(db, resultRowsStatement, [attemptId]);
}

/** Whether the drive `d` checks identities; the certificate itself applies the whole rule (certificates/repository.ts). */
const IDENTITY_CHECKED = "(d.roster_only or d.verify_email)";

const resultViewStatement: NamedStatement = {
  name: "quiz.result-view",
  // $1 attempt, $2 student: the attempt if it is theirs, its drive's context and its result rows, in one read.
  text: `select a.*, t.name as "testName", d.name as "driveName", d.organisation, d.time_zone as "timeZone",
      ${releaseAtSql("d")} as "releaseAt", ${IDENTITY_CHECKED} as "identityChecked", d.hold_results as "holdResults",
      (select coalesce(json_agg(json_build_object(${Object.entries(RESULT_ROW_FIELDS)
        .map(([field, value]) => `'${field}', ${value}`)
        .join(", ")}) order by aq.position), '[]')
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
  const { testName, driveName, organisation, timeZone, releaseAt, identityChecked, holdResults, rows, ...attempt } =
    row;
  return {
    attempt: attemptFrom(attempt),
    context: { testName, driveName, organisation, timeZone, releaseAt, identityChecked, holdResults },
    rows,
  };
}

/** What a result page needs beyond the attempt: the test's name, and when the drive releases what hides its key. */
export interface ResultContext {
  testName: string;
  driveName: string;
  organisation: string;
  timeZone: string;
  /** releaseAtSql: null while the drive has no closing time. */
  releaseAt: TimestampText | null;
  /** The drive checks who its students are (a roster, or e-mailed codes): its passes earn certificates. */
  identityChecked: boolean;
  /** The drive holds its results until an admin publishes them. */
  holdResults: boolean;
}

const resultContextStatement: NamedStatement = {
  name: "quiz.result-context",
  text: `select t.name as "testName", d.name as "driveName", d.organisation, d.time_zone as "timeZone",
      ${releaseAtSql("d")} as "releaseAt", ${IDENTITY_CHECKED} as "identityChecked", d.hold_results as "holdResults"
    from drives d join tests t on t.id = d.test_id where d.id = $1::uuid`,
};

export async function resultContext(db: Executor, driveId: string) {
  const [row] = await runNamed<ResultContext>(db, resultContextStatement, [driveId]);
  if (!row) throw new Error("The attempt's drive is missing.");
  return row;
}
