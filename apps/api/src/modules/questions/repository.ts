// The question bank: questions with their ordered options.
import type { QuestionInput } from "@trainwise/contract/questions";
import type { Executor } from "../../db/client.ts";
import { questionOptions, questions } from "../../db/schema.ts";

export async function createQuestion(db: Executor, input: QuestionInput) {
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
