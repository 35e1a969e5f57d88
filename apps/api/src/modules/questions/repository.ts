// The question bank: questions with their ordered options.
import type { QuestionInput } from "@trainwise/contract/questions";
import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { attemptQuestions, questionOptions, questions } from "../../db/schema.ts";

type QuestionRow = typeof questions.$inferSelect;
type OptionRow = typeof questionOptions.$inferSelect;
export type QuestionWithOptions = QuestionRow & { options: OptionRow[] };

export async function createQuestion(db: Executor, input: QuestionInput): Promise<QuestionWithOptions> {
  const [question] = await db
    .insert(questions)
    .values({ text: input.text, category: input.category, difficulty: input.difficulty })
    .returning();
  if (!question) throw new Error("The question was not created.");
  const options = await db
    .insert(questionOptions)
    .values(input.options.map((option, position) => ({ ...option, questionId: question.id, position })))
    .returning();
  return { ...question, options: options.sort((a, b) => a.position - b.position) };
}

export async function listQuestions(db: Executor): Promise<QuestionWithOptions[]> {
  const rows = await db.select().from(questions).where(isNull(questions.archivedAt)).orderBy(desc(questions.createdAt));
  if (rows.length === 0) return [];
  const options = await db
    .select()
    .from(questionOptions)
    .where(
      inArray(
        questionOptions.questionId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(questionOptions.position));
  return rows.map((row) => ({ ...row, options: options.filter((option) => option.questionId === row.id) }));
}

/** Deletes a question nobody was asked; archives one that attempts refer to, so results keep what was asked. */
export async function archiveOrDeleteQuestion(db: Database, id: string): Promise<"deleted" | "archived" | "not-found"> {
  return db.transaction(async (tx) => {
    const [question] = await tx
      .select({ id: questions.id })
      .from(questions)
      .where(and(eq(questions.id, id), isNull(questions.archivedAt)))
      .for("update");
    if (!question) return "not-found";
    const [used] = await tx
      .select({ questionId: attemptQuestions.questionId })
      .from(attemptQuestions)
      .where(eq(attemptQuestions.questionId, id))
      .limit(1);
    if (used) {
      await tx.update(questions).set({ archivedAt: new Date() }).where(eq(questions.id, id));
      return "archived";
    }
    await tx.delete(questions).where(eq(questions.id, id));
    return "deleted";
  });
}

export function toQuestionResponse(question: QuestionWithOptions) {
  return {
    _id: question.id,
    text: question.text,
    category: question.category,
    difficulty: question.difficulty,
    createdAt: question.createdAt.toISOString(),
    options: question.options.map((option) => ({ _id: option.id, text: option.text, isCorrect: option.isCorrect })),
  };
}
