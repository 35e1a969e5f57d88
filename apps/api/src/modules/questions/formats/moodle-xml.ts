// Moodle XML, read with fast-xml-parser and written here. The file is checked first: a DOCTYPE or an entity
// declaration is refused outright (a question bank never needs one, and it is how "billion laughs" and external
// entities get in), then the parser's validator reports a syntax error with its line.
//
// What it carries (decision 018): categories (`<question type="category">`, a Moodle path), difficulty as a
// tag (`difficulty-hard`), single answer (`multichoice` with `<single>true`), multiple answers (`multichoice`
// with `<single>false` and ±100/k fractions: partial credit; `multichoiceset`, the all-or-nothing plugin's
// type: all or nothing), and `truefalse`. Every other type is named and skipped on confirmation.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import type { QuestionWithOptions } from "../repository.ts";
import {
  addDraft,
  addProblem,
  categoryFromPath,
  categoryToPath,
  difficultyFromTags,
  difficultyTag,
  emptyBank,
  type FileOutcome,
  type ImportDefaults,
  refuse,
  tooManyQuestions,
  weightOf,
  withinRowLimit,
} from "./bank-file.ts";

const UNSUPPORTED_NAMES: Record<string, string> = {
  shortanswer: "short answer",
  cloze: "cloze (embedded answers)",
  multianswer: "cloze (embedded answers)",
  ddwtos: "drag and drop into text",
  gapselect: "select missing words",
  randomsamatch: "random short-answer matching",
};

interface XmlText {
  text?: unknown;
  "@_format"?: string;
}
interface XmlAnswer extends XmlText {
  "@_fraction"?: string;
}
interface XmlQuestion {
  "@_type"?: string;
  name?: XmlText;
  questiontext?: XmlText;
  category?: XmlText;
  single?: unknown;
  answer?: XmlAnswer[];
  tags?: { tag?: XmlText[] };
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // The XML entities and character references (`&#38;`); a DOCTYPE, and so any entity of the file's own, never
  // reaches the parser.
  processEntities: true,
  htmlEntities: true,
  isArray: (name) => ["question", "answer", "tag"].includes(name),
});

/** The line of each `<question` start tag, in order, passing over comments and CDATA sections. */
function questionLines(xml: string): number[] {
  const lines: number[] = [];
  const tokens = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<question\b|\n/g;
  let line = 1;
  for (let match = tokens.exec(xml); match; match = tokens.exec(xml)) {
    const token = match[0];
    if (token === "\n") line++;
    else if (token === "<question") lines.push(line);
    else line += token.split("\n").length - 1;
  }
  return lines;
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "object" && "#text" in value) return String((value as { "#text": unknown })["#text"]);
  return typeof value === "object" ? "" : String(value);
}

/** A Moodle HTML text as plain text: paragraphs and breaks become line breaks, other tags go. */
function plainText(field: XmlText | undefined): string {
  const raw = textOf(field?.text);
  const format = field?.["@_format"] ?? "html";
  if (format !== "html" && format !== "moodle_auto_format") return raw;
  return raw
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/p>\s*<p[^>]*>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;/g, "'")
    .replace(/&amp;/g, "&");
}

function isTrue(value: unknown): boolean {
  return ["true", "1"].includes(textOf(value).trim().toLowerCase());
}

export function parseMoodleXml(xml: string, defaults: ImportDefaults = {}): FileOutcome {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) {
    return refuse(400, "The file declares a DOCTYPE or entities; a Moodle XML question file never needs them.");
  }
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return refuse(400, `Line ${valid.err.line}: not valid XML: ${valid.err.msg}`);
  const document = parser.parse(xml) as { quiz?: { question?: XmlQuestion[] } };
  if (!document.quiz) return refuse(400, "The file is not Moodle XML: it has no <quiz> element.");
  const lines = questionLines(xml);
  const bank = emptyBank();
  let category: string | undefined;
  for (const [index, question] of (document.quiz.question ?? []).entries()) {
    const line = lines[index] ?? 1;
    const type = question["@_type"] ?? "";
    if (type === "category") {
      category = categoryFromPath(textOf(question.category?.text));
      continue;
    }
    const text = plainText(question.questiontext);
    const tags = (question.tags?.tag ?? []).map((tag) => textOf(tag.text));
    const answers = question.answer ?? [];
    const fraction = (answer: XmlAnswer) => Number(answer["@_fraction"] ?? "0");
    const common = { line, text, category, difficulty: difficultyFromTags(tags) };
    if (type === "truefalse") {
      const right = answers.find((answer) => fraction(answer) > 0);
      const rightText = textOf(right?.text).trim().toLowerCase();
      if (!["true", "false"].includes(rightText)) {
        addProblem(bank, line, "A true/false question needs a right answer of true or false");
      } else {
        addDraft(
          bank,
          {
            ...common,
            type: "true_false",
            options: [
              { text: "True", isCorrect: rightText === "true" },
              { text: "False", isCorrect: rightText === "false" },
            ],
          },
          defaults,
        );
      }
    } else if (type === "multichoice" || type === "multichoiceset") {
      const multiple = type === "multichoiceset" || !isTrue(question.single ?? "true");
      addDraft(
        bank,
        {
          ...common,
          type: multiple ? "multiple" : "single",
          scoring: type === "multichoice" && multiple ? "partial" : "all_or_nothing",
          options: answers.map((answer) => ({ text: plainText(answer), isCorrect: fraction(answer) > 0 })),
        },
        defaults,
      );
    } else {
      bank.unsupported.push({
        line,
        kind: UNSUPPORTED_NAMES[type] ?? (type || "unknown"),
        title: textOf(question.name?.text) || text.slice(0, 80),
      });
    }
    if (!withinRowLimit(bank)) return tooManyQuestions();
  }
  return { ok: true, bank };
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function textElement(name: string, text: string, attributes = ""): string {
  return `<${name}${attributes}><text>${escapeXml(text)}</text></${name}>`;
}

export function questionsToMoodleXml(questions: QuestionWithOptions[]): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', "<quiz>"];
  let category: string | undefined;
  for (const question of questions) {
    if (question.category !== category) {
      category = question.category;
      out.push(`  <question type="category">${textElement("category", categoryToPath(category))}</question>`);
    }
    const type =
      question.type === "true_false"
        ? "truefalse"
        : question.type === "multiple" && question.scoring === "all_or_nothing"
          ? "multichoiceset"
          : "multichoice";
    const correctCount = question.options.filter((option) => option.isCorrect).length;
    const parts = [
      textElement("name", question.text.replace(/\s+/g, " ").slice(0, 80)),
      textElement("questiontext", question.text, ' format="plain_text"'),
    ];
    if (type === "multichoice") parts.push(`<single>${question.type === "single"}</single>`);
    if (type !== "truefalse") parts.push("<shuffleanswers>true</shuffleanswers>");
    for (const option of question.options) {
      const fraction =
        type === "truefalse" || question.type === "single"
          ? option.isCorrect
            ? "100"
            : "0"
          : type === "multichoiceset"
            ? option.isCorrect
              ? "100"
              : "0"
            : weightOf(option, correctCount);
      const text = type === "truefalse" ? option.text.toLowerCase() : option.text;
      parts.push(textElement("answer", text, ` fraction="${fraction}" format="plain_text"`));
    }
    parts.push(`<tags><tag><text>${difficultyTag(question.difficulty)}</text></tag></tags>`);
    out.push(`  <question type="${type}">\n    ${parts.join("\n    ")}\n  </question>`);
  }
  out.push("</quiz>", "");
  return out.join("\n");
}
