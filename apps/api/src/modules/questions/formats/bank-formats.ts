// One door to the four formats: which one a file is in, reading it into a preview, writing the bank out.
import type { BankFormat, QuestionImportPreview } from "@trainwise/contract/questions";
import { renderOptionText, renderQuestionText } from "../../../rich-text/render.ts";
import type { QuestionWithOptions } from "../repository.ts";
import { parseAiken, questionsToAiken } from "./aiken.ts";
import { type FileOutcome, type ImportDefaults, type ParsedBank, screenText } from "./bank-file.ts";
import { parseQuestionCsv, questionsToCsv } from "./csv.ts";
import { parseGift, questionsToGift } from "./gift.ts";
import { parseMoodleXml, questionsToMoodleXml, withoutEmbeddedFiles } from "./moodle-xml.ts";

/** The format a file is most likely in, from its first lines. GIFT is the fallback: it has no fixed start. */
export function detectFormat(text: string): BankFormat {
  const start = text.replace(/^\uFEFF/, "").trimStart();
  if (start.startsWith("<")) return "moodle-xml";
  const firstLine = (start.split(/\r?\n/, 1)[0] ?? "").toLowerCase();
  const header = firstLine.split(",").map((cell) => cell.trim().replace(/^"|"$/g, ""));
  if (header.includes("text") && header.includes("correct")) return "csv";
  if (looksLikeAiken(start)) return "aiken";
  return "gift";
}

/**
 * Aiken: every group of lines between blank lines that is not a GIFT comment ends with an `ANSWER:` line, after an
 * option line. Braces prove nothing (an Aiken question about code has them); a GIFT question ends with its answers
 * or its text, never with an `ANSWER:` line.
 */
function looksLikeAiken(text: string): boolean {
  const groups = text
    .split(/\r?\n[ \t]*(?:\r?\n[ \t]*)+/)
    .map((group) =>
      group
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== ""),
    )
    .filter((lines) => lines.length > 0 && !lines.every((line) => line.startsWith("//")));
  return (
    groups.length > 0 &&
    groups.every((lines) => {
      const last = lines.at(-1) ?? "";
      return /^ANSWER:\s*[A-Z]/.test(last) && /^[A-Z][.)]/.test(lines.at(-2) ?? "");
    })
  );
}

export async function readBankFile(text: string, format: BankFormat, defaults: ImportDefaults): Promise<FileOutcome> {
  const refusal = screenText(format === "moodle-xml" ? withoutEmbeddedFiles(text) : text, format === "csv");
  if (refusal) return refusal;
  switch (format) {
    case "csv":
      return parseQuestionCsv(text, defaults);
    case "gift":
      return parseGift(text, defaults);
    case "aiken":
      return parseAiken(text, defaults);
    case "moodle-xml":
      return parseMoodleXml(text, defaults);
  }
}

/**
 * Characters of question and option text an import preview renders as students will see them; the questions after
 * come with their Markdown only. Rendering costs up to about 0.02 ms a character (formulas nested deep), so a 2 MB
 * file rendered whole held the server for 18 s and answered 142 MB; this bound keeps a preview near 0.2 s and
 * 1.5 MB at worst, and still renders some fifty ordinary questions.
 */
export const PREVIEW_RENDERED_CHARACTERS = 10_000;

export function toPreview(format: BankFormat, bank: ParsedBank): QuestionImportPreview {
  let characters = 0;
  return {
    format,
    questions: bank.questions.map(({ line, question, losses }) => {
      characters += question.text.length + question.options.reduce((sum, option) => sum + option.text.length, 0);
      const lost = losses ? { losses } : {};
      if (characters > PREVIEW_RENDERED_CHARACTERS) return { line, ...question, ...lost };
      return {
        line,
        ...question,
        ...lost,
        html: renderQuestionText(question.text),
        options: question.options.map((option) => ({ ...option, html: renderOptionText(option.text) })),
      };
    }),
    unsupported: bank.unsupported,
    problems: bank.problems,
    problemCount: bank.problemCount,
  };
}

export const EXPORTS: Record<
  BankFormat,
  { write: (questions: QuestionWithOptions[]) => string; fileName: string; contentType: string }
> = {
  csv: { write: questionsToCsv, fileName: "questions.csv", contentType: "text/csv; charset=utf-8" },
  gift: { write: questionsToGift, fileName: "questions.gift.txt", contentType: "text/plain; charset=utf-8" },
  aiken: { write: questionsToAiken, fileName: "questions.aiken.txt", contentType: "text/plain; charset=utf-8" },
  "moodle-xml": {
    write: questionsToMoodleXml,
    fileName: "questions.xml",
    contentType: "application/xml; charset=utf-8",
  },
};
