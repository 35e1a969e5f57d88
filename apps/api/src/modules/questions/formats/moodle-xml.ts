// Moodle XML, read with fast-xml-parser and written here. The file is checked first: a DOCTYPE or an entity
// declaration is refused outright (a question bank never needs one, and it is how "billion laughs" and external
// entities get in), then the parser's validator reports a syntax error with its line.
//
// What it carries (decision 018): categories (`<question type="category">`, a Moodle path), difficulty as a
// tag (`difficulty-hard`), single answer (`multichoice` with `<single>true`; options other than the 100% one keep
// their fractions as weights), multiple answers (`multichoice` with `<single>false` and its fractions as weights:
// partial credit; every fraction one of Moodle's grades, or the question is refused with Moodle's reason;
// `multichoiceset`, the all-or-nothing plugin's
// type, or our own export's multichoice marked `<trainwise_scoring>`: all or nothing), and `truefalse`. Every
// other type is named and skipped on confirmation.
//
// Text (docs/decisions/021): `format="html"` and `moodle_auto_format` are converted to Markdown,
// `markdown` is ours (with Moodle's `\\(…\\)` math as ours), `plain_text` is escaped so it shows literally. An image a
// text embeds (`<file name="a.png" encoding="base64">`, shown by `@@PLUGINFILE@@/a.png`) is checked as an upload is
// and its references point at `/api/media/<sha256>.<ext>`; the import stores it with the questions.
//
// We write what a stock Moodle 4.5 imports with its defaults: Markdown in CDATA, math in the delimiters Moodle's
// filters render, images as base64 files, names as plain text, and only stock question types (`moodleXmlExport`).

import { MEDIA_PATH_PREFIX } from "@trainwise/contract/media";
import { moodleGrade } from "@trainwise/contract/questions";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { asMarkdown, type SourceFormat, UnconvertibleText } from "../../../rich-text/as-markdown.ts";
import { markdownAsPlain } from "../../../rich-text/as-plain.ts";
import { mathForMoodle, mathFromMoodle } from "../../../rich-text/moodle-math.ts";
import { checkEmbeddedImage, mediaUrl } from "../../media/image-check.ts";
import type { QuestionWithOptions } from "../repository.ts";
import {
  addDraft,
  addProblem,
  categoryFromPath,
  categoryToPath,
  type Draft,
  difficultyFromTags,
  difficultyTag,
  emptyBank,
  type FileImage,
  type FileOutcome,
  type ImportDefaults,
  lineAt,
  moodleGradesProblem,
  refuse,
  tooManyQuestions,
  weightText,
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

interface XmlFile {
  "#text"?: unknown;
  "@_name"?: string;
  "@_path"?: string;
  "@_encoding"?: string;
}
interface XmlText {
  text?: unknown;
  file?: XmlFile[];
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
  trainwise_scoring?: unknown;
  answer?: XmlAnswer[];
  tags?: { tag?: XmlText[] };
  /** Moodle 1.9's picture of the question: a file name, with its bytes in `image_base64`. */
  image?: unknown;
  image_base64?: unknown;
}

/** A Moodle XML question nests about six elements deep; far deeper is an attack on the parser's stack. */
const MAX_NESTING = 100;

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
  isArray: (name) => ["question", "answer", "tag", "file"].includes(name),
  maxNestedTags: MAX_NESTING,
});

/**
 * The matches of `wanted` outside comments and CDATA sections, in order, each with its line. Linear in the file:
 * a comment or CDATA section is skipped to its end with one search, and an opener with no end after it (inside a
 * processing instruction or an attribute value, where the validator allows one) is read as text. Written as one
 * regular expression with lazy sections, each of 64,000 such openers scanned the rest of the file again (3 s for
 * 320 KB, found by an outside attack).
 */
function* outsideCommentsAndCdata(xml: string, wanted: RegExp): Generator<{ match: RegExpExecArray; line: number }> {
  const lastEnd = { "<!--": xml.lastIndexOf("-->"), "<![CDATA[": xml.lastIndexOf("]]>") };
  const tokens = new RegExp(`<!--|<!\\[CDATA\\[|\\n|${wanted.source}`, "g");
  let line = 1;
  for (let match = tokens.exec(xml); match; match = tokens.exec(xml)) {
    const token = match[0];
    if (token === "\n") {
      line++;
    } else if (token === "<!--" || token === "<![CDATA[") {
      if (tokens.lastIndex > lastEnd[token]) continue;
      const end = xml.indexOf(token === "<!--" ? "-->" : "]]>", tokens.lastIndex) + 3;
      for (let at = xml.indexOf("\n", tokens.lastIndex); at !== -1 && at < end; at = xml.indexOf("\n", at + 1)) line++;
      tokens.lastIndex = end;
    } else {
      yield { match, line };
    }
  }
}

/** The line of each `<question` start tag, in order, passing over comments and CDATA sections. */
function questionLines(xml: string): number[] {
  return [...outsideCommentsAndCdata(xml, /<question\b/)].map(({ line }) => line);
}

/**
 * The file with each embedded file's base64 (and Moodle 1.9's `<image_base64>`) taken out (its line breaks kept): the check for over-long lines is
 * for question text, and Moodle writes an image's base64 on one line. The image's own limit is checked on import.
 */
export function withoutEmbeddedFiles(xml: string): string {
  return xml.replace(
    /(<(file|image_base64)\b[^>]*>)([^<]*)(<\/\2>)/g,
    (_match, open: string, _name: string, body: string, close: string) => open + body.replace(/[^\n]/g, "") + close,
  );
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "object" && "#text" in value) return String((value as { "#text": unknown })["#text"]);
  return typeof value === "object" ? "" : String(value);
}

const FORMATS: Record<string, SourceFormat> = {
  html: "html",
  moodle_auto_format: "moodle",
  markdown: "markdown",
  plain_text: "plain",
};

/**
 * What one question's texts bring while it is read: the images they embed, what they show that the bank cannot
 * hold (losses: the question can still be imported without it), and problems (it cannot).
 */
interface QuestionImages {
  images: FileImage[];
  losses: string[];
  problems: string[];
}

/**
 * A Moodle text field as our Markdown, in the format it names (HTML when it names none, as Moodle writes), with
 * its embedded images' references pointing at where the import stores them.
 */
function markdownOf(field: XmlText | undefined, found: QuestionImages, inline = false): string {
  let raw = textOf(field?.text);
  const format = FORMATS[field?.["@_format"] ?? "html"] ?? "html";
  const refused = new Set<string>();
  for (const file of field?.file ?? []) {
    const name = `${file["@_path"] ?? "/"}${file["@_name"] ?? ""}`.replace(/^\/*/, "/");
    const image =
      file["@_encoding"] === "base64"
        ? checkEmbeddedImage(Buffer.from(textOf(file["#text"]).replace(/\s+/g, ""), "base64"))
        : { ok: false as const, message: "is not base64-encoded" };
    if (!image.ok) {
      // Moodle keeps any file (a sound, a text file); the bank holds images it can check only. The question is
      // still worth importing, with the file named as what it loses.
      found.losses.push(`The embedded file ${name.slice(1)} is left out: it ${image.message}`);
      refused.add(name);
      continue;
    }
    found.images.push(image);
    raw = raw.replace(PLUGIN_FILE, (reference, path: string) =>
      decodedPath(path) === name ? mediaUrl(image) : reference,
    );
  }
  // Plain text shows a reference as typed, and so does Markdown, ours as it is: our export writes an admin's text
  // that shows "@@PLUGINFILE@@/x.png" literally, and it must import back as that text.
  if (format === "html" || format === "moodle") {
    for (const [, path = ""] of raw.matchAll(PLUGIN_FILE)) {
      const name = decodedPath(path);
      if (!refused.has(name)) {
        found.losses.push(`The text shows ${name.slice(1)}, which the file does not embed: it is left out`);
      }
    }
  }
  try {
    // Moodle's Markdown shows `\\(…\\)` and `\\[…\\]` as the delimiters its filters render as math (our export writes them).
    return format === "markdown" ? mathFromMoodle(raw) : asMarkdown(raw, format, inline, found.losses);
  } catch (error) {
    if (!(error instanceof UnconvertibleText)) throw error;
    found.problems.push(error.message);
    return "";
  }
}

/**
 * The question's text with Moodle 1.9's picture (`<image>` naming it, `<image_base64>` holding it) after it, as
 * Moodle's importer adds it; without its bytes the picture is not in the file, and is named as lost.
 */
function withOldImage(text: string, question: XmlQuestion, found: QuestionImages): string {
  const name = textOf(question.image).trim();
  if (name === "") return text;
  const base64 = textOf(question.image_base64).replace(/\s+/g, "");
  if (base64 === "") {
    found.losses.push(`The picture ${name.slice(0, 100)} (Moodle 1.9's <image>) is not in the file: it is left out`);
    return text;
  }
  const image = checkEmbeddedImage(Buffer.from(base64, "base64"));
  if (!image.ok) {
    found.losses.push(`The picture ${name.slice(0, 100)} (Moodle 1.9's <image>) is left out: it ${image.message}`);
    return text;
  }
  found.images.push(image);
  return `${text}\n\n![](${mediaUrl(image)})`;
}

/** Where Moodle's text shows a file it embeds: `@@PLUGINFILE@@/` and the file's path, up to a quote or space. */
const PLUGIN_FILE = /@@PLUGINFILE@@(\/[^"'\s<>)]*)/g;

/** A `@@PLUGINFILE@@` reference's path as Moodle wrote it (each segment URL-encoded). */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** A yes/no element as Moodle's `trans_single` reads it: only "false", "0" or nothing (trimmed) is no. */
function moodleFlag(value: unknown): boolean {
  const text = textOf(value).trim();
  return !(text === "false" || text === "" || text === "0");
}

/** PHP's numeric string: what `"…" / 100` reads in Moodle's importer (PHP 8; whitespace around is allowed). */
const PHP_NUMBER = /^[ \t\n\r\v\f]*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)/;

/**
 * An answer's `fraction` attribute as Moodle's `import_answer` reads it (`fraction / 100` in PHP 8): a number;
 * a text that starts with one is read as that start ("50abc" is 50, "0x32" is 0), as PHP does with a warning; one
 * that does not start with a number stops Moodle's whole import with a TypeError. No attribute is 0.
 */
function moodleFraction(raw: string | undefined): { value: number; read?: string } | { refused: string } {
  if (raw === undefined) return { value: 0 };
  const found = PHP_NUMBER.exec(raw);
  if (!found?.[1]) return { refused: `The fraction "${raw}" is not a number (Moodle's import stops on it)` };
  const value = Number(found[1]);
  const whole = found[0].length === raw.trimEnd().length;
  return whole ? { value } : { value, read: `the fraction "${raw}" is read as ${value}, as Moodle reads it` };
}

/**
 * Which of True and False is right, as Moodle's `import_truefalse` decides: each answer in turn, by its text
 * ("true" or "false", exactly; any other is taken by its place, first True, then False, with Moodle's warning),
 * sets True right when the true answer's fraction is 100, or the false answer's is not; the last one decides.
 */
function trueFalseAnswer(answers: XmlAnswer[]): { trueIsRight: boolean; byPlace: boolean } | undefined {
  let trueIsRight: boolean | undefined;
  let byPlace = false;
  answers.forEach((answer, index) => {
    let said = textOf(answer.text).trim();
    if (said !== "true" && said !== "false") {
      byPlace = true;
      said = index === 0 ? "true" : "false";
    }
    // PHP's `==` with 100: a numeric text equal to 100 ("100", "100.0", "1e2"); anything else is not.
    const raw = answer["@_fraction"];
    const hundred =
      raw !== undefined && PHP_NUMBER.exec(raw)?.[0].length === raw.trimEnd().length && Number(raw) === 100;
    trueIsRight = said === "true" ? hundred : !hundred;
  });
  return trueIsRight === undefined ? undefined : { trueIsRight, byPlace };
}

/** XML's characters: a reference to anything else (`&#0;`, `&#x1;`, `&#xFFFF;`) makes the file not XML. */
function isXmlCharacter(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/**
 * The first character reference, outside comments and CDATA, to a character XML does not allow, with its line.
 * The validator lets them through and the parser drops `&#0;` and `&#x1;` without a word and keeps U+FFFF, so a
 * control character would vanish from a text, or a non-character be stored, where one typed in a form is refused.
 */
function forbiddenCharacterReference(xml: string): { text: string; line: number } | undefined {
  for (const { match, line } of outsideCommentsAndCdata(xml, /&#(?:x([0-9a-fA-F]+)|([0-9]+));/)) {
    const [text, hex, decimal] = match;
    const code = hex === undefined ? Number(decimal) : Number.parseInt(hex, 16);
    if (!isXmlCharacter(code)) return { text, line };
  }
  return undefined;
}

export function parseMoodleXml(xml: string, defaults: ImportDefaults = {}): FileOutcome {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) {
    return refuse(400, "The file declares a DOCTYPE or entities; a Moodle XML question file never needs them.");
  }
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return refuse(400, `Line ${valid.err.line}: not valid XML: ${valid.err.msg}`);
  const reference = forbiddenCharacterReference(xml);
  if (reference) {
    return refuse(
      400,
      `Line ${reference.line}: not valid XML: ${reference.text} is a character XML does not allow (a control character or not a character at all).`,
    );
  }
  let document: { quiz?: { question?: XmlQuestion[] } };
  try {
    document = parser.parse(xml);
  } catch (error) {
    // The validator passed it, so what the parser refuses is one of its limits: the nesting, or a name it will
    // not make a property of (`__proto__`, `constructor`: prototype pollution).
    const message = error instanceof Error ? error.message : String(error);
    if (/nested tags/i.test(message)) {
      return refuse(400, `The file nests its elements more than ${MAX_NESTING} deep; a Moodle XML file never does.`);
    }
    const name = /Invalid name: "([^"]*)"/.exec(message)?.[1];
    if (name !== undefined) {
      const at = xml.search(new RegExp(`<${name.replace(/[^\w.-]/g, "\\$&")}(?=[\\s/>])`));
      const where = at === -1 ? "" : `Line ${lineAt(xml, at)}: `;
      return refuse(
        400,
        `${where}the file names an element ${name}, which no Moodle XML file does and which cannot be read safely.`,
      );
    }
    return refuse(400, `The file cannot be read as Moodle XML: ${message.replace(/^\[\w+\]\s*/, "")}`);
  }
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
    const found: QuestionImages = { images: [], losses: [], problems: [] };
    const text = withOldImage(markdownOf(question.questiontext, found), question, found);
    const tags = (question.tags?.tag ?? []).map((tag) => textOf(tag.text));
    const answers = question.answer ?? [];
    const fractions = answers.map((answer) => moodleFraction(answer["@_fraction"]));
    const fraction = (answer: XmlAnswer) => {
      const read = fractions[answers.indexOf(answer)];
      return read && "value" in read ? read.value : Number.NaN;
    };
    const common = { line, text, category, difficulty: difficultyFromTags(tags) };
    // A question with an image that cannot be stored is a problem at its line, like any other.
    const keep = (draft: Draft) => {
      if (found.problems.length > 0) addProblem(bank, line, found.problems.join("; "));
      else if (addDraft(bank, { ...draft, losses: found.losses }, defaults)) {
        for (const image of found.images) bank.images.set(image.sha256, image);
      }
    };
    if (type === "truefalse") {
      const answer = trueFalseAnswer(answers);
      if (!answer) {
        addProblem(bank, line, "A true/false question needs a right answer of true or false");
      } else {
        if (answer.byPlace) {
          found.losses.push(
            "an answer's text is not true or false: read by its place (first true, then false), as Moodle does",
          );
        }
        keep({
          ...common,
          type: "true_false",
          options: [
            { text: "True", isCorrect: answer.trueIsRight },
            { text: "False", isCorrect: !answer.trueIsRight },
          ],
        });
      }
    } else if (type === "multichoice" || type === "multichoiceset") {
      const multiple = type === "multichoiceset" || !moodleFlag(question.single ?? "true");
      const unreadable = fractions.find((read) => "refused" in read);
      if (unreadable && "refused" in unreadable) {
        addProblem(bank, line, unreadable.refused);
        if (!withinRowLimit(bank)) return tooManyQuestions();
        continue;
      }
      fractions.forEach((read, index) => {
        if ("read" in read && read.read) found.losses.push(`Option ${index + 1}: ${read.read}`);
      });
      // Moodle refuses a question whose grades are not among its own before it stores anything, and so do we.
      const refused = moodleGradesProblem(answers.map(fraction));
      if (refused) {
        addProblem(bank, line, refused);
        if (!withinRowLimit(bank)) return tooManyQuestions();
        continue;
      }
      // An option is right as Moodle reads it: a single answer's at 100%, a multiple answer's above 0. The others
      // keep their weights, part of the mark or less (decision 018).
      const options = answers.map((answer) => ({
        text: markdownOf(answer, found, true),
        isCorrect: multiple ? fraction(answer) > 0 : (moodleGrade(fraction(answer)) ?? 0) === 100,
        weight: fraction(answer),
      }));
      keep({
        ...common,
        type: multiple ? "multiple" : "single",
        // Our own export marks all-or-nothing questions it writes as stock multichoice.
        scoring:
          type === "multichoice" && multiple && textOf(question.trainwise_scoring).trim() !== "all_or_nothing"
            ? "partial"
            : "all_or_nothing",
        options,
      });
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

/** The question types a stock Moodle 4.5 has (question/type), `category` for the category records. */
export const STOCK_MOODLE_TYPES = [
  "category",
  "calculated",
  "calculatedmulti",
  "calculatedsimple",
  "ddimageortext",
  "ddmarker",
  "ddwtos",
  "description",
  "essay",
  "gapselect",
  "match",
  "multianswer",
  "multichoice",
  "numerical",
  "random",
  "randomsamatch",
  "shortanswer",
  "truefalse",
] as const;

/** How our export is written, and the images it carries. */
export interface MoodleXmlOptions {
  /**
   * All-or-nothing multiple-answer questions as `multichoiceset`, the all-or-nothing plugin's type, for a site
   * that has it; by default as stock `multichoice`, which a stock Moodle imports.
   */
  multichoiceset?: boolean;
  /** The bytes of each image our texts show, by its media name (`<sha256>.<ext>`): written into the file. */
  images?: ReadonlyMap<string, Buffer>;
}

export interface MoodleXmlExport {
  xml: string;
  /** Questions a stock Moodle marks otherwise than we do (all or nothing on more than one right option). */
  markedDifferently: number;
}

/** Where a text shows one of our images: a Markdown image's destination. */
const OUR_IMAGE = new RegExp(
  `(!\\[[^\\]]*\\]\\()${MEDIA_PATH_PREFIX.replaceAll("/", "\\/")}([0-9a-f]{64}\\.(?:png|jpg|webp|gif))(?=[)\\s])`,
  "g",
);

/**
 * A text as Moodle's Markdown: our math in delimiters its filters render, our images as `@@PLUGINFILE@@` files
 * carried in the element (base64), so the file stands alone; an image whose bytes are not at hand stays a link.
 */
function moodleTextElement(
  name: string,
  markdown: string,
  images: ReadonlyMap<string, Buffer>,
  attributes = "",
): string {
  const files = new Map<string, Buffer>();
  const text = mathForMoodle(markdown).replace(OUR_IMAGE, (whole, start: string, file: string) => {
    const bytes = images.get(file);
    if (!bytes) return whole;
    files.set(file, bytes);
    return `${start}@@PLUGINFILE@@/${file}`;
  });
  const cdata = `<![CDATA[${text.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;
  const embedded = [...files].map(
    ([file, bytes]) => `<file name="${file}" path="/" encoding="base64">${bytes.toString("base64")}</file>`,
  );
  return `<${name}${attributes} format="markdown"><text>${cdata}</text>${embedded.join("")}</${name}>`;
}

/** A question's name as Moodle lists it: the first words of its text, plain. */
function nameOf(markdown: string): string {
  const plain = markdownAsPlain(markdown).replace(/\s+/g, " ").trim();
  return [...plain].slice(0, 80).join("") || "Question";
}

/**
 * Our element (not Moodle's; its importer passes over elements it does not know) saying a multiple-answer question
 * is marked all or nothing, so our own export reads back as it was written.
 */
const ALL_OR_NOTHING = "<trainwise_scoring>all_or_nothing</trainwise_scoring>";

/** Why a stock Moodle marks an all-or-nothing question differently, written into the file before it. */
const MARKED_DIFFERENTLY =
  "<!-- Marked all or nothing here. A stock Moodle has no such kind: this multichoice gives each right option an equal share and takes everything for any wrong one, so choosing some of the right options and none of the wrong ones earns part of the mark there. Export with multichoiceset for a site with the all-or-nothing plugin. -->";

/**
 * The questions as Moodle XML for Moodle 4.5's importer: single answer and partial credit as `multichoice` with
 * their weights, which mark them as we do; all or nothing as `multichoice` with +100/k for each of the k right options and
 * -100 for each wrong one (exactly our marks when k is 1; otherwise a comment says how Moodle's marks differ), or as
 * `multichoiceset` when asked; true/false as `truefalse`.
 */
export function moodleXmlExport(questions: QuestionWithOptions[], options: MoodleXmlOptions = {}): MoodleXmlExport {
  const tally = { markedDifferently: 0 };
  const xml = [...moodleXmlParts(questions, options, tally)].join("\n");
  return { xml, markedDifferently: tally.markedDifferently };
}

/**
 * `moodleXmlExport`'s file as parts (lines and questions) to be joined by line breaks, for a writer that pauses
 * between them; `tally` counts the questions a stock Moodle marks otherwise as they are written.
 */
export function* moodleXmlParts(
  questions: QuestionWithOptions[],
  options: MoodleXmlOptions,
  tally: { markedDifferently: number },
): Generator<string> {
  const images = options.images ?? new Map<string, Buffer>();
  yield '<?xml version="1.0" encoding="UTF-8"?>';
  yield "<quiz>";
  let category: string | undefined;
  for (const question of questions) {
    if (question.category !== category) {
      category = question.category;
      yield `  <question type="category">${textElement("category", categoryToPath(category))}</question>`;
    }
    const allOrNothing = question.type === "multiple" && question.scoring === "all_or_nothing";
    const type =
      question.type === "true_false"
        ? "truefalse"
        : allOrNothing && options.multichoiceset
          ? "multichoiceset"
          : "multichoice";
    const correctCount = question.options.filter((option) => option.isCorrect).length;
    // An all-or-nothing question's right options as stock multichoice: an equal share each (+100/k).
    const share = weightText(moodleGrade(100 / Math.max(correctCount, 1)) ?? 0);
    const parts = [
      textElement("name", nameOf(question.text)),
      moodleTextElement("questiontext", question.text, images),
    ];
    if (type === "multichoice") parts.push(`<single>${question.type === "single"}</single>`);
    if (type !== "truefalse") parts.push("<shuffleanswers>true</shuffleanswers>");
    if (type === "multichoice" && allOrNothing) parts.push(ALL_OR_NOTHING);
    for (const option of question.options) {
      // Each option's weight; all or nothing has no stock kind (see above), and true/false is 100 or 0.
      const fraction =
        question.type === "true_false" || type === "multichoiceset"
          ? option.isCorrect
            ? "100"
            : "0"
          : allOrNothing
            ? option.isCorrect
              ? share
              : "-100"
            : weightText(option.weight);
      const text = type === "truefalse" ? option.text.toLowerCase() : option.text;
      parts.push(moodleTextElement("answer", text, images, ` fraction="${fraction}"`));
    }
    parts.push(`<tags><tag><text>${difficultyTag(question.difficulty)}</text></tag></tags>`);
    if (type === "multichoice" && allOrNothing && correctCount > 1) {
      tally.markedDifferently++;
      yield `  ${MARKED_DIFFERENTLY}`;
    }
    yield `  <question type="${type}">\n    ${parts.join("\n    ")}\n  </question>`;
  }
  yield "</quiz>";
  yield "";
}

/** The questions as Moodle XML a stock Moodle imports, without images' bytes (they stay links). */
export function questionsToMoodleXml(questions: QuestionWithOptions[]): string {
  return moodleXmlExport(questions).xml;
}
