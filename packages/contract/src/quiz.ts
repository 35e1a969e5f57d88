// GET /api/quiz/questions, POST /api/quiz/submit, GET /api/quiz/result/{id} (student).
import { z } from "zod";
import { idSchema } from "./common.ts";
import { QUIZ_QUESTION_LIMIT } from "./constants.ts";

export const quizQuestionsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int({ error: "limit must be a whole number" })
    .min(1, { error: "limit must be at least 1" })
    .max(QUIZ_QUESTION_LIMIT, { error: `limit must be at most ${QUIZ_QUESTION_LIMIT}` })
    .default(QUIZ_QUESTION_LIMIT),
});

/** A question as a student sees it: options carry no correctness field, ever. */
export const quizQuestionSchema = z.object({
  _id: idSchema,
  text: z.string(),
  category: z.string(),
  difficulty: z.string(),
  options: z.array(z.object({ _id: idSchema, text: z.string() }).strict()),
});
export type QuizQuestion = z.infer<typeof quizQuestionSchema>;
export const quizQuestionListSchema = z.array(quizQuestionSchema);

export const answerSchema = z.object({ questionId: idSchema, optionId: idSchema });
export type Answer = z.infer<typeof answerSchema>;

export const quizSubmitSchema = z.object({
  answers: z.array(answerSchema, { error: "answers must be a list" }).max(200, {
    error: "Too many answers",
  }),
});
export type QuizSubmit = z.infer<typeof quizSubmitSchema>;
export const quizSubmitResponseSchema = z.object({ resultId: idSchema });

export const quizResultSchema = z.object({
  resultId: idSchema,
  score: z.number().int(),
  totalQuestions: z.number().int(),
  answers: z.array(
    z.object({
      questionId: idSchema,
      isCorrect: z.boolean(),
      question: z.object({ text: z.string() }),
    }),
  ),
});
export type QuizResult = z.infer<typeof quizResultSchema>;

/** Where a student stands in their attempt: lets a refreshed page resume the same question and time. */
export const attemptStateSchema = z.discriminatedUnion("status", [
  z.object({
    status: z.literal("in_progress"),
    attemptId: idSchema,
    totalQuestions: z.number().int(),
    currentIndex: z.number().int(),
    secondsLeft: z.number().int(),
    secondsPerQuestion: z.number().int(),
    answers: z.array(answerSchema),
  }),
  z.object({ status: z.literal("submitted"), attemptId: idSchema, resultId: idSchema }),
]);
export type AttemptState = z.infer<typeof attemptStateSchema>;

export const saveAnswerSchema = answerSchema;
export const advanceSchema = z.object({
  position: z
    .number({ error: "position must be a number" })
    .int({ error: "position must be a whole number" })
    .min(1, { error: "position must be at least 1" })
    // No attempt has more questions than the 200 answers a submission may carry.
    .max(200, { error: "position must be at most 200" }),
});

/** The answer to saving an answer or moving on: where the attempt now stands on the server's clock. */
export const attemptProgressSchema = z.object({
  currentIndex: z.number().int(),
  secondsLeft: z.number().int(),
});
export type AttemptProgress = z.infer<typeof attemptProgressSchema>;

/** Score as a percentage with two decimals (spec §9), the same on the result page, the admin list and CSV. */
export function scorePercentage(score: number, totalQuestions: number): string {
  return totalQuestions > 0 ? ((score / totalQuestions) * 100).toFixed(2) : "0.00";
}
