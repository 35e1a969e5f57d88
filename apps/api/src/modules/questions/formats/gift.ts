// GIFT, Moodle's text format, read with gift-pegjs (the maintained PEG grammar of the format) and written here.
// The file is cut into questions at blank lines, as Moodle does, and each is parsed on its own: a broken
// question is reported at its own line and the others are still read.
//
// What GIFT carries: `$CATEGORY:` (a Moodle path; decision 018), difficulty as a tag comment
// (`// [tag:difficulty-hard]`), single answer (`=right ~%50%half ~wrong`, an option worth part of the mark by its
// weight), multiple answers (weights `~%50%a ~%-50%c`, read as partial credit, which is what Moodle's weights
// mean), each weight one of Moodle's grades or the question is refused with Moodle's reason, true/false (`{T}`/`{F}`), each also as a "missing
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

function errorLine(error: unknown, block: { line: number }): number {
  const location = (error as { location?: { start?: { line?: number } } }).location;
  return block.line + (location?.start?.line ?? 1) - 1;
}

export function parseGift(text: string, defaults: ImportDefaults = {}): FileOutcome {
  const bank = emptyBank();
  let category: string | undefined;
  for (const block of blocks(text)) {
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
            // "=" marks the one right answer (worth 100), and `%n%` weighs an option, as in Moodle: a single answer
            // may give part of the mark for another option; weights without any "=" mark a multiple-answer question.
            const multiple = !item.choices.some((choice) => choice.isCorrect) && item.choices.some((c) => c.weight);
            const weights = item.choices.map((choice) => (choice.isCorrect ? 100 : (choice.weight ?? 0)));
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
                  options: item.choices.map((choice, index) => ({
                    text: markdownOf(choice.text, losses, true),
                    isCorrect: multiple ? (choice.weight ?? 0) > 0 : choice.isCorrect,
                    weight: weights[index],
                  })),
                },
                defaults,
              );
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

export function questionsToGift(questions: QuestionWithOptions[]): string {
  const out: string[] = [];
  let category: string | undefined;
  for (const question of questions) {
    if (question.category !== category) {
      category = question.category;
      out.push(`$CATEGORY: ${categoryToPath(category)}\n`);
    }
    const head = `// [tag:${difficultyTag(question.difficulty)}]\n[markdown]${giftText(question.text)}`;
    if (question.type === "true_false") {
      const isTrue = question.options.some((option) => option.isCorrect && option.text.toLowerCase() === "true");
      out.push(`${head} {${isTrue ? "T" : "F"}}\n`);
      continue;
    }
    // Each option with its weight: a single answer's right option as "=", the others by weight when they have one.
    const choices = question.options.map((option) =>
      question.type === "multiple"
        ? `~%${weightText(option.weight)}%${giftOption(option.text)}`
        : option.isCorrect
          ? `=${giftOption(option.text)}`
          : `~${option.weight === 0 ? "" : `%${weightText(option.weight)}%`}${giftOption(option.text)}`,
    );
    out.push(`${head} {\n${choices.map((choice) => `  ${choice}`).join("\n")}\n}\n`);
  }
  return out.join("\n");
}
