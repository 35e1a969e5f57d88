// Aiken, Moodle's simplest text format, read and written by hand (no maintained parser exists, and it is a few
// lines): a question on one line, its options as "A. text" or "A) text" (the space is optional, as in Moodle's
// reader), then "ANSWER: B". It holds only single-answer questions, with no category or difficulty (the import's
// defaults give them). Its text is plain text, as Moodle reads it (escaped into HTML, where its filters still
// render TeX between `\(…\)`, `\[…\]` or `$$…$$`): we read it as plain text with that math, and write our Markdown
// out as plain text.

import { plainAsMarkdown } from "../../../rich-text/as-markdown.ts";
import { markdownAsPlain } from "../../../rich-text/as-plain.ts";
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

/** Moodle's pattern: a capital letter, `.` or `)`, and at most one space or tab, which is not part of the text. */
const OPTION_LINE = /^([A-Z])[.)][ \t]?(.*)$/;
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
      // Moodle reads the first character after the colon; anything after it is ignored.
      const letter = (answer[1] ?? "").trim().toUpperCase().slice(0, 1);
      const chosen = /[A-Z]/.test(letter) ? letter.charCodeAt(0) - 65 : -1;
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
            text: plainAsMarkdown(question.text.join("\n"), false, true),
            type: "single",
            options: question.options.map((option, position) => ({
              text: plainAsMarkdown(option, true, true),
              isCorrect: position === chosen,
            })),
          },
          defaults,
        );
      }
      question = undefined;
      if (!withinRowLimit(bank)) return tooManyQuestions();
      continue;
    }
    if (option && option[1] === String.fromCharCode(65 + question.options.length)) {
      question.options.push((option[2] ?? "").trim());
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

/** Markdown images: Aiken's plain text cannot carry a picture, and a question without its picture is not the same. */
const IMAGE = /!\[[^\]]*\]\(/;

/**
 * Whether Aiken can hold the question: single answer or true/false, on one line, without pictures, without an
 * option worth part of the mark and with one right option (Aiken knows right and wrong only, and its ANSWER line
 * names one letter). A multi-line text (a code block, a list, paragraphs) cannot be written in it: joined into one
 * line it would no longer say the same, so such a question is left out rather than changed, and so is one whose
 * marks would change (a single answer with two full-mark options would keep only one) and one with a text that
 * is empty as plain text.
 */
export function aikenCarries(question: QuestionWithOptions): boolean {
  return (
    question.type !== "multiple" &&
    question.options.every((option) => option.weight === (option.isCorrect ? 100 : 0)) &&
    question.options.filter((option) => option.isCorrect).length === 1 &&
    question.options.length <= 26 &&
    !/[\r\n]/.test(question.text) &&
    // A text that reads as nothing in plain text (a lone `*`, a list marker) would be an empty Aiken line.
    !IMAGE.test(question.text) &&
    aikenLine(question.text).trim() !== "" &&
    question.options.every((option) => !IMAGE.test(option.text) && aikenLine(option.text, true).trim() !== "")
  );
}

/**
 * A text as one line of Aiken: plain text, as Moodle reads it, with our math in delimiters Moodle renders. An
 * option (`inline`) is read as it is shown, without blocks: an option "#" read as a heading was an empty line.
 */
function aikenLine(markdown: string, inline = false): string {
  return markdownAsPlain(markdown, inline).replace(/\s*\n\s*/g, " ");
}

/**
 * The questions Aiken can hold (`aikenCarries`), one part each, a true/false question as options True and False;
 * `tally` counts the questions left out, which the export tells the admin.
 */
export function* aikenParts(
  questions: QuestionWithOptions[],
  tally: { leftOut: number } = { leftOut: 0 },
): Generator<string> {
  for (const question of questions) {
    if (!aikenCarries(question)) {
      tally.leftOut++;
      continue;
    }
    const lines = [aikenLine(question.text)];
    question.options.forEach((option, index) => {
      lines.push(`${String.fromCharCode(65 + index)}. ${aikenLine(option.text, true)}`);
    });
    const correct = question.options.findIndex((option) => option.isCorrect);
    lines.push(`ANSWER: ${String.fromCharCode(65 + correct)}`);
    yield `${lines.join("\n")}\n`;
  }
}

/** The file `aikenParts` describes: its parts joined by line breaks. */
export function questionsToAiken(questions: QuestionWithOptions[]): string {
  return [...aikenParts(questions)].join("\n");
}
