// Attempts and their served questions in the database.
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
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
