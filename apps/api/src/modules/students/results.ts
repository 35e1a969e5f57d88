// Submitted attempts as admins see them: the list, one attempt in full, and the dashboard's overview.
import { count, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { attemptQuestions, attempts, questionOptions, questions, students } from "../../db/schema.ts";

const resultColumns = {
  id: attempts.id,
  studentName: students.name,
  studentEmail: students.email,
  usnNo: students.usnNo,
  score: attempts.score,
  totalQuestions: attempts.totalQuestions,
  submittedAt: attempts.submittedAt,
};

export async function listResults(db: Executor) {
  return db
    .select(resultColumns)
    .from(attempts)
    .innerJoin(students, eq(students.id, attempts.studentId))
    .where(isNotNull(attempts.submittedAt))
    .orderBy(desc(attempts.submittedAt));
}

export async function resultDetail(db: Executor, id: string) {
  const [attempt] = await db
    .select(resultColumns)
    .from(attempts)
    .innerJoin(students, eq(students.id, attempts.studentId))
    .where(eq(attempts.id, id));
  if (!attempt?.submittedAt) return undefined;
  const answers = await db.execute<{
    question_id: string;
    question: string;
    chosen: string | null;
    correct: string;
    is_correct: boolean | null;
    focus_losses: number;
  }>(sql`
    select aq.question_id, q.text as question, chosen.text as chosen, right_option.text as correct, aq.is_correct,
           aq.focus_losses
    from ${attemptQuestions} aq
    join ${questions} q on q.id = aq.question_id
    left join ${questionOptions} chosen on chosen.id = aq.selected_option_id
    join ${questionOptions} right_option on right_option.question_id = aq.question_id and right_option.is_correct
    where aq.attempt_id = ${id}
    order by aq.position`);
  return {
    ...attempt,
    submittedAt: attempt.submittedAt,
    focusLosses: answers.rows.reduce((sum, row) => sum + row.focus_losses, 0),
    answers: answers.rows.map((row) => ({
      questionId: row.question_id,
      question: row.question,
      chosen: row.chosen,
      correct: row.correct,
      isCorrect: row.is_correct === true,
      focusLosses: row.focus_losses,
    })),
  };
}

const BUCKETS = ["0–20%", "20–40%", "40–60%", "60–80%", "80–100%"];

export async function resultsSummary(db: Executor) {
  const [studentCount] = await db.select({ total: count() }).from(students);
  const [questionCount] = await db.select({ total: count() }).from(questions).where(isNull(questions.archivedAt));
  const percentages = await db
    .select({ percentage: sql<number>`${attempts.score}::float / nullif(${attempts.totalQuestions}, 0) * 100` })
    .from(attempts)
    .where(isNotNull(attempts.submittedAt));
  const distribution = BUCKETS.map((label) => ({ label, count: 0 }));
  for (const { percentage } of percentages) {
    const bucket = distribution[Math.min(Math.floor((percentage ?? 0) / 20), BUCKETS.length - 1)];
    if (bucket) bucket.count++;
  }
  const items = await db.execute<{ question_id: string; text: string; served: number; correct: number }>(sql`
    select aq.question_id, q.text, count(*)::int as served, count(*) filter (where aq.is_correct)::int as correct
    from ${attemptQuestions} aq
    join ${attempts} a on a.id = aq.attempt_id and a.submitted_at is not null
    join ${questions} q on q.id = aq.question_id
    group by aq.question_id, q.text
    order by count(*) filter (where aq.is_correct)::float / count(*), q.text`);
  const total = percentages.reduce((sum, row) => sum + (row.percentage ?? 0), 0);
  return {
    students: studentCount?.total ?? 0,
    submitted: percentages.length,
    questions: questionCount?.total ?? 0,
    averagePercentage: percentages.length ? Math.round((total / percentages.length) * 100) / 100 : null,
    distribution,
    items: items.rows.map((row) => ({
      questionId: row.question_id,
      text: row.text,
      served: row.served,
      correct: row.correct,
      correctShare: row.served ? Math.round((row.correct / row.served) * 10000) / 100 : 0,
    })),
  };
}
