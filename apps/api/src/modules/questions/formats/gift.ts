// GIFT, Moodle's text format, read with gift-pegjs (the maintained PEG grammar of the format) and written here.
// The file is cut into questions at blank lines, as Moodle does, and each is parsed on its own: a broken
// question is reported at its own line and the others are still read.
//
// What GIFT carries: `$CATEGORY:` (a Moodle path; decision 018), difficulty as a tag comment
// (`// [tag:difficulty-hard]`), single answer (`=right ~%50%half ~wrong`, an option worth part of the mark by its
// weight; `=Paris =Paris, France`, two options worth the whole mark), multiple answers (weights `~%50%a ~%-50%c`,
// read as partial credit, which is what Moodle's weights mean), each weight read only where Moodle's reader reads
// one (withMoodleWeights; `% 50%` is text, named as a loss) and one of Moodle's grades or the question is refused
// with Moodle's reason, true/false (`{T}`/`{F}`), each also as a "missing
// word" question (the answers inside the text, read as a blank `_____`). It has no way to say "all or nothing" for
// multiple answers: those are written with the same weights and come back as partial. Numerical, short answer,
// matching, essay and description questions are named as kinds the bank does not hold.
//
// Text (docs/decisions/021): a `[markdown]` text is ours as it is; `[html]`, and `[moodle]` (Moodle's
// auto-format: HTML with line breaks kept, which is also what a text without a marker is) is converted to
// Markdown; `[plain]` is escaped so it shows literally. An option without a marker is in its question's
// format. We write `[markdown]` before every question, so whitespace and line breaks survive (gift-pegjs
// collapses them in the other formats), and each line break as GIFT's `\n` escape: a question is one line of
// the file, and a code block's blank line is `\n\n` in it, never a blank line that would end the question.
import { moodleGrade } from "@trainwise/contract/questions";
import { type GIFTQuestion, parse, type TextFormat } from "gift-pegjs";
import { asMarkdown, UnconvertibleText } from "../../../rich-text/as-markdown.ts";
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
  moodleGradesProblem,
  tooManyQuestions,
  weightText,
  withinRowLimit,
} from "./bank-file.ts";
import { giftSyntaxProblem } from "./gift-errors.ts";

/** The kinds of GIFT question the bank does not hold, as the admin is told. */
const UNSUPPORTED_KINDS: Partial<Record<GIFTQuestion["type"], string>> = {
  Description: "description",
  Essay: "essay",
  Matching: "matching",
  Numerical: "numerical",
  Short: "short answer",
};

/** Each question of the file with the line it starts on: blocks of lines between blank lines. */
function blocks(text: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  let current: string[] = [];
  let start = 0;
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === "") {
      if (current.length > 0) found.push({ line: start, text: current.join("\n") });
      current = [];
      return;
    }
    if (current.length === 0) start = index + 1;
    current.push(line);
  });
  if (current.length > 0) found.push({ line: start, text: current.join("\n") });
  return found;
}

/** The first line of a block that is not a comment: where its question is. */
function questionLine(block: { line: number; text: string }): number {
  const offset = block.text.split("\n").findIndex((line) => !line.trim().startsWith("//"));
  return block.line + Math.max(offset, 0);
}

/** A GIFT text as our Markdown, by its format marker (no marker reads as `moodle`). */
function markdownOf(text: TextFormat, losses: string[], inline = false): string {
  const format =
    text.format === "markdown" || text.format === "html" || text.format === "plain" ? text.format : "moodle";
  return asMarkdown(text.text, format, inline, losses);
}

/**
 * The title (or the start of the text) of a block whose answer part starts with `#`, Moodle's mark of a numerical
 * question; undefined for any other block. Comment lines and escaped braces are passed over.
 */
function numericalTitle(block: string): string | undefined {
  const text = block
    .split("\n")
    .filter((line) => !line.trim().startsWith("//"))
    .join("\n");
  const open = /(?<!\\)\{/.exec(text);
  if (!open || !/^\s*#/.test(text.slice(open.index + 1))) return undefined;
  const head = text.slice(0, open.index).trim();
  const title = /^::(.*?)::/s.exec(head);
  return (title?.[1] ?? head).trim().slice(0, 80);
}

/**
 * One option of a multiple-choice question as Moodle's GIFT reader (`qformat_gift::readquestion`) weighs it. An `=`
 * option is worth 100 whatever follows it; a `~` option's weight is read only when it matches Moodle's pattern (`%`,
 * minus signs, one or two digits, an optional point and digits, `%`), and anything else between percent signs
 * (`% 50%`, `%+50%`, `%5e1%`, `%100.0%`) is text, the option worth 0. gift-pegjs reads any number there
 * (parseFloat), so its weights are not used: it is given the block with Moodle's weights taken out.
 */
interface MoodleOption {
  /** Whether it is an `=` option. */
  full: boolean;
  /** The weight in percent as Moodle reads it; undefined where Moodle's reader stops its import (`%--50%`). */
  weight: number | undefined;
  /** The weight as written, where Moodle cannot read it as a number. */
  unreadable?: string;
  /** The `%…%` at the start of the option that Moodle keeps as text, not as a weight. */
  notAWeight?: string;
}

/** Moodle's pattern for a weight (`$giftanswerweightregex`), its minus signs and its number apart. */
const MOODLE_WEIGHT = /^%(-*)([0-9]{1,2}\.?[0-9]*)%/;
/** What a reader would take for a weight: a percent sign, up to the next one on the line. */
const LOOKS_LIKE_WEIGHT = /^%[^%\n]*%/;
/** The characters GIFT escapes with a backslash (Moodle's `escapedchar_pre`). */
const ESCAPED = new Set(["\\", ":", "#", "=", "{", "}", "~", "n"]);
/** What PHP's trim() takes off. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: PHP's trim() takes off NUL and vertical tab too.
const PHP_SPACE = /^[ \t\n\r\0\x0B]*/;

/**
 * A block as Moodle reads a multiple-choice question's options (`options`, undefined where Moodle reads no multiple
 * choice), and the block as gift-pegjs is to see it: each weight Moodle reads blanked out (the same length, so lines
 * stay where they were), and each `%` Moodle keeps as text at the start of an option replaced by `placeholder`, which
 * gift-pegjs reads as text and which stands for `%` again in the option it parses.
 */
function withMoodleWeights(
  block: { line: number; text: string },
  placeholder: string,
): { block: { line: number; text: string }; options?: MoodleOption[] } {
  // Moodle blanks comment lines, and hides escaped characters from its search for braces, `~` and `=`: here each
  // is replaced by as many characters, so an offset in `masked` is the same offset in the block.
  const joined = block.text
    .split("\n")
    .map((line) => (line.replace(PHP_SPACE, "").startsWith("//") ? " ".repeat(line.length) : line))
    .join("\n");
  let masked = "";
  for (let index = 0; index < joined.length; index++) {
    if (joined[index] === "\\" && ESCAPED.has(joined[index + 1] ?? "")) {
      masked += "__";
      index++;
    } else {
      masked += joined[index];
    }
  }
  // Moodle takes the question's name off, then reads the answers between the first `{` and the first `}`.
  let from = masked.length - masked.replace(PHP_SPACE, "").length;
  if (masked.startsWith("::", from)) {
    const end = masked.indexOf("::", from + 2);
    if (end !== -1) from = end + 2;
  }
  const open = masked.indexOf("{", from);
  const close = masked.indexOf("}", from);
  if (open === -1 || close < open) return { block };
  let answers = masked.slice(open + 1, close);
  const general = answers.lastIndexOf("####");
  if (general !== -1) answers = answers.slice(0, general);
  if (answers.replace(PHP_SPACE, "").startsWith("#") || !answers.includes("~")) return { block };
  // Each option starts at a `~` or an `=` (Moodle turns each "=" into "~=" and splits at "~").
  const starts: number[] = [];
  for (let index = 0; index < answers.length; index++) {
    if (answers[index] === "~" || answers[index] === "=") starts.push(index);
  }
  const units = block.text.split("");
  const options = starts.map((start, place): MoodleOption => {
    const full = answers[start] === "=";
    const body = answers.slice(start + 1, starts[place + 1] ?? answers.length);
    const option = body.replace(PHP_SPACE, "");
    const at = open + 1 + start + 1 + (body.length - option.length);
    const weight = full ? null : MOODLE_WEIGHT.exec(option);
    if (weight) {
      for (let index = at; index < at + weight[0].length; index++) units[index] = " ";
      // PHP divides what stands between the percent signs by 100: after two minus signs it is not a number, and PHP 8
      // throws a TypeError, which ends Moodle's whole import.
      const minus = weight[1] ?? "";
      return minus.length > 1
        ? { full, weight: undefined, unreadable: weight[0] }
        : { full, weight: Number(`${minus}${weight[2]}`) || 0 };
    }
    if (option.startsWith("%")) units[at] = placeholder;
    const looks = LOOKS_LIKE_WEIGHT.exec(option);
    return { full, weight: full ? 100 : 0, ...(looks ? { notAWeight: looks[0] } : {}) };
  });
  return { block: { line: block.line, text: units.join("") }, options };
}

/** A character the block does not hold, to stand for a `%` that gift-pegjs is to read as text. */
function placeholderFor(text: string): string {
  let code = 0xe000;
  while (text.includes(String.fromCharCode(code))) code++;
  return String.fromCharCode(code);
}

function errorLine(error: unknown, block: { line: number }): number {
  const location = (error as { location?: { start?: { line?: number } } }).location;
  return block.line + (location?.start?.line ?? 1) - 1;
}

export function parseGift(text: string, defaults: ImportDefaults = {}): FileOutcome {
  const bank = emptyBank();
  let category: string | undefined;
  for (const found of blocks(text)) {
    // Weights are read as Moodle reads them (withMoodleWeights), and gift-pegjs parses the block without them.
    const placeholder = placeholderFor(found.text);
    const { block, options: moodleOptions } = withMoodleWeights(found, placeholder);
    // A block of comments only is not a question.
    if (block.text.split("\n").every((line) => line.trim().startsWith("//"))) continue;
    let items: GIFTQuestion[];
    try {
      items = parse(block.text);
    } catch (error) {
      // Moodle reads an answer part starting with `#` as a numerical question whatever follows, which gift-pegjs
      // does not always parse (`{#3:2~#Completely wrong}`): that is a kind we do not hold, not a broken question.
      const numerical = numericalTitle(block.text);
      if (numerical !== undefined) {
        bank.unsupported.push({ line: questionLine(block), kind: "numerical", title: numerical });
        if (!withinRowLimit(bank)) return tooManyQuestions();
        continue;
      }
      addProblem(bank, errorLine(error, block), giftSyntaxProblem(error, block.text, block.line));
      if (!withinRowLimit(bank)) return tooManyQuestions();
      continue;
    }
    const line = questionLine(block);
    for (const item of items) {
      if (item.type === "Category") {
        category = categoryFromPath(item.title);
        continue;
      }
      const title = item.title ?? item.stem.text.slice(0, 80);
      // A "missing word" question (its answers in the middle of the text) is read as Moodle reads it: the text
      // with a blank (`_____`) where the answers stand, then the answers as for any question of its kind.
      const unsupported = UNSUPPORTED_KINDS[item.type];
      if (unsupported) {
        bank.unsupported.push({ line, kind: unsupported, title });
      } else {
        // A text that cannot be converted (HTML nested too deep) is a problem at the question's line.
        try {
          const losses: string[] = [];
          const common = {
            line,
            text: markdownOf(item.stem, losses),
            losses,
            category,
            difficulty: difficultyFromTags(item.tags ?? []),
          };
          if (item.type === "TF") {
            addDraft(
              bank,
              {
                ...common,
                type: "true_false",
                options: [
                  { text: "True", isCorrect: item.isTrue },
                  { text: "False", isCorrect: !item.isTrue },
                ],
              },
              defaults,
            );
          } else if (item.type === "MC") {
            // As in Moodle: an "=" option is worth 100 and makes the question a single answer, where the student
            // chooses one option and earns its weight (several "=" options are each a right answer); `~%n%` weighs
            // an option; without any "=" it is a multiple answer with partial credit.
            const read = moodleOptions?.length === item.choices.length ? moodleOptions : undefined;
            const stop = read?.find((option) => option.weight === undefined);
            if (!read) {
              // The two readers split the answers differently (a `//` line inside the braces, which Moodle leaves
              // out and gift-pegjs reads as text): the question would not be the one Moodle imports.
              addProblem(
                bank,
                line,
                `Moodle reads ${moodleOptions?.length ?? "no"} options in this question where this reader reads ${item.choices.length}; a line starting with // inside the braces, which Moodle leaves out, is the usual cause`,
              );
            } else if (stop) {
              addProblem(
                bank,
                line,
                `Option ${read.indexOf(stop) + 1}: Moodle cannot read the weight ${stop.unreadable} (more than one minus sign) and stops its whole import there; write it with one minus sign`,
              );
            } else {
              const weights = read.map((option) => option.weight ?? 0);
              const multiple = !read.some((option) => option.full);
              read.forEach((option, index) => {
                if (option.notAWeight === undefined) return;
                losses.push(
                  option.full
                    ? `Option ${index + 1}: '${option.notAWeight}' after "=" is not a weight Moodle reads (an "=" option is worth 100), so it is text, as in Moodle`
                    : `Option ${index + 1}: '${option.notAWeight}' is not a weight Moodle reads, so it is text and the option is worth 0, as in Moodle`,
                );
              });
              const refused = moodleGradesProblem(weights);
              if (refused) {
                addProblem(bank, line, refused);
              } else {
                addDraft(
                  bank,
                  {
                    ...common,
                    type: multiple ? "multiple" : "single",
                    scoring: multiple ? "partial" : "all_or_nothing",
                    options: item.choices.map((choice, index) => {
                      const weight = weights[index] ?? 0;
                      const text = { ...choice.text, text: choice.text.text.replaceAll(placeholder, "%") };
                      return {
                        text: markdownOf(text, losses, true),
                        isCorrect: multiple ? weight > 0 : moodleGrade(weight) === 100,
                        weight,
                      };
                    }),
                  },
                  defaults,
                );
              }
            }
          }
        } catch (error) {
          if (!(error instanceof UnconvertibleText)) throw error;
          addProblem(bank, line, error.message);
        }
      }
      if (!withinRowLimit(bank)) return tooManyQuestions();
    }
  }
  return { ok: true, bank };
}

/** Text with GIFT's special characters escaped, and line breaks as `\n` (a blank line would end the question). */
function giftText(text: string): string {
  return text.replace(/[\\~=#{}:]/g, (character) => `\\${character}`).replace(/\r?\n/g, "\\n");
}

/**
 * An option as GIFT: it is in its question's `[markdown]`, so it needs a marker of its own only where its first
 * character would be read as GIFT's (a `[format]` marker, a `%weight%`).
 */
function giftOption(text: string): string {
  return /^[[%]/.test(text) ? `[markdown]${giftText(text)}` : giftText(text);
}

/** The questions as GIFT, each category line and question a part; the file is the parts joined by line breaks. */
export function* giftParts(questions: QuestionWithOptions[]): Generator<string> {
  let category: string | undefined;
  for (const question of questions) {
    if (question.category !== category) {
      category = question.category;
      yield `$CATEGORY: ${categoryToPath(category)}\n`;
    }
    const head = `// [tag:${difficultyTag(question.difficulty)}]\n[markdown]${giftText(question.text)}`;
    if (question.type === "true_false") {
      const isTrue = question.options.some((option) => option.isCorrect && option.text.toLowerCase() === "true");
      yield `${head} {${isTrue ? "T" : "F"}}\n`;
      continue;
    }
    // Each option with its weight: a single answer's right option as "=", the others by weight when they have one.
    // A further full-mark option is written `~%100%`: with every option "=", GIFT's readers see a short answer.
    const first = question.options.findIndex((option) => option.isCorrect);
    const choices = question.options.map((option, index) =>
      question.type === "multiple"
        ? `~%${weightText(option.weight)}%${giftOption(option.text)}`
        : index === first
          ? `=${giftOption(option.text)}`
          : `~${option.weight === 0 ? "" : `%${weightText(option.weight)}%`}${giftOption(option.text)}`,
    );
    yield `${head} {\n${choices.map((choice) => `  ${choice}`).join("\n")}\n}\n`;
  }
}

export function questionsToGift(questions: QuestionWithOptions[]): string {
  return [...giftParts(questions)].join("\n");
}
