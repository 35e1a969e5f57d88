// The question bank as CSV (format in @trainwise/contract/questions): parsing an upload into validated
// questions, reporting every bad row by its line number, and writing the bank back out.

import { QUESTION_CSV_COLUMNS, type QuestionInput, questionInputSchema } from "@trainwise/contract/questions";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import type { QuestionWithOptions } from "./repository.ts";

const OPTION_COLUMNS = QUESTION_CSV_COLUMNS.filter((column) => column.startsWith("option"));

export type CsvOutcome = { ok: true; questions: QuestionInput[] } | { ok: false; errors: Record<string, string> };

export function parseQuestionCsv(csv: string): CsvOutcome {
  let records: { info: { lines: number }; record: Record<string, string> }[];
  try {
    records = parse(csv.replace(/^\uFEFF/, ""), {
      columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      info: true,
    });
  } catch (error) {
    return { ok: false, errors: { file: `The file is not valid CSV: ${(error as Error).message}` } };
  }
  if (records.length === 0) return { ok: false, errors: { file: "The file has no questions." } };
  const header = Object.keys(records[0]?.record ?? {});
  const missing = ["text", "category", "difficulty", "correct", "option1", "option2"].filter(
    (column) => !header.includes(column),
  );
  if (missing.length > 0) return { ok: false, errors: { file: `Missing columns: ${missing.join(", ")}.` } };

  const errors: Record<string, string> = {};
  const questions: QuestionInput[] = [];
  for (const { info, record } of records) {
    const options = OPTION_COLUMNS.map((column) => record[column] ?? "").filter((text) => text !== "");
    const correct = Number(record.correct);
    const line = `line ${info.lines}`;
    if (!Number.isInteger(correct) || correct < 1 || correct > options.length) {
      errors[line] = `correct must be the number of one of the ${options.length} options`;
      continue;
    }
    const parsed = questionInputSchema.safeParse({
      text: record.text,
      category: record.category,
      difficulty: (record.difficulty ?? "").toLowerCase() || undefined,
      options: options.map((text, index) => ({ text, isCorrect: index + 1 === correct })),
    });
    if (!parsed.success) {
      errors[line] = parsed.error.issues.map((issue) => issue.message).join("; ");
      continue;
    }
    questions.push(parsed.data);
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, questions };
}

export function questionsToCsv(questions: QuestionWithOptions[]): string {
  return stringify(
    questions.map((question) => {
      const row: Record<string, string | number> = {
        text: question.text,
        category: question.category,
        difficulty: question.difficulty,
        correct: question.options.findIndex((option) => option.isCorrect) + 1,
      };
      question.options.slice(0, OPTION_COLUMNS.length).forEach((option, index) => {
        row[`option${index + 1}`] = option.text;
      });
      return row;
    }),
    { header: true, columns: [...QUESTION_CSV_COLUMNS] },
  );
}

export const QUESTION_CSV_TEMPLATE = stringify(
  [
    {
      text: "What is 15% of 200?",
      category: "Aptitude",
      difficulty: "easy",
      correct: 2,
      option1: "20",
      option2: "30",
      option3: "35",
      option4: "15",
    },
  ],
  { header: true, columns: [...QUESTION_CSV_COLUMNS] },
);
