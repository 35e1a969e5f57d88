// Text that a question file gives in another format (plain text, HTML, Moodle's auto-format) as the Markdown we
// store, so that it shows as it did where it came from (docs/decisions/021, "Imported text").
// Plain text is backslash-escaped wherever Markdown would read it as syntax. HTML is converted to Markdown by
// turndown: what has a Markdown form keeps it, what can run or style is dropped, and the text between the tags
// is escaped like plain text, so nothing stored is markup (the renderer shows any HTML in a text literally).
import { MEDIA_FILE_PATTERN, MEDIA_PATH_PREFIX } from "@trainwise/contract/media";
import TurndownService from "turndown";
import { nestsDeeperThan } from "./html-depth.ts";

/** What a question file says its text is. */
export type SourceFormat = "markdown" | "html" | "moodle" | "plain";

/** Characters Markdown (with our `$` math and markdown-it's `~~`) reads as syntax anywhere in a line. */
const INLINE_SYNTAX = /[\\`*[\]<>$~|]/g;

/** `_` opens or closes emphasis only beside something other than a letter or digit. */
const LOOSE_UNDERSCORE = /(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;

/** An HTML character reference, which Markdown decodes as HTML does: its `&` is escaped to keep it literal. */
const CHARACTER_REFERENCE = /&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)/g;

/**
 * What starts a block at the beginning of a line: heading, quote, list item, setext underline, table delimiter,
 * ordered list (`1.` or `1)`).
 */
const LINE_START_SYNTAX = /^([#>+\-=:]|\d{1,9}(?=[.)]))/;

/** Text with Markdown's inline syntax escaped. */
function escapeInline(text: string): string {
  return text
    .replace(INLINE_SYNTAX, (character) => `\\${character}`)
    .replace(LOOSE_UNDERSCORE, "\\_")
    .replace(CHARACTER_REFERENCE, "\\&");
}

/**
 * The delimiters of TeX that Moodle's MathJax and TeX filters render in any text: `$$…$$` and `\[…\]` (display),
 * `\(…\)` (inline).
 */
const MOODLE_MATH = [
  { open: "$$", close: "$$", display: true },
  { open: "\\[", close: "\\]", display: true },
  { open: "\\(", close: "\\)", display: false },
] as const;

/** Stands for a formula while the text around it is escaped; private-use characters no escape touches. */
const MATH_MARK = /\uE000(\d+)\uE001/g;

/**
 * The text with each formula Moodle would render replaced by a mark that no escape touches, and the function that
 * puts the formulas back, as our math (`$$…$$` display, `$…$` inline, the inline ones trimmed as pandoc's rule
 * wants), in place of their marks. A formula holding a `$` stays text: our math cannot hold one. One pass: each
 * delimiter's next opening and closing is searched for again only once passed, so a file of unclosed `\(` costs no
 * more than its length.
 */
function markMath(text: string): { marked: string; restore: (done: string) => string } {
  if (/[\uE000\uE001]/.test(text) || !/\$\$|\\[[(]/.test(text)) return { marked: text, restore: (done) => done };
  const formulas: string[] = [];
  const next = MOODLE_MATH.map(() => ({ open: -2, close: -2 }));
  let marked = "";
  let at = 0;
  for (;;) {
    let kind = -1;
    for (const [index, delimiter] of MOODLE_MATH.entries()) {
      const found = next[index] as { open: number; close: number };
      if (found.open !== -1 && found.open < at) found.open = text.indexOf(delimiter.open, at);
      if (found.open !== -1 && (kind === -1 || found.open < (next[kind]?.open ?? 0))) kind = index;
    }
    if (kind === -1) break;
    const delimiter = MOODLE_MATH[kind] as (typeof MOODLE_MATH)[number];
    const found = next[kind] as { open: number; close: number };
    const start = found.open + delimiter.open.length;
    if (found.close !== -1 && found.close < start) found.close = text.indexOf(delimiter.close, start);
    if (found.close === -1) {
      // No formula of this kind closes after here.
      found.open = -1;
      continue;
    }
    // Inline math may not start or end with a space (pandoc's rule); display math keeps its TeX as it is, as
    // mathFromMoodle does (trimmed, a display formula read back as plain text lost its spaces).
    const tex = delimiter.display ? text.slice(start, found.close) : text.slice(start, found.close).trim();
    if (tex.trim() === "" || tex.includes("$")) {
      marked += text.slice(at, start);
      at = start;
      continue;
    }
    formulas.push(delimiter.display ? `$$${tex}$$` : `$${tex}$`);
    marked += `${text.slice(at, found.open)}\uE000${formulas.length - 1}\uE001`;
    at = found.close + delimiter.close.length;
  }
  marked += text.slice(at);
  const restore = (done: string) =>
    formulas.length === 0 ? done : done.replace(MATH_MARK, (_mark, index: string) => formulas[Number(index)] ?? "");
  return { marked, restore };
}

/**
 * Plain text as Markdown that shows it literally. Each line loses its leading spaces (four would make it a code
 * block, and HTML shows no leading spaces anyway); a line's first character and an ordered list's `.` or `)`
 * are escaped where they would start a block. `inline` (an option, shown in a label) needs no block escapes.
 */
export function plainAsMarkdown(text: string, inline = false, moodleMath = false): string {
  const { marked, restore } = moodleMath ? markMath(text) : { marked: text, restore: (done: string) => done };
  const markdown = marked
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => {
      const escaped = escapeInline(line.trimStart());
      if (inline) return escaped;
      const number = /^\d{1,9}(?=[.)])/.exec(escaped);
      if (number) return `${number[0]}\\${escaped.slice(number[0].length)}`;
      return LINE_START_SYNTAX.test(escaped) ? `\\${escaped}` : escaped;
    })
    .join("\n");
  return restore(markdown);
}

/**
 * What starts a block when a piece of HTML's text starts a line: a heading, a list item, a setext underline or
 * rule, an ordered list's `1.` (`>` and `*` are escaped everywhere).
 */
const TEXT_LINE_START = /^(?:#{1,6}(?=\s|$)|[-+](?=\s|$)|(?:-+|=+)(?=\s*$))/;
const TEXT_ORDERED_LIST = /^\d{1,9}(?=[.)](?:\s|$))/;

/**
 * Where a piece of text would start a block if it started a line. Whether it does is only known in the whole
 * Markdown (`x<sup>2</sup> + 1` does not), so the piece is marked with a NUL, which no question text can hold,
 * and the mark becomes a backslash at the start of a line (after any quote or list markers) and goes elsewhere.
 */
const LINE_START_MARK = "\u0000";
// Spaces are read once at the line's start and after each marker, never by two quantifiers in a row: with
// `(?:[ \t]*marker[ \t]+)*[ \t]*` a line of nested list markers ("-   -   -   … x", what a list nested twenty deep
// becomes) could be split between them in exponentially many ways, and a file of a few hundred bytes held the
// server for minutes.
const MARK_AT_LINE_START = new RegExp(`^([ \\t]*(?:(?:>|[-+*]|\\d{1,9}[.)])[ \\t]+)*\\d{0,9})${LINE_START_MARK}`, "gm");

/** A piece of an HTML text (a text node) escaped where Markdown would read it; Moodle's math becomes ours. */
function escapeTextNode(text: string): string {
  const { marked, restore } = markMath(text);
  const [, space = "", rest = ""] = /^(\s*)([\s\S]*)$/.exec(marked) ?? [];
  const escaped = escapeInline(rest);
  const number = TEXT_ORDERED_LIST.exec(escaped);
  if (number) return restore(`${space}${number[0]}${LINE_START_MARK}${escaped.slice(number[0].length)}`);
  return restore(space + (TEXT_LINE_START.test(escaped) ? LINE_START_MARK : "") + escaped);
}

/** Elements whose content is code, styling, a form's or another document's: dropped with their content. */
const DROPPED: TurndownService.TagName[] = [
  "script",
  "style",
  "template",
  "frame",
  "frameset",
  "applet",
  "svg",
  "math",
  "canvas",
  "noscript",
  "noembed",
  "noframes",
  "textarea",
  "select",
  "option",
  "button",
  "head",
  "title",
  "meta",
  "link",
  "base",
] as TurndownService.TagName[];

/** Unicode's superscript and subscript characters, for `<sup>`/`<sub>` text that has them (x², H₂O). */
const SUPERSCRIPT: Record<string, string> = Object.fromEntries(
  [..."0123456789+-=()n"].map((character, index) => [character, "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ"[index] ?? ""]),
);
const SUBSCRIPT: Record<string, string> = Object.fromEntries(
  [..."0123456789+-=()"].map((character, index) => [character, "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎"[index] ?? ""]),
);

/** A fence longer than any run of backticks in the code, so the code cannot close it. */
function fenceFor(code: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((run) => run[0].length));
  return "`".repeat(longest + 1);
}

function languageOf(element: HTMLElement | null | undefined): string {
  const name = /(?:^|\s)lang(?:uage)?-([\w+#-]+)/.exec(element?.getAttribute("class") ?? "")?.[1];
  return name?.toLowerCase() ?? "";
}

/** A link's target in Markdown: characters that would end it are percent-encoded. */
function destination(url: string): string {
  return url.replace(
    /[\s()<>\\]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
  );
}

function isOurMedia(src: string): boolean {
  return src.startsWith(MEDIA_PATH_PREFIX) && MEDIA_FILE_PATTERN.test(src.slice(MEDIA_PATH_PREFIX.length));
}

/** Whether an element is, or is part of, a table inside another table's cell: Markdown cannot nest tables, so its text stays. */
function inNestedTable(element: HTMLElement): boolean {
  let table = false;
  for (let node = element.parentNode; node; node = node.parentNode) {
    if (node.nodeName === "TABLE") {
      if (table) return true;
      table = true;
    }
    if (table && (node.nodeName === "TD" || node.nodeName === "TH")) return true;
  }
  return false;
}

function tableOf(row: HTMLElement): HTMLElement | null {
  let node = row.parentNode;
  while (node && node.nodeName !== "TABLE") node = node.parentNode;
  return node as HTMLElement | null;
}

function alignmentOf(cell: Element): string {
  const align = (
    cell.getAttribute("align") ??
    /text-align:\s*(\w+)/i.exec(cell.getAttribute("style") ?? "")?.[1] ??
    ""
  ).toLowerCase();
  return align === "left" ? ":--" : align === "right" ? "--:" : align === "center" ? ":-:" : "---";
}

const turndown = new TurndownService({
  headingStyle: "atx",
  hr: "---",
  bulletListMarker: "-",
  codeBlockStyle: "fenced",
  emDelimiter: "*",
  strongDelimiter: "**",
  // A line break is a line break in our Markdown (markdown-it's `breaks`), with no trailing spaces to lose.
  br: "",
});
turndown.escape = escapeTextNode;
turndown.addRule("line break", {
  filter: "br",
  // Two line breaks in a row leave an empty line: a paragraph break in Markdown.
  replacement: (_content, node) => {
    let previous = node.previousSibling;
    while (previous?.nodeType === 3 && previous.textContent?.trim() === "") previous = previous.previousSibling;
    return previous?.nodeName === "BR" ? "\n\n" : "\n";
  },
});
turndown.remove(DROPPED);

/**
 * What the conversion running now leaves out that its author meant to show (an image from elsewhere, a sound, a
 * video): each named, for the import preview to list. Turndown calls its rules synchronously, so one list is enough.
 */
let losses: string[] | undefined;

function lose(loss: string): void {
  if (losses && !losses.includes(loss)) losses.push(loss);
}

/** Content a question cannot show, named as a loss rather than dropped without a word. */
const MEDIA_ELEMENTS: Record<string, string> = {
  AUDIO: "a sound (<audio>)",
  VIDEO: "a video (<video>)",
  IFRAME: "an embedded page (<iframe>)",
  OBJECT: "an embedded object (<object>)",
  EMBED: "an embedded object (<embed>)",
};
turndown.addRule("media", {
  filter: (node) => node.nodeName in MEDIA_ELEMENTS,
  replacement: (_content, node) => {
    lose(`${MEDIA_ELEMENTS[node.nodeName]} is left out: a question shows text and images only`);
    return "";
  },
});

/** Emphasis set by a style attribute (`font-style: italic`, `font-weight: bold`), as Moodle's editors sometimes write it. */
function styledEmphasis(node: HTMLElement): { italic: boolean; bold: boolean } {
  const style = node.getAttribute?.("style") ?? "";
  const italic = /(?:^|;)\s*font-style\s*:\s*(?:italic|oblique)/i.test(style);
  const weight = /(?:^|;)\s*font-weight\s*:\s*([a-z0-9]+)/i.exec(style)?.[1]?.toLowerCase() ?? "";
  const bold = weight === "bold" || weight === "bolder" || Number(weight) >= 600;
  return { italic, bold };
}
turndown.addRule("styled emphasis", {
  filter: (node) => {
    // Only elements with no Markdown of their own: a styled cell, link or heading keeps its own rule.
    if (!["SPAN", "FONT", "P", "DIV"].includes(node.nodeName) || !node.getAttribute?.("style")) return false;
    const { italic, bold } = styledEmphasis(node as HTMLElement);
    return italic || bold;
  },
  replacement: (content, node) => {
    if (content.trim() === "") return content;
    const { italic, bold } = styledEmphasis(node as HTMLElement);
    const [, before = "", inner = "", after = ""] = /^(\s*)([\s\S]*?)(\s*)$/.exec(content) ?? [];
    const mark = `${bold ? "**" : ""}${italic ? "*" : ""}`;
    const wrapped = `${mark}${inner}${[...mark].reverse().join("")}`;
    // A block (a paragraph, a div) keeps its line breaks around the emphasis.
    return /^(P|DIV|LI|H[1-6]|BLOCKQUOTE|TD|TH)$/.test(node.nodeName)
      ? `\n\n${wrapped}\n\n`
      : `${before}${wrapped}${after}`;
  },
});
turndown.addRule("code block", {
  filter: "pre",
  replacement: (_content, node) => {
    const element = node as HTMLElement;
    const code = element.textContent?.replace(/\n$/, "") ?? "";
    const language = languageOf(element) || languageOf(element.querySelector("code"));
    const fence = fenceFor(code);
    return `\n\n${fence}${language}\n${code}\n${fence}\n\n`;
  },
});
turndown.addRule("keyboard", {
  filter: "kbd",
  replacement: (_content, node) => {
    const text = (node.textContent ?? "").replace(/\s+/g, " ");
    if (text.trim() === "") return "";
    const ticks = "`".repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length)) + 1);
    const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
    return `${ticks}${pad}${text}${pad}${ticks}`;
  },
});
turndown.addRule("strikethrough", {
  filter: ["s", "del", "strike"] as TurndownService.TagName[],
  replacement: (content) => (content.trim() === "" ? content : `~~${content}~~`),
});
turndown.addRule("superscript and subscript", {
  filter: ["sup", "sub"],
  replacement: (content, node) => {
    const text = node.textContent ?? "";
    const table = node.nodeName === "SUP" ? SUPERSCRIPT : SUBSCRIPT;
    if (text !== "" && [...text].every((character) => table[character])) {
      return [...text].map((character) => table[character]).join("");
    }
    // No Unicode form: kept as text, marked as the author would type it (x^(n+k), a\_(i,j)).
    if (content.trim() === "") return content;
    return `${node.nodeName === "SUP" ? "^" : "\\_"}(${content})`;
  },
});
turndown.addRule("link", {
  filter: "a",
  replacement: (content, node) => {
    const href = (node as HTMLElement).getAttribute("href")?.trim() ?? "";
    if (content.trim() === "") return "";
    return /^(https?:|mailto:)/i.test(href) ? `[${content}](${destination(href)})` : content;
  },
});
turndown.addRule("image", {
  filter: "img",
  replacement: (_content, node) => {
    const element = node as HTMLElement;
    const src = element.getAttribute("src")?.trim() ?? "";
    // Images come from our media only (a file's embedded images are stored there); any other would be dropped
    // by the sanitiser (an image from elsewhere would tell its server who sat which quiz), so it is not kept.
    if (!isOurMedia(src)) {
      if (src !== "" && !src.startsWith("@@PLUGINFILE@@")) {
        const shown = src.startsWith("data:")
          ? "an image written into the text (a data: address)"
          : `the image ${src.slice(0, 100)}`;
        lose(`${shown} is left out: a question shows only images stored with it`);
      }
      return "";
    }
    const alt = escapeInline((element.getAttribute("alt") ?? "").replace(/\s+/g, " ").trim());
    return `![${alt}](${src})`;
  },
});
turndown.addRule("table cell", {
  filter: (node) => (node.nodeName === "TD" || node.nodeName === "TH") && !inNestedTable(node),
  replacement: (content) => ` ${content.replace(/\s*\n+\s*/g, " ").trim()} |`,
});
turndown.addRule("table row", {
  filter: (node) => node.nodeName === "TR" && !inNestedTable(node),
  replacement: (content, node) => {
    const row = node as HTMLTableRowElement;
    const table = tableOf(row);
    const first = table?.getElementsByTagName("tr")[0] === row;
    // Markdown tables have a header row: the first row is it, as it reads first.
    const cells = Array.from(row.childNodes as NodeListOf<HTMLElement>).filter(
      (cell) => cell.nodeName === "TD" || cell.nodeName === "TH",
    );
    const delimiter = first ? `\n|${cells.map((cell) => ` ${alignmentOf(cell)} |`).join("")}` : "";
    return `\n|${content}${delimiter}\n`;
  },
});
turndown.addRule("table", {
  filter: (node) => node.nodeName === "TABLE" && !inNestedTable(node),
  replacement: (content) => `\n\n${content.replace(/\n+/g, "\n").trim()}\n\n`,
});
turndown.addRule("table part", {
  filter: ["thead", "tbody", "tfoot"],
  replacement: (content) => content,
});

/** A file's text that cannot be turned into Markdown; its message says why, as a problem at its question's line. */
export class UnconvertibleText extends Error {}

/**
 * How deep an imported text's HTML may nest its elements. A question's HTML nests a few levels (a table in a list
 * in a div is under ten; Moodle's editors write flat paragraphs); but the HTML parser spends time in the square of
 * the depth (4,000 levels: 0.13 s, 100,000: minutes) and turndown recurses once a level, overflowing the stack
 * between 1,000 and 2,000 levels. 100 is ten times any real question and far from both.
 */
export const MAX_HTML_NESTING = 100;

/**
 * A start tag of svg or math, as the parser reads a tag name (ended by a space, `/` or `>`), wherever it is (in a
 * comment or an attribute too: such HTML is refused, not read more closely).
 */
const FOREIGN_START_TAG = /<(?:svg|math)(?=[\s/>]|$)/i;

/**
 * HTML (a Moodle question's, or a GIFT `[html]` text) as Markdown that shows what the HTML showed: paragraphs,
 * line breaks, emphasis, code and code blocks with their language, lists, headings, quotes, tables, links
 * (http, https and mailto) and our own images. Script, styles and embedded documents are dropped with their
 * content; other elements leave their text. Text is escaped where Markdown would read it, so `&lt;h1&gt;` is a
 * literal `<h1>`. `inline` (an option, shown in a label): paragraphs are joined by line breaks.
 * Throws `UnconvertibleText` for inline SVG or MathML and for HTML nested deeper than `MAX_HTML_NESTING`.
 */
export function htmlAsMarkdown(html: string, inline = false, lost?: string[]): string {
  // The checks read exactly what turndown parses: a NUL dropped after them could make `<sv\0g>` an svg.
  const source = html.replace(/\r\n?/g, "\n").replaceAll(LINE_START_MARK, "");
  // Inline SVG and MathML are refused, not dropped: the sanitiser removes them with their content from question
  // text (only KaTeX's own output keeps SVG), and the parser reads foreign content by rules the depth count below
  // does not follow (a title or style inside holds tags, `<![CDATA[` is text), which let a deep tree past it.
  if (FOREIGN_START_TAG.test(source)) {
    throw new UnconvertibleText(
      "The text's HTML has inline SVG or MathML (an <svg> or <math> element), which a question cannot show; " +
        "write formulas as $…$ (TeX) and give pictures as image files",
    );
  }
  if (nestsDeeperThan(source, MAX_HTML_NESTING)) {
    throw new UnconvertibleText(`The text nests its HTML more than ${MAX_HTML_NESTING} deep; a question's never does`);
  }
  let converted: string;
  try {
    losses = lost;
    converted = turndown.turndown(source);
  } catch (error) {
    // Turndown recurses through the tree; HTML the count above misjudged must still be a problem, not a crash.
    if (error instanceof RangeError) throw new UnconvertibleText("The text's HTML is too deeply nested to convert");
    throw error;
  } finally {
    losses = undefined;
  }
  const markdown = converted.replace(MARK_AT_LINE_START, "$1\\").replaceAll(LINE_START_MARK, "");
  return inline ? markdown.replace(/\n[ \t]*(?:\n[ \t]*)+/g, "\n") : markdown;
}

/** Moodle's auto-format: text with HTML allowed, where a line break is a line break. */
export function moodleAutoAsMarkdown(text: string, inline = false, lost?: string[]): string {
  const withBreaks = text.replace(/\r\n?/g, "\n").trim().replace(/\n/g, "<br>\n");
  return htmlAsMarkdown(withBreaks, inline, lost);
}

/** A text of a question file, in the format it says it is in, as our Markdown; throws `UnconvertibleText`. */
export function asMarkdown(text: string, format: SourceFormat, inline = false, lost?: string[]): string {
  switch (format) {
    case "markdown":
      return text;
    case "html":
      return htmlAsMarkdown(text, inline, lost);
    case "moodle":
      return moodleAutoAsMarkdown(text, inline, lost);
    case "plain":
      return plainAsMarkdown(text, inline);
  }
}
