// What every question-bank format shares: the bounds on an upload, the checks made before a parser sees it,
// and the turning of each parsed question into a validated one or a problem with its line.
import {
  type Difficulty,
  IMPORT_LIMITS,
  moodleGrade,
  type QuestionInput,
  type QuestionType,
  questionInputSchema,
  type ScoringRule,
  WEIGHT_GRADES_TEXT,
  withWeights,
} from "@trainwise/contract/questions";
import type { EmbeddedImage } from "../../media/image-check.ts";

/** What the file gives for questions it names no category or difficulty for. */
export interface ImportDefaults {
  category?: string | undefined;
  difficulty?: Difficulty | undefined;
}

/** A question as a format reads it, before the contract's rules. */
export interface Draft {
  line: number;
  text: string;
  category?: string | undefined;
  difficulty?: string | undefined;
  type: QuestionType;
  scoring?: ScoringRule | undefined;
  /** Each option with its weight in percent where the file gives one (decision 018). */
  options: { text: string; isCorrect: boolean; weight?: number | undefined }[];
  /** What the file shows in this question that the bank cannot hold and leaves out, each named. */
  losses?: string[] | undefined;
}

/** An image a file embeds (Moodle XML's base64 `<file>`), checked as an upload is; stored only by the import. */
export type FileImage = Extract<EmbeddedImage, { ok: true }>;

export interface ParsedBank {
  /** The questions that can be imported, each with what it loses, if anything. */
  questions: { line: number; question: QuestionInput; losses?: string[] }[];
  /** The images the questions show, by SHA-256. */
  images: Map<string, FileImage>;
  unsupported: { line: number; kind: string; title: string }[];
  problems: { line: number; message: string }[];
  problemCount: number;
}

/** A whole file refused before its questions are looked at: not the format, too big, hostile. */
export interface FileRefusal {
  ok: false;
  status: 400 | 413;
  message: string;
}
export type FileOutcome = { ok: true; bank: ParsedBank } | FileRefusal;

export function refuse(status: 400 | 413, message: string): FileRefusal {
  return { ok: false, status, message };
}

export function emptyBank(): ParsedBank {
  return { questions: [], images: new Map(), unsupported: [], problems: [], problemCount: 0 };
}

export function addProblem(bank: ParsedBank, line: number, message: string): void {
  bank.problemCount++;
  if (bank.problems.length < IMPORT_LIMITS.listedErrors) bank.problems.push({ line, message });
}

export function tooManyQuestions(): FileRefusal {
  return refuse(
    413,
    `The file has more than ${IMPORT_LIMITS.rows} questions; import at most ${IMPORT_LIMITS.rows} at a time.`,
  );
}

/** Counts every question the file holds, supported or not; false once there are too many. */
export function withinRowLimit(bank: ParsedBank): boolean {
  return bank.questions.length + bank.unsupported.length + bank.problemCount <= IMPORT_LIMITS.rows;
}

/**
 * Checks made on the raw text before a parser sees it: a line longer than any question's (a parser would
 * otherwise hold it whole) and, unless `cellsChecked` (CSV, whose every cell goes through the contract's text
 * rules and is reported at its line), a NUL: no text format holds one, and PostgreSQL refuses it.
 */
export function screenText(text: string, cellsChecked = false): FileRefusal | undefined {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index <= text.length; index++) {
    const code = index < text.length ? text.charCodeAt(index) : 10;
    if (code === 0 && !cellsChecked) {
      return refuse(400, `Line ${line} contains a NUL character; the file is not a text file.`);
    }
    if (code === 10) {
      if (Buffer.byteLength(text.slice(lineStart, index)) > IMPORT_LIMITS.lineBytes) {
        return refuse(
          413,
          `Line ${line} is longer than ${IMPORT_LIMITS.lineBytes / 1024} KB; a question row is never that long.`,
        );
      }
      line++;
      lineStart = index + 1;
    }
  }
  return undefined;
}

/** Runs a draft through the contract's rules, with the defaults for what the file leaves out. */
export function addDraft(bank: ParsedBank, draft: Draft, defaults: ImportDefaults): boolean {
  const category = draft.category?.trim() || defaults.category;
  const parsed = questionInputSchema.safeParse({
    text: draft.text,
    category: category ?? "",
    difficulty: draft.difficulty?.trim().toLowerCase() || defaults.difficulty,
    type: draft.type,
    scoring: draft.scoring,
    options: draft.options,
  });
  if (parsed.success) {
    const losses = draft.losses?.length ? { losses: draft.losses } : {};
    bank.questions.push({ line: draft.line, question: parsed.data, ...losses });
    return true;
  }
  const messages = parsed.error.issues.map((issue) =>
    issue.path[0] === "category" && !category
      ? "Category is required: the file names none for this question; choose one for the import"
      : issue.message,
  );
  // What the question lost may be why it is invalid (a question that was only a picture has no text left).
  addProblem(bank, draft.line, [...new Set([...messages, ...(draft.losses ?? [])])].join("; "));
  return false;
}

/** Difficulty written as a tag by our exports (`difficulty-hard`), or a plain `easy`/`medium`/`hard` tag. */
export function difficultyFromTags(tags: readonly string[]): string | undefined {
  for (const tag of tags) {
    const match = /^(?:difficulty[-:])?(easy|medium|hard)$/i.exec(tag.trim());
    if (match?.[1]) return match[1].toLowerCase();
  }
  return undefined;
}

export function difficultyTag(difficulty: Difficulty): string {
  return `difficulty-${difficulty}`;
}

/**
 * A Moodle category path (`$course$/top/Maths`) as one of our categories: the context and "top" prefixes go,
 * and the path's `//` (Moodle's escaped slash) reads as one slash. Our categories are flat names.
 */
export function categoryFromPath(path: string): string {
  return path
    .trim()
    .replace(/^\$[a-z0-9]+\$\/?/i, "")
    .replace(/^top(\/|$)/, "")
    .replaceAll("//", "/")
    .trim();
}

/** Our category as a Moodle category path; a slash in the name is escaped as Moodle does. */
export function categoryToPath(category: string): string {
  return `$course$/top/${category.replaceAll("/", "//")}`;
}

/**
 * Moodle's reason for refusing a question whose weights (in percent) are not all among its grades (its importer's
 * `invalidgradequestion`, checked for every format before anything is stored), or undefined when they all are.
 * Moodle names each grade as a fraction of the mark: `33` is 0.33.
 */
export function moodleGradesProblem(weights: readonly number[]): string | undefined {
  const invalid = weights.filter((weight) => moodleGrade(weight) === undefined);
  if (invalid.length === 0) return undefined;
  const fractions = invalid.map((weight) => String(Number((weight / 100).toPrecision(14))));
  return `Grades (${fractions.join(", ")}) do not match grade options: Moodle refuses this question too. ${WEIGHT_GRADES_TEXT}`;
}

/** A weight as our files write it: Moodle's grade in percent, as Moodle writes it (33.33333, -50, 0). */
export function weightText(weight: number): string {
  return String(moodleGrade(weight) ?? weight);
}

/** Whether a question's weights are its own, not just what its options' correctness gives. */
export function hasOwnWeights(question: {
  type: QuestionType;
  scoring: ScoringRule;
  options: { isCorrect: boolean; weight: number }[];
}): boolean {
  const plain = withWeights({ ...question, options: question.options.map(({ isCorrect }) => ({ isCorrect })) });
  return question.options.some((option, index) => option.weight !== plain[index]?.weight);
}

/** 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf("\n"); index !== -1 && index < offset; index = text.indexOf("\n", index + 1)) line++;
  return line;
}
