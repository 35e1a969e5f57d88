// Attempts and their served questions in the database.
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { type Database, type Executor, type NamedStatement, runNamed } from "../../db/client.ts";
import { attemptQuestions, attempts, questionOptions, questions, students } from "../../db/schema.ts";

export type AttemptRow = typeof attempts.$inferSelect;

/** Locks the student's row so that concurrent starts and submits of one student run one at a time. */
export async function lockStudent(db: Executor, studentId: string) {
  const [student] = await db.select().from(students).where(eq(students.id, studentId)).for("update");
  return student;
}

export function attemptsOf(db: Executor, studentId: string) {
  return db.select().from(attempts).where(eq(attempts.studentId, studentId)).orderBy(desc(attempts.startedAt));
}

export async function randomQuestionIds(db: Executor, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: questions.id })
    .from(questions)
    .where(isNull(questions.archivedAt))
    .orderBy(sql`random()`)
    .limit(limit);
  return rows.map((row) => row.id);
}

export async function optionIdsByQuestion(db: Executor, questionIds: string[]): Promise<Map<string, string[]>> {
  const rows = await db
    .select({ id: questionOptions.id, questionId: questionOptions.questionId })
    .from(questionOptions)
    .where(inArray(questionOptions.questionId, questionIds))
    .orderBy(asc(questionOptions.position));
  const byQuestion = new Map<string, string[]>();
  for (const row of rows) byQuestion.set(row.questionId, [...(byQuestion.get(row.questionId) ?? []), row.id]);
  return byQuestion;
}

export async function insertAttempt(
  db: Executor,
  values: { studentId: string; secondsPerQuestion: number; served: { questionId: string; optionOrder: string[] }[] },
) {
  const now = new Date();
  const total = values.served.length;
  const [attempt] = await db
    .insert(attempts)
    .values({
      studentId: values.studentId,
      startedAt: now,
      currentStartedAt: now,
      secondsPerQuestion: values.secondsPerQuestion,
      totalQuestions: total,
      deadlineAt: new Date(now.getTime() + total * values.secondsPerQuestion * 1000),
    })
    .returning();
  if (!attempt) throw new Error("The attempt was not stored.");
  await db
    .insert(attemptQuestions)
    .values(values.served.map((served, position) => ({ attemptId: attempt.id, position, ...served })));
  return attempt;
}

/** The served questions of an attempt in order, with each one's options in the order the student sees them. */
export async function servedQuestions(db: Executor, attemptId: string) {
  const rows = await db
    .select({
      position: attemptQuestions.position,
      questionId: attemptQuestions.questionId,
      optionOrder: attemptQuestions.optionOrder,
      selectedOptionId: attemptQuestions.selectedOptionId,
      isCorrect: attemptQuestions.isCorrect,
      text: questions.text,
      category: questions.category,
      difficulty: questions.difficulty,
    })
    .from(attemptQuestions)
    .innerJoin(questions, eq(questions.id, attemptQuestions.questionId))
    .where(eq(attemptQuestions.attemptId, attemptId))
    .orderBy(asc(attemptQuestions.position));
  const optionRows = rows.length
    ? await db
        .select({ id: questionOptions.id, text: questionOptions.text })
        .from(questionOptions)
        .where(
          inArray(
            questionOptions.questionId,
            rows.map((row) => row.questionId),
          ),
        )
    : [];
  const optionText = new Map(optionRows.map((option) => [option.id, option.text]));
  return rows.map((row) => ({
    ...row,
    options: row.optionOrder.map((id) => ({ _id: id, text: optionText.get(id) ?? "" })),
  }));
}

/** One served question of an attempt, for saving its answer without loading the whole quiz. */
export async function servedQuestion(db: Executor, attemptId: string, questionId: string) {
  const [row] = await db
    .select({
      position: attemptQuestions.position,
      questionId: attemptQuestions.questionId,
      optionOrder: attemptQuestions.optionOrder,
      selectedOptionId: attemptQuestions.selectedOptionId,
    })
    .from(attemptQuestions)
    .where(and(eq(attemptQuestions.attemptId, attemptId), eq(attemptQuestions.questionId, questionId)));
  return row;
}

export async function lockOpenAttempt(db: Executor, studentId: string) {
  const [attempt] = await db
    .select()
    .from(attempts)
    .where(and(eq(attempts.studentId, studentId), isNull(attempts.submittedAt)))
    .for("update");
  return attempt;
}

export function saveSelectedOption(db: Executor, attemptId: string, position: number, optionId: string) {
  return db
    .update(attemptQuestions)
    .set({ selectedOptionId: optionId, answeredAt: new Date() })
    .where(and(eq(attemptQuestions.attemptId, attemptId), eq(attemptQuestions.position, position)));
}

export function moveCurrentPosition(db: Executor, attemptId: string, position: number, startedAt: Date) {
  return db
    .update(attempts)
    .set({ currentPosition: position, currentStartedAt: startedAt })
    .where(eq(attempts.id, attemptId));
}

/** Marks every served question right or wrong (unanswered is wrong) and closes the attempt with its score. */
export async function scoreAndClose(db: Executor, attemptId: string) {
  await db.execute(sql`
    update attempt_questions aq
    set is_correct = coalesce((select o.is_correct from question_options o where o.id = aq.selected_option_id), false)
    where aq.attempt_id = ${attemptId}`);
  const [closed] = await db
    .update(attempts)
    .set({
      submittedAt: new Date(),
      score: sql`(select count(*)::int from attempt_questions where attempt_id = ${attemptId} and is_correct)`,
    })
    .where(and(eq(attempts.id, attemptId), isNull(attempts.submittedAt)))
    .returning();
  return closed;
}

/** Open attempts whose last window (or absolute deadline) has passed by more than `graceSeconds`. */
export async function overdueAttemptIds(db: Executor, graceSeconds: number, limit = 100): Promise<string[]> {
  const rows = await db.execute<{ id: string }>(sql`
    select id from attempts
    where submitted_at is null
      and least(
        deadline_at,
        current_started_at + make_interval(secs => (total_questions - current_position) * seconds_per_question)
      ) + make_interval(secs => ${graceSeconds}) < now()
    order by deadline_at
    limit ${limit}
    for update skip locked`);
  return rows.rows.map((row) => row.id);
}

type ClockRow = {
  id: string;
  current_position: number;
  current_started_at: Date;
  seconds_per_question: number;
  total_questions: number;
};

const saveAnswerIfOpenStatement: NamedStatement = {
  name: "quiz.save-answer-if-open",
  // $1 student, $2 question, $3 option, $4 now, $5 grace seconds
  text: `
    with target as (
      select a.id, a.current_position, a.current_started_at, a.seconds_per_question, a.total_questions, aq.position,
             a.current_started_at + make_interval(secs => (aq.position - a.current_position) * a.seconds_per_question)
               as window_start
      from attempts a
      join attempt_questions aq on aq.attempt_id = a.id
      where a.student_id = $1::uuid and a.submitted_at is null
        and aq.question_id = $2::uuid and $3::uuid = any(aq.option_order)
        and aq.position >= a.current_position and aq.position < a.total_questions
        and $4::timestamptz <= a.deadline_at + make_interval(secs => $5::int)
      for update of a
    ), open_window as (
      select * from target
      where $4::timestamptz >= window_start
        and $4::timestamptz <= window_start + make_interval(secs => seconds_per_question + $5::int)
    ), -- PostgreSQL runs data-modifying WITH parts once, whether or not the final select reads them.
    saved as (
      update attempt_questions aq set selected_option_id = $3::uuid, answered_at = $4::timestamptz
      from open_window w where aq.attempt_id = w.id and aq.position = w.position
      returning aq.position
    ), moved as (
      update attempts a set current_position = w.position, current_started_at = w.window_start
      from open_window w where a.id = w.id and w.position > w.current_position
      returning a.id
    )
    select w.id, w.position, w.seconds_per_question, w.total_questions,
           greatest(w.current_position, w.position) as current_position,
           case when w.position > w.current_position then w.window_start else w.current_started_at end
             as current_started_at
    from open_window w`,
};

/**
 * The common case of saving an answer in one statement: the question is served in the student's open attempt,
 * the option is one of its own, and its window (plus `graceSeconds`) is open at `now`. Returns the attempt's
 * clock after the save, or undefined when any condition fails (the caller then finds out which, slowly).
 */
export async function saveAnswerIfOpen(
  db: Database,
  values: { studentId: string; questionId: string; optionId: string; now: Date; graceSeconds: number },
) {
  const { studentId, questionId, optionId, now, graceSeconds } = values;
  const [row] = await runNamed<ClockRow & { position: number }>(db, saveAnswerIfOpenStatement, [
    studentId,
    questionId,
    optionId,
    now,
    graceSeconds,
  ]);
  return row;
}

const advanceIfAllowedStatement: NamedStatement = {
  name: "quiz.advance-if-allowed",
  // $1 student, $2 position asked for, $3 now
  text: `
    with target as (
      select id, current_position, current_started_at, seconds_per_question, total_questions,
             least(
               current_position
                 + floor(extract(epoch from ($3::timestamptz - current_started_at)) / seconds_per_question)::int,
               total_questions
             ) as position_now
      from attempts
      where student_id = $1::uuid and submitted_at is null and $3::timestamptz <= deadline_at
      for update
    ), allowed as (
      select * from target
      where position_now < total_questions and $2::int <= position_now + 1 and $2::int < total_questions
    ), moved as (
      update attempts a set current_position = $2::int, current_started_at = $3::timestamptz
      from allowed t where a.id = t.id and $2::int = t.position_now + 1
      returning a.id, a.current_position, a.current_started_at
    )
    select t.id, t.seconds_per_question, t.total_questions, t.position_now,
           coalesce(m.current_position, t.current_position) as current_position,
           coalesce(m.current_started_at, t.current_started_at) as current_started_at
    from allowed t left join moved m on m.id = t.id`,
};

/**
 * Next, in one statement, when it is allowed: `position` is the question after the one open on the clock.
 * A position the clock has already reached is accepted without change. Returns the clock afterwards, or
 * undefined for anything else (closed attempt, a jump ahead, time up), which the caller explains.
 */
export async function advanceIfAllowed(db: Database, values: { studentId: string; position: number; now: Date }) {
  const { studentId, position, now } = values;
  const [row] = await runNamed<ClockRow & { position_now: number }>(db, advanceIfAllowedStatement, [
    studentId,
    position,
    now,
  ]);
  return row;
}
