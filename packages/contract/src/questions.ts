// GET/POST /api/questions and DELETE /api/questions/{id} (admin).
import { z } from "zod";
import { idSchema, pagingQuerySchema, requiredText, searchText } from "./common.ts";
import { DEFAULT_DIFFICULTY, DIFFICULTIES } from "./constants.ts";

export const difficultySchema = z.enum(DIFFICULTIES, {
  error: "Difficulty must be easy, medium or hard",
});
export type Difficulty = z.infer<typeof difficultySchema>;

export const optionInputSchema = z.object({
  text: requiredText("Option text", 500),
  isCorrect: z.boolean({ error: "isCorrect must be true or false" }),
});

export const questionInputSchema = z.object({
  text: requiredText("Question", 2000, { multiline: true }),
  category: requiredText("Category", 100),
  difficulty: difficultySchema.default(DEFAULT_DIFFICULTY),
  options: z
    .array(optionInputSchema, { error: "Options are required" })
    .min(2, { error: "Add at least two options" })
    .max(10, { error: "A question can have at most 10 options" })
    .refine((options) => options.filter((option) => option.isCorrect).length === 1, {
      error: "Mark exactly one option as correct",
    }),
});
export type QuestionInput = z.infer<typeof questionInputSchema>;

export const optionSchema = z.object({ _id: idSchema, text: z.string(), isCorrect: z.boolean() });
export const questionSchema = z.object({
  _id: idSchema,
  text: z.string(),
  category: z.string(),
  difficulty: difficultySchema,
  options: z.array(optionSchema),
  createdAt: z.iso.datetime(),
});
export type Question = z.infer<typeof questionSchema>;
export const questionListSchema = z.array(questionSchema);

/** Optional filters and paging of GET /api/questions; without them the whole bank comes back (spec §7). */
export const questionListQuerySchema = pagingQuerySchema.extend({
  category: searchText("category", 100),
  difficulty: difficultySchema.optional(),
  search: searchText("search", 200),
});
export type QuestionListQuery = z.infer<typeof questionListQuerySchema>;

/**
 * The CSV format of the question bank, for import and export: one question a row, its correct option given by
 * number. Import is all or nothing.
 */
export const QUESTION_CSV_COLUMNS = [
  "text",
  "category",
  "difficulty",
  "correct",
  "option1",
  "option2",
  "option3",
  "option4",
  "option5",
  "option6",
  // As many as a question may have, so every question exports and imports back whole.
  "option7",
  "option8",
  "option9",
  "option10",
] as const;
export const questionImportResultSchema = z.object({ imported: z.number().int() });
