// Aiken, Moodle's simplest text format, read and written by hand (no maintained parser exists, and it is a few
// lines): a question on one line, its options as "A. text" or "A) text", then "ANSWER: B". It holds only
// single-answer questions, with no category or difficulty (the import's defaults give them). Its text is ours,
// Markdown, on one line: inline Markdown (emphasis, code spans, math, images) is kept as it is.
import type { QuestionWithOptions } from "../repository.ts";
import {
  addDraft,
  addProblem,
  emptyBank,
  type FileOutcome,
  type ImportDefaults,
  tooManyQuestions,
  withinRowLimit,
} from "./bank-file.ts";

const OPTION_LINE = /^([A-Z])[.)]\s+(.*)$/;
const ANSWER_LINE = /^ANSWER:\s*(.*)$/i;

export function parseAiken(text: string, defaults: ImportDefaults = {}): FileOutcome {
  const bank = emptyBank();
  let question: { line: number; text: string[]; options: string[] } | undefined;
  // After a problem inside a question, the rest of it up to its ANSWER line is passed over.
  let skipping = false;
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    const content = raw.trim();
    if (content === "") continue;
    const answer = ANSWER_LINE.exec(content);
    const option = OPTION_LINE.exec(content);
    if (skipping) {
      if (answer) skipping = false;
      continue;
    }
    if (!question) {
      if (answer) {
        addProblem(bank, line, "ANSWER without a question before it");
        continue;
      }
      question = { line, text: [content], options: [] };
      continue;
    }
    if (answer) {
      const letter = (answer[1] ?? "").trim().toUpperCase();
      const chosen = letter.length === 1 ? letter.charCodeAt(0) - 65 : -1;
      if (question.options.length < 2) {
        addProblem(bank, question.line, "A question needs at least two options (A. … B. …) before its ANSWER line");
      } else if (chosen < 0 || chosen >= question.options.length) {
        addProblem(
          bank,
          line,
          `ANSWER must be one letter from A to ${String.fromCharCode(64 + question.options.length)}`,
        );
      } else {
        addDraft(
          bank,
          {
            line: question.line,
            text: question.text.join("\n"),
            type: "single",
            options: question.options.map((option, position) => ({ text: option, isCorrect: position === chosen })),
          },
          defaults,
        );
      }
      question = undefined;
      if (!withinRowLimit(bank)) return tooManyQuestions();
      continue;
    }
    if (option && option[1] === String.fromCharCode(65 + question.options.length)) {
      question.options.push(option[2] ?? "");
    } else if (question.options.length === 0) {
      // Before its first option, a question's text may run over several lines.
      question.text.push(content);
    } else {
      addProblem(
        bank,
        line,
        option
          ? `Option ${option[1]} is out of order: expected ${String.fromCharCode(65 + question.options.length)}`
          : `Expected option ${String.fromCharCode(65 + question.options.length)} or an ANSWER line`,
      );
      question = undefined;
      skipping = true;
    }
  }
  if (question) addProblem(bank, question.line, "The question has no ANSWER line");
  return { ok: true, bank };
}

/**
 * Whether Aiken can hold the question: single answer or true/false, on one line. A multi-line text (a code
 * block, a list, paragraphs) cannot be written in it: joined into one line it would no longer be the same
 * Markdown, so such a question is left out rather than changed.
 */
export function aikenCarries(question: QuestionWithOptions): boolean {
  return question.type !== "multiple" && question.options.length <= 26 && !/[\r\n]/.test(question.text);
}

/**
 * The questions Aiken can hold (`aikenCarries`), a true/false question as options True and False; the export
 * tells the admin how many it left out.
 */
export function questionsToAiken(questions: QuestionWithOptions[]): string {
  return questions
    .filter(aikenCarries)
    .map((question) => {
      const lines = [question.text];
      question.options.forEach((option, index) => {
        lines.push(`${String.fromCharCode(65 + index)}. ${option.text}`);
      });
      const correct = question.options.findIndex((option) => option.isCorrect);
      lines.push(`ANSWER: ${String.fromCharCode(65 + correct)}`);
      return `${lines.join("\n")}\n`;
    })
    .join("\n");
}
