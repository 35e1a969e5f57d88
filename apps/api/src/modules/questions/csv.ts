// The question bank as CSV (format in @trainwise/contract/questions): parsing an upload into validated
// questions, reporting bad rows by their line number, and writing the bank back out.
//
// An upload is bounded (bytes by the route's body limit, rows, line length) and parsed in chunks that yield to
// the event loop, so a huge or hostile file can neither stall the server for other users nor come back as a
// megabyte of error messages.

import { Readable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import { QUESTION_CSV_COLUMNS, type QuestionInput, questionInputSchema } from "@trainwise/contract/questions";
import { CsvError, parse } from "csv-parse";
import { fromExportedCell, toCsv } from "../../csv/spreadsheet-csv.ts";
import type { QuestionWithOptions } from "./repository.ts";

const OPTION_COLUMNS = QUESTION_CSV_COLUMNS.filter((column) => column.startsWith("option"));

export const CSV_IMPORT_LIMITS = {
  /** The largest upload; more is refused with 413 before it is read. */
  bytes: 2 * 1024 * 1024,
  /** Questions in one file. */
  rows: 5_000,
  /** One row: a question's longest text and six options, in any script, fit many times over. */
  lineBytes: 64 * 1024,
  /** Line problems named in the answer; the message gives the total. */
  listedErrors: 50,
} as const;

/** Bytes handed to the parser between turns of the event loop, and rows validated between turns. */
const CHUNK_BYTES = 32 * 1024;
const ROWS_PER_TURN = 200;

export type CsvOutcome =
  | { ok: true; questions: QuestionInput[] }
  | { ok: false; status: 400 | 413; message: string; errors: Record<string, string> };

function refused(status: 400 | 413, message: string, field = "file"): CsvOutcome {
  return { ok: false, status, message, errors: { [field]: message } };
}

async function* inChunks(bytes: Buffer): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < bytes.length; offset += CHUNK_BYTES) {
    yield bytes.subarray(offset, offset + CHUNK_BYTES);
    await nextTurn();
  }
}

function parseError(error: unknown): CsvOutcome {
  if (error instanceof CsvError && error.code === "CSV_MAX_RECORD_SIZE") {
    return refused(
      413,
      `Line ${error.lines} is longer than ${CSV_IMPORT_LIMITS.lineBytes / 1024} KB; a question row is never that long.`,
    );
  }
  return refused(400, `The file is not valid CSV: ${(error as Error).message}`);
}

/** The questions of an uploaded CSV file, or why it was refused. Import is all or nothing. */
export async function parseQuestionCsv(csv: string): Promise<CsvOutcome> {
  const parser = parse({
    bom: true,
    columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
    info: true,
    max_record_size: CSV_IMPORT_LIMITS.lineBytes,
  });
  const source = Readable.from(inChunks(Buffer.from(csv, "utf8")));
  source.pipe(parser);

  const errors: Record<string, string> = {};
  let problems = 0;
  const questions: QuestionInput[] = [];
  let rows = 0;
  try {
    for await (const { info, record } of parser as AsyncIterable<{
      info: { lines: number };
      record: Record<string, string>;
    }>) {
      if (++rows > CSV_IMPORT_LIMITS.rows) {
        return refused(
          413,
          `The file has more than ${CSV_IMPORT_LIMITS.rows} questions; import at most ${CSV_IMPORT_LIMITS.rows} at a time.`,
        );
      }
      if (rows === 1) {
        const header = Object.keys(record);
        const missing = ["text", "category", "difficulty", "correct", "option1", "option2"].filter(
          (column) => !header.includes(column),
        );
        if (missing.length > 0) return refused(400, `Missing columns: ${missing.join(", ")}.`);
      }
      if (rows % ROWS_PER_TURN === 0) await nextTurn();
      const problem = checkRow(record);
      if (typeof problem === "string") {
        if (++problems <= CSV_IMPORT_LIMITS.listedErrors) errors[`line ${info.lines}`] = problem;
      } else {
        questions.push(problem);
      }
    }
  } catch (error) {
    return parseError(error);
  } finally {
    source.destroy();
    parser.destroy();
  }
  if (rows === 0) return refused(400, "The file has no questions.");
  if (problems > 0) {
    const listed =
      problems > CSV_IMPORT_LIMITS.listedErrors ? ` (the first ${CSV_IMPORT_LIMITS.listedErrors} are listed)` : "";
    const counted = problems === 1 ? "1 problem" : `${problems} problems`;
    return { ok: false, status: 400, message: `Nothing was imported: ${counted} in the file${listed}.`, errors };
  }
  return { ok: true, questions };
}

/** One row as a question, or what is wrong with it. */
function checkRow(record: Record<string, string>): QuestionInput | string {
  // Cells written by our own export may carry a quote that keeps spreadsheets from running them as formulas.
  const cell = (column: string) => fromExportedCell(record[column] ?? "");
  const options = OPTION_COLUMNS.map(cell).filter((text) => text !== "");
  const correct = /^\d{1,2}$/.test(record.correct ?? "") ? Number(record.correct) : Number.NaN;
  if (!Number.isInteger(correct) || correct < 1 || correct > options.length) {
    return `correct must be the number of one of the ${options.length} options`;
  }
  const parsed = questionInputSchema.safeParse({
    text: cell("text"),
    category: cell("category"),
    difficulty: (record.difficulty ?? "").toLowerCase() || undefined,
    options: options.map((text, index) => ({ text, isCorrect: index + 1 === correct })),
  });
  if (!parsed.success) return parsed.error.issues.map((issue) => issue.message).join("; ");
  return parsed.data;
}

export function questionsToCsv(questions: QuestionWithOptions[]): string {
  return toCsv(
    questions.map((question) => {
      const row: Partial<Record<(typeof QUESTION_CSV_COLUMNS)[number], string | number>> = {
        text: question.text,
        category: question.category,
        difficulty: question.difficulty,
        correct: question.options.findIndex((option) => option.isCorrect) + 1,
      };
      question.options.slice(0, OPTION_COLUMNS.length).forEach((option, index) => {
        row[`option${index + 1}` as (typeof OPTION_COLUMNS)[number]] = option.text;
      });
      return row;
    }),
    QUESTION_CSV_COLUMNS,
  );
}

export const QUESTION_CSV_TEMPLATE = toCsv(
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
  QUESTION_CSV_COLUMNS,
);
