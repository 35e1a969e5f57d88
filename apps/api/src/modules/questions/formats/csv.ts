// The question bank as our CSV (columns in @trainwise/contract/questions): one question a row, the correct
// options by number, the options' weights where they are a question's own, type and scoring in their own columns (left empty: a single-answer question, as in files
// written before there were types).
//
// An upload is parsed in chunks that yield to the event loop, so a huge or hostile file can neither stall the
// server for other users nor come back as a megabyte of error messages.

import { setImmediate as nextTurn } from "node:timers/promises";
import {
  IMPORT_LIMITS,
  QUESTION_CSV_COLUMNS,
  QUESTION_TYPES,
  type QuestionType,
  SCORING_RULES,
  type ScoringRule,
} from "@trainwise/contract/questions";
import { CsvError, parse } from "csv-parse";
import { chunkedSource } from "../../../csv/chunks.ts";
import { fromExportedCell, toCsv } from "../../../csv/spreadsheet-csv.ts";
import type { QuestionWithOptions } from "../repository.ts";
import {
  addDraft,
  addProblem,
  emptyBank,
  type FileOutcome,
  hasOwnWeights,
  type ImportDefaults,
  refuse,
  tooManyQuestions,
  weightText,
} from "./bank-file.ts";

const OPTION_COLUMNS = QUESTION_CSV_COLUMNS.filter((column) => column.startsWith("option"));

/** Rows validated between turns of the event loop (the bytes are parsed a chunk a turn, csv/chunks.ts). */
const ROWS_PER_TURN = 100;

function parseError(error: unknown): FileOutcome {
  if (error instanceof CsvError && error.code === "CSV_MAX_RECORD_SIZE") {
    return refuse(
      413,
      `Line ${error.lines} is longer than ${IMPORT_LIMITS.lineBytes / 1024} KB; a question row is never that long.`,
    );
  }
  return refuse(400, `The file is not valid CSV: ${(error as Error).message}`);
}

/** The questions of an uploaded CSV file with each bad row's problem, or why the file was refused. */
export async function parseQuestionCsv(csv: string, defaults: ImportDefaults = {}): Promise<FileOutcome> {
  const parser = parse({
    bom: true,
    columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
    info: true,
    max_record_size: IMPORT_LIMITS.lineBytes,
  });
  const source = chunkedSource(csv);
  source.pipe(parser);

  const bank = emptyBank();
  let rows = 0;
  try {
    for await (const { info, record } of parser as AsyncIterable<{
      info: { lines: number };
      record: Record<string, string>;
    }>) {
      if (++rows > IMPORT_LIMITS.rows) return tooManyQuestions();
      if (rows === 1) {
        const header = Object.keys(record);
        const missing = ["text", "category", "difficulty", "correct", "option1", "option2"].filter(
          (column) => !header.includes(column),
        );
        if (missing.length > 0) return refuse(400, `Missing columns: ${missing.join(", ")}.`);
      }
      if (rows % ROWS_PER_TURN === 0) await nextTurn();
      readRow(bank, info.lines, record, defaults);
    }
  } catch (error) {
    return parseError(error);
  } finally {
    source.destroy();
    parser.destroy();
  }
  if (rows === 0) return refuse(400, "The file has no questions.");
  return { ok: true, bank };
}

function readRow(
  bank: ReturnType<typeof emptyBank>,
  line: number,
  record: Record<string, string>,
  defaults: ImportDefaults,
): void {
  // Cells written by our own export may carry a quote that keeps spreadsheets from running them as formulas.
  const cell = (column: string) => fromExportedCell(record[column] ?? "");
  const options = OPTION_COLUMNS.map(cell).filter((text) => text !== "");
  const typeCell = (record.type ?? "").toLowerCase() || "single";
  // Left empty, a multiple answer with weights of its own gives partial credit: all or nothing would drop them.
  const weighted = (record.weights ?? "").trim() !== "" && (record.type ?? "").toLowerCase() === "multiple";
  const scoringCell = (record.scoring ?? "").toLowerCase() || (weighted ? "partial" : "all_or_nothing");
  if (!(QUESTION_TYPES as readonly string[]).includes(typeCell)) {
    addProblem(bank, line, "type must be single, multiple or true_false");
    return;
  }
  if (!(SCORING_RULES as readonly string[]).includes(scoringCell)) {
    addProblem(bank, line, "scoring must be all_or_nothing or partial");
    return;
  }
  const type = typeCell as QuestionType;
  // Several correct options are listed as "1;3" (a comma works too, inside a quoted cell): a multiple answer's, or a
  // single answer's options that each earn the whole mark, as Moodle allows.
  const numbers = (record.correct ?? "").split(/[;,\s]+/).filter(Boolean);
  const correct = numbers.map((number) => (/^\d{1,2}$/.test(number) ? Number(number) : Number.NaN));
  if (
    correct.length === 0 ||
    (type === "true_false" && correct.length > 1) ||
    correct.some((number) => !Number.isInteger(number) || number < 1 || number > options.length)
  ) {
    const which = type === "multiple" ? "the numbers of the correct options, as 1;3," : "the number of one";
    addProblem(bank, line, `correct must be ${which} of the ${options.length} options`);
    return;
  }
  // Each option's weight in percent, "100;50;0", or nothing: the weights "correct" gives.
  const weightCells = cell("weights")
    .split(/[;,\s]+/)
    .filter(Boolean);
  const weights = weightCells.map((weight) => (/^-?\d{1,3}(\.\d{1,7})?$/.test(weight) ? Number(weight) : Number.NaN));
  if (weightCells.length > 0 && (weights.length !== options.length || weights.some(Number.isNaN))) {
    addProblem(bank, line, `weights must be empty or one number per option (${options.length}), as 100;50;0`);
    return;
  }
  addDraft(
    bank,
    {
      line,
      text: cell("text"),
      category: cell("category"),
      difficulty: record.difficulty ?? "",
      type,
      scoring: scoringCell as ScoringRule,
      options: options.map((text, index) => ({
        text,
        isCorrect: correct.includes(index + 1),
        ...(weights.length > 0 ? { weight: weights[index] } : {}),
      })),
    },
    defaults,
  );
}

/** One question as a row of our CSV: the correct options by number, each option in its own column. */
export function questionCsvRow(question: QuestionWithOptions) {
  const row: Partial<Record<(typeof QUESTION_CSV_COLUMNS)[number], string | number>> = {
    text: question.text,
    category: question.category,
    difficulty: question.difficulty,
    type: question.type,
    scoring: question.scoring,
    correct: question.options.flatMap((option, index) => (option.isCorrect ? [index + 1] : [])).join(";"),
    // Written only for weights of the question's own; empty reads back as what "correct" gives.
    weights: hasOwnWeights(question) ? question.options.map((option) => weightText(option.weight)).join(";") : "",
  };
  question.options.slice(0, OPTION_COLUMNS.length).forEach((option, index) => {
    row[`option${index + 1}` as (typeof OPTION_COLUMNS)[number]] = option.text;
  });
  return row;
}

export function questionsToCsv(questions: QuestionWithOptions[]): string {
  return toCsv(questions.map(questionCsvRow), QUESTION_CSV_COLUMNS);
}

export const QUESTION_CSV_TEMPLATE = toCsv(
  [
    {
      text: "What is 15% of 200?",
      category: "Aptitude",
      difficulty: "easy",
      type: "single",
      scoring: "all_or_nothing",
      correct: "2",
      option1: "20",
      option2: "30",
      option3: "35",
      option4: "15",
    },
    {
      text: "Which of these are prime numbers?",
      category: "Aptitude",
      difficulty: "medium",
      type: "multiple",
      scoring: "partial",
      correct: "1;2",
      option1: "2",
      option2: "3",
      option3: "4",
      option4: "9",
    },
    {
      text: "The sum of the angles of a triangle is 180 degrees.",
      category: "Aptitude",
      difficulty: "easy",
      type: "true_false",
      scoring: "all_or_nothing",
      correct: "1",
      option1: "True",
      option2: "False",
    },
  ],
  QUESTION_CSV_COLUMNS,
);
