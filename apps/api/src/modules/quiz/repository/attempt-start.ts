// Starting an attempt: the student locked with what a start needs, the questions drawn, and the attempt stored
// with its served questions in one statement. Named statements like the rest of the quiz's (decision 006).
import type { DifficultyMix } from "@trainwise/contract/drives";
import { type Executor, type NamedStatement, runNamed } from "../../../db/client.ts";
import type { tests } from "../../../db/schema.ts";
import { drawableSql, keptForSecureSql } from "../../drives/key-release.ts";
import {
  ATTEMPT_COLUMNS,
  type AttemptRow,
  type AttemptText,
  attemptFrom,
  attemptRows,
  questionRevisionSql,
  type ServedRef,
  type TimestampText,
} from "./attempt-rows.ts";
import { deadlineSql, endsByCloseSql } from "./clock-sql.ts";
import { endedEarlySql } from "./intro.ts";

/** A student about to start an attempt: their allowances, their drive's window and the test's rules. */
export interface StudentForStart {
  attemptsAllowed: number;
  timeMultiplier: number;
  driveId: string;
  opensAt: TimestampText | null;
  closesAt: TimestampText | null;
  closedAt: TimestampText | null;
  timeZone: string;
  /** Minutes after opensAt past which no attempt starts; null: until the close. */
  lateEntryMinutes: number | null;
  /** The student's drive is the open default drive, where the original all-at-once client runs unpaced. */
  driveIsDefault: boolean;
  /** The drive's closing ends running attempts: no attempt's deadline outlasts it. */
  closingEndsAttempts: boolean;
  testName: string;
  /** The student's attempts, newest first. */
  attempts: AttemptRow[];
  /** One of their attempts was ended before its student or its time did (the focus-loss limit, an invigilator). */
  endedEarly: boolean;
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
    | "sections"
    | "reviewPolicy"
    | "secure"
  >;
}

const lockStudentStatement: NamedStatement = {
  name: "quiz.lock-student",
  text: `select s.attempts_allowed as "attemptsAllowed", s.time_multiplier as "timeMultiplier", s.drive_id as "driveId",
      d.opens_at as "opensAt", d.closes_at as "closesAt", d.closed_at as "closedAt", d.time_zone as "timeZone",
      d.late_entry_minutes as "lateEntryMinutes", d.is_default as "driveIsDefault", d.closing_ends_attempts as "closingEndsAttempts", t.name as "testName",
      (select coalesce(json_agg(a order by a."startedAt" desc), '[]')
        from (select ${ATTEMPT_COLUMNS} from attempts where student_id = s.id) a) as attempts,
      ${endedEarlySql("s")} as "endedEarly",
      json_build_object('categories', t.categories, 'difficultyMix', t.difficulty_mix,
        'questionCount', t.question_count, 'secondsPerQuestion', t.seconds_per_question, 'timingMode', t.timing_mode,
        'attemptsAllowed', t.attempts_allowed, 'passMark', t.pass_mark, 'negativeMark', t.negative_mark,
        'sections', t.sections, 'reviewPolicy', t.review_policy, 'secure', t.secure) as test
    from students s join drives d on d.id = s.drive_id join tests t on t.id = d.test_id
    where s.id = $1::uuid for update of s for share of d`,
  // The drive's row is held (shared with the drive's other starts) until the start commits: closing and publishing
  // update that row, so they wait for starts in flight, and a start behind a close reads the drive closed. Read
  // unlocked, a start could store an attempt after the drive had closed and published its key (an outside attack).
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

const drawQuestionsStatement: NamedStatement = {
  name: "quiz.draw-questions",
  // $1 the draws in order, a jsonb list of {count, categories (empty: all), easy, medium, hard (null: any
  // difficulty)}; $2 secure (only keys no candidate has seen) or practice (no key a secure drive still needs).
  // The bank is read once: the questions some draw may take, each with its luck; then each draw in turn takes
  // its count from them, never one an earlier draw took (a recursive step per draw, over that one reading).
  // Which questions only: claimAndLockDrawn reads them as they are once locked.
  text: `with recursive draws as (
      select s.ordinality::int as place, (s.value->>'count')::int as count,
             array(select jsonb_array_elements_text(s.value->'categories')) as categories,
             (s.value->>'easy')::int as easy, (s.value->>'medium')::int as medium, (s.value->>'hard')::int as hard
      from jsonb_array_elements($1::jsonb) with ordinality s
    ), wanted as (
      select bool_or(cardinality(categories) = 0) as every_category, array_agg(c) as categories
      from draws left join lateral unnest(draws.categories) c on true
    ), candidates as materialized (
      -- A practice draw takes an unseen question a secure drive is waiting for only when it lacks others.
      select q.id, q.category, q.difficulty, not $2::boolean and ${keptForSecureSql("q")} as last_resort,
             random() as luck
      from questions q cross join wanted
      where q.archived_at is null and (wanted.every_category or q.category = any(wanted.categories))
        and ${drawableSql("q", "$2::boolean")}
    ), drawn(place, ids) as (
      select 0, '{}'::uuid[]
      union all
      select d.place + 1, d.ids || array(
        -- Without a mix, the luckiest; with one, the luckiest of each difficulty up to its count. Each branch runs
        -- only for the draws it is for (a window over the whole bank per draw was most of a draw's time).
        (select c.id from candidates c
          where s.easy is null and (cardinality(s.categories) = 0 or c.category = any(s.categories))
            and (cardinality(d.ids) = 0 or not c.id = any(d.ids))
          order by c.last_resort, c.luck limit s.count)
        union all
        (select c.id from (
            select c.*, row_number() over (partition by c.difficulty order by c.last_resort, c.luck) as within
            from candidates c
            where s.easy is not null and (cardinality(s.categories) = 0 or c.category = any(s.categories))
              and (cardinality(d.ids) = 0 or not c.id = any(d.ids))
          ) c
          where c.within <= case c.difficulty when 'easy' then s.easy when 'medium' then s.medium else s.hard end
          order by c.last_resort, c.luck limit s.count))
      from drawn d join draws s on s.place = d.place + 1
    )
    -- Every id taken, in order, and where each draw's part ends.
    select (select ids from drawn order by place desc limit 1) as ids,
           (select array_agg(cardinality(ids) order by place) from drawn where place > 0) as ends`,
};

/** One draw of a start: how many questions, from which categories (all when none), and a difficulty mix. */
export interface Draw {
  count: number;
  categories: string[];
  mix: DifficultyMix | null;
}

/**
 * Each draw's questions, in the order of `draws` (a test's sections, or the test itself): up to `count` current
 * questions from its categories, `mix` of each difficulty when it sets one, whose keys the drive may use, none that
 * an earlier draw took; a practice drive's unseen questions that a secure drive is waiting for last (decision 024).
 * One statement, which reads the bank once however many draws there are.
 */
export async function drawQuestionIds(db: Executor, draws: Draw[], secure: boolean): Promise<string[][]> {
  const asked = draws.map(({ count, categories, mix }) => ({
    count,
    categories,
    easy: mix?.easy ?? null,
    medium: mix?.medium ?? null,
    hard: mix?.hard ?? null,
  }));
  const [row] = await runNamed<{ ids: string[]; ends: number[] }>(db, drawQuestionsStatement, [
    JSON.stringify(asked),
    secure,
  ]);
  const ids = row?.ids ?? [];
  return draws.map((_, index) => ids.slice(row?.ends[index - 1] ?? 0, row?.ends[index] ?? 0));
}

const claimFirstDrawsStatement: NamedStatement = {
  name: "quiz.claim-first-draws",
  // Locks, in id order, only the questions never drawn before: after its first start a question costs a lookup.
  // "No key update": the lock two claims take turns on, which leaves alone the key-share locks that storing an
  // attempt's questions takes on every question it drew (with "for update", those waits made a circle).
  text: `update questions set key_drawn = true where id in (
      select id from questions where id = any($1::uuid[]) and not key_drawn order by id for no key update)`,
};

const lockDrawnStatement: NamedStatement = {
  name: "quiz.lock-drawn",
  // $1 the drawn questions, $2 secure. Key share, in id order: the lock storing the attempt's questions takes
  // anyway (the foreign key), taken earlier. It waits only for an admin changing or deleting the question, and
  // then reads the row as that change left it.
  text: `select q.id as "questionId", ${questionRevisionSql("q")} as revision,
      q.archived_at is null and ${drawableSql("q", "$2::boolean")} as drawable
    from questions q where q.id = any($1::uuid[]) order by q.id for key share`,
};

/**
 * The questions just drawn, claimed and locked until the start ends, as they are now: each one's revision, and
 * whether this start may still serve it. The draw reads without locks, so until here an admin could change a
 * question nobody had been served (updateQuestion changes those in place) or delete it, and another start could
 * make a fresh one unusable for this one (a practice and a secure first draw both found its key unspoken for,
 * decision 024). Claiming the fresh ones first (their row locks, in id order) makes such draws take turns; the
 * lock after the claim, a statement of its own, sees what the others committed; from then on no change can land
 * before this start's attempt is stored, and its texts are read at the revisions returned here (an outside review
 * found a start serving a question's old text and options after an admin's change landed mid-start).
 */
export async function claimAndLockDrawn(db: Executor, questionIds: string[], secure: boolean) {
  await runNamed(db, claimFirstDrawsStatement, [questionIds]);
  return runNamed<Pick<ServedRef, "questionId" | "revision"> & { drawable: boolean }>(db, lockDrawnStatement, [
    questionIds,
    secure,
  ]);
}

const insertAttemptStatement: NamedStatement = {
  name: "quiz.insert-attempt",
  // $1 student, $2 now, $3 seconds per question (of the first section, timed per section), $4 question ids in
  // order, $5 each one's option order, $6 drive, $7 timing mode, $8 paced, $9 negative mark, $10 pass mark, $11
  // review policy, $12 secure, $13 when the drive's closing ends the attempt (null: it may use all its time), $14
  // the sections served (null: none), $15 the seconds the attempt is given, $16 the position after the first
  // section's last and $17 the seconds that section is given (both null: one section, the attempt's).
  text: `with attempt as (
      insert into attempts (student_id, started_at, current_started_at, seconds_per_question, total_questions,
                            deadline_at, drive_id, timing_mode, paced, negative_mark, pass_mark, review_policy,
                            secure, sections, section_end, section_deadline_at)
      values ($1::uuid, $2::timestamptz, $2::timestamptz, $3::int, cardinality($4::uuid[]),
              ${endsByCloseSql(deadlineSql({ startedAt: "$2::timestamptz", seconds: "$15::int" }), "$13::timestamptz")},
              $6::uuid, $7::timing_mode, $8::boolean, $9::real, $10::int, $11::review_policy, $12::boolean,
              $14::jsonb, $16::int, case when $16::int is not null then
                ${endsByCloseSql(deadlineSql({ startedAt: "$2::timestamptz", seconds: "$17::int" }), "$13::timestamptz")}
              end)
      returning ${ATTEMPT_COLUMNS}
    ), served as (
      insert into attempt_questions (attempt_id, position, question_id, option_order)
      select attempt.id, served.ordinality - 1, served.question_id, served.option_order::uuid[]
      from attempt, unnest($4::uuid[], $5::text[]) with ordinality as served(question_id, option_order, ordinality)
    ), keys as (
      -- Where each served key now stands (decision 024): only the first draw of a question in the drive writes;
      -- every later one is an index lookup that neither writes nor locks, so concurrent starts never queue on it.
      -- (A secure drive's row stays "reserved" if its test turns practice: that is refused until the drive has
      -- released, and a released drive's keys count as seen.)
      -- In one order, so that two first draws of the same questions in a drive wait for each other, never in a
      -- circle (an outside attack's 40 simultaneous first starts deadlocked when each inserted in its draw's order).
      insert into question_keys (question_id, drive_id, exposed)
      select question_id, $6::uuid, not $12::boolean from unnest($4::uuid[]) as question_id order by question_id
      on conflict (question_id, drive_id) do nothing
    )
    select * from attempt`,
};

/** Stores a new attempt and the questions served in it, in order, with each one's option order. */
export async function insertAttempt(
  db: Executor,
  values: {
    studentId: string;
    now: Date;
    served: ServedRef[];
    /** When the drive's closing ends the attempt; null when it may use all its time. */
    endsBy: TimestampText | null;
    /** The seconds the attempt is given, and its first section's end and seconds (null: one section, the attempt's). */
    time: { seconds: number; firstSection: { end: number; seconds: number } | null };
    rules: Pick<
      AttemptRow,
      | "secondsPerQuestion"
      | "driveId"
      | "timingMode"
      | "paced"
      | "negativeMark"
      | "passMark"
      | "reviewPolicy"
      | "secure"
      | "sections"
    >;
  },
) {
  const { studentId, now, served, endsBy, time, rules } = values;
  const [attempt] = await attemptRows(db, insertAttemptStatement, [
    studentId,
    now,
    rules.secondsPerQuestion,
    served.map((question) => question.questionId),
    // PostgreSQL array literals; uuids need no quoting.
    served.map((question) => `{${question.optionOrder.join(",")}}`),
    rules.driveId,
    rules.timingMode,
    rules.paced,
    rules.negativeMark,
    rules.passMark,
    rules.reviewPolicy,
    rules.secure,
    endsBy,
    rules.sections && JSON.stringify(rules.sections),
    time.seconds,
    time.firstSection?.end ?? null,
    time.firstSection?.seconds ?? null,
  ]);
  if (!attempt) throw new Error("The attempt was not stored.");
  return attempt;
}
