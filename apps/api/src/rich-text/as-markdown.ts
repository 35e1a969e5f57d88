// Text that a question file gives in another format (plain text, HTML, Moodle's auto-format) as the Markdown we
// store, so that it shows as it did where it came from (docs/decisions/021, "Imported text").
// Plain text is backslash-escaped wherever Markdown would read it as syntax. HTML is converted to Markdown by
// turndown: what has a Markdown form keeps it, what can run or style is dropped, and the text between the tags
// is escaped like plain text, so nothing stored is markup (the renderer shows any HTML in a text literally).
import { MEDIA_FILE_PATTERN, MEDIA_PATH_PREFIX } from "@trainwise/contract/media";
import TurndownService from "turndown";

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
 * Plain text as Markdown that shows it literally. Each line loses its leading spaces (four would make it a code
 * block, and HTML shows no leading spaces anyway); a line's first character and an ordered list's `.` or `)`
 * are escaped where they would start a block. `inline` (an option, shown in a label) needs no block escapes.
 */
export function plainAsMarkdown(text: string, inline = false): string {
  return text
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

/** A piece of an HTML text (a text node) escaped where Markdown would read it. */
function escapeTextNode(text: string): string {
  const [, space = "", rest = ""] = /^(\s*)([\s\S]*)$/.exec(text) ?? [];
  const escaped = escapeInline(rest);
  const number = TEXT_ORDERED_LIST.exec(escaped);
  if (number) return `${space}${number[0]}${LINE_START_MARK}${escaped.slice(number[0].length)}`;
  return space + (TEXT_LINE_START.test(escaped) ? LINE_START_MARK : "") + escaped;
}

/** Elements whose content is code, styling, a form's or another document's: dropped with their content. */
const DROPPED: TurndownService.TagName[] = [
  "script",
  "style",
  "template",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "svg",
  "math",
  "canvas",
  "audio",
  "video",
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
    // by the sanitiser, so it is not kept.
    if (!isOurMedia(src)) return "";
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

/** Elements that never hold content, so nest nothing. */
const VOID_ELEMENTS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);
/** Elements whose content is text up to their end tag, never tags. */
const RAW_TEXT_ELEMENTS = new Set([
  "script",
  "style",
  "textarea",
  "title",
  "xmp",
  "iframe",
  "noembed",
  "noframes",
  "noscript",
]);
/**
 * HTML's formatting elements: an end tag of another element that closes one leaves it to be opened again at the
 * next text, and one's own end tag across a block copies it into the block, so they can nest deeper than their tags.
 */
const FORMATTING_ELEMENTS = new Set([
  "a",
  "b",
  "big",
  "code",
  "em",
  "font",
  "i",
  "nobr",
  "s",
  "small",
  "strike",
  "strong",
  "tt",
  "u",
]);
/** The elements that start foreign content, where the HTML parser reads tags by SVG's and MathML's rules. */
const FOREIGN_ELEMENTS = new Set(["svg", "math"]);
/**
 * A start tag of svg or math, as the parser reads a tag name (ended by a space, `/` or `>`), wherever it is (in a
 * comment or an attribute too: such HTML is refused, not read more closely).
 */
const FOREIGN_START_TAG = /<(?:svg|math)(?=[\s/>]|$)/i;
/** Start tags that close an open p first (the parser's "close a p element"; a table does not in quirks mode). */
const CLOSES_P = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "center",
  "dd",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "li",
  "listing",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "plaintext",
  "pre",
  "search",
  "section",
  "summary",
  "ul",
  "xmp",
]);
/**
 * HTML's "special" elements. An end tag of any other element (`</span>`, `</font>`) closes its element only when no
 * special one is open inside it, else the parser ignores it: `<span><div></span>` repeated nests ever deeper.
 */
const SPECIAL_ELEMENTS = new Set(
  (
    "address applet area article aside base basefont bgsound blockquote body br button caption center col colgroup " +
    "dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head " +
    "header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav noembed noframes " +
    "noscript object ol p param plaintext pre script search section select source style summary table tbody td " +
    "template textarea tfoot th thead title tr track ul wbr xmp"
  ).split(" "),
);
/**
 * The parser's default scope: an end tag of a special element is ignored when one of these is open inside its
 * element (`<div><table></div>` leaves the div open).
 */
const DEFAULT_SCOPE = new Set(["applet", "caption", "html", "marquee", "object", "table", "td", "template", "th"]);
/** A table's own end tags close through its cells: the parser's "table scope". */
const TABLE_PARTS = new Set(["caption", "table", "tbody", "td", "tfoot", "th", "thead", "tr"]);
const TABLE_SCOPE = new Set(["html", "table", "template"]);
const LIST_ITEM_SCOPE = new Set([...DEFAULT_SCOPE, "ol", "ul"]);

/** The elements open inside its own across which an end tag closes nothing (the parser ignores it). */
function endTagStops(name: string): Set<string> {
  if (!SPECIAL_ELEMENTS.has(name)) return SPECIAL_ELEMENTS;
  if (TABLE_PARTS.has(name)) return TABLE_SCOPE;
  if (name === "li") return LIST_ITEM_SCOPE;
  if (name === "p") return BUTTON_SCOPE;
  return DEFAULT_SCOPE;
}

/** The elements an open p must be found before to be closed: the parser's "button scope". */
const BUTTON_SCOPE = new Set([
  "applet",
  "button",
  "caption",
  "html",
  "marquee",
  "object",
  "table",
  "td",
  "template",
  "th",
]);
/**
 * The elements an open li, dt or dd is found through when another starts (the parser stops at any other "special"
 * element, so at a ul or ol: an item closes only an item of its own list). Phrasing elements are listed, not all
 * non-special ones: one not listed stops the search, which leaves the item open and errs on the deep side.
 */
const ITEM_SEARCH_PASSES = new Set([
  ...FORMATTING_ELEMENTS,
  "abbr",
  "address",
  "bdi",
  "bdo",
  "cite",
  "data",
  "dfn",
  "div",
  "ins",
  "del",
  "kbd",
  "label",
  "mark",
  "p",
  "q",
  "samp",
  "span",
  "sub",
  "sup",
  "time",
  "var",
]);
/** Where a cell's, row's or section's search for an open one of its kind stops: the current row, section, table. */
const CELL_SEARCH_STOPS = new Set(["caption", "html", "table", "tbody", "template", "tfoot", "thead", "tr"]);
const ROW_SEARCH_STOPS = new Set(["caption", "html", "table", "tbody", "template", "tfoot", "thead"]);
const SECTION_SEARCH_STOPS = new Set(["caption", "html", "table", "template"]);
const ASCII_LETTER = /[A-Za-z]/;
const TAG_NAME = /[^\s/>]*/y;
const SPACE = /\s/;

/** Where the tag whose name ends at `at` ends (just past its `>`), its attribute values read as HTML reads them; -1 if the text ends first. */
function tagEnd(html: string, at: number): number {
  let position = at;
  while (position < html.length) {
    const character = html[position] ?? "";
    if (character === ">") return position + 1;
    if (SPACE.test(character) || character === "/") {
      position++;
      continue;
    }
    // An attribute's name (its first character may be anything, `=` too), then perhaps `=` and a value.
    position++;
    while (position < html.length && !/[\s/>=]/.test(html[position] ?? "")) position++;
    while (SPACE.test(html[position] ?? "")) position++;
    if (html[position] !== "=") continue;
    position++;
    while (SPACE.test(html[position] ?? "")) position++;
    const quote = html[position];
    if (quote === '"' || quote === "'") {
      const close = html.indexOf(quote, position + 1);
      if (close === -1) return -1;
      position = close + 1;
    } else {
      while (position < html.length && !SPACE.test(html[position] ?? "") && html[position] !== ">") position++;
    }
  }
  return -1;
}

/** Where a comment whose `<!--` ends at `at` ends, as HTML reads it (`<!-->` is a whole comment); -1 if never. */
function commentEnd(html: string, at: number): number {
  if (html.startsWith(">", at)) return at + 1;
  if (html.startsWith("->", at)) return at + 2;
  const ends = [html.indexOf("-->", at), html.indexOf("--!>", at)].filter((end) => end !== -1);
  if (ends.length === 0) return -1;
  const end = Math.min(...ends);
  return end + (html.startsWith("-->", end) ? 3 : 4);
}

/**
 * Whether HTML nests its elements deeper than `limit`, read without building the tree (building it is what costs).
 * The count errs on the deep side: every start tag counts, an end tag closes only what it surely closes (a
 * formatting element's only when it is the innermost; a formatting element another end tag closes stays counted,
 * as the parser may open it again), a start tag closes only the end tags HTML surely implies (an open li at the
 * next li of its list, dt or dd at the next, an option at the next, an open p at a block, a cell, row or table
 * section at the next of its kind; formatting a closed p or item held stays counted too), and where the reading could differ from the parser's (a script with a
 * comment in it), no end tag closes anything after. What the parser adds on its own (a table's body and row
 * around a bare cell) makes the real depth at most about twice the count. Foreign content (svg, math), read by
 * other rules, counts as deeper than any limit; `htmlAsMarkdown` refuses it first, with its own message.
 */
export function nestsDeeperThan(html: string, limit: number): boolean {
  const open: string[] = [];
  let closedFormatting = 0;
  let endTagsTrusted = true;
  const deeper = () => open.length + closedFormatting > limit;
  const nextTag = (from: number) => (from === -1 ? -1 : html.indexOf("<", from));
  /**
   * Closes the innermost open element named in `targets` found before an element `passes` refuses, with all inside
   * it, as the parser does for an end tag a start tag implies. Formatting elements closed so may be opened again
   * at the next text and stay counted, unless `formattingCleared` (a table cell's formatting ends with it).
   */
  const closeImplied = (targets: readonly string[], passes: (name: string) => boolean, formattingCleared = false) => {
    for (let index = open.length - 1; index >= 0; index--) {
      const name = open[index] ?? "";
      if (targets.includes(name)) {
        if (!formattingCleared) {
          closedFormatting += open.slice(index + 1).filter((inner) => FORMATTING_ELEMENTS.has(inner)).length;
        }
        open.length = index;
        return;
      }
      if (!passes(name)) return;
    }
  };
  for (let at = nextTag(0); at !== -1; at = nextTag(at)) {
    const next = html[at + 1] ?? "";
    const closing = next === "/";
    if (html.startsWith("<!--", at)) {
      at = commentEnd(html, at + 4);
    } else if (ASCII_LETTER.test(closing ? (html[at + 2] ?? "") : next)) {
      TAG_NAME.lastIndex = at + (closing ? 2 : 1);
      const name = (TAG_NAME.exec(html)?.[0] ?? "").toLowerCase();
      at = tagEnd(html, TAG_NAME.lastIndex);
      if (closing) {
        if (!endTagsTrusted) continue;
        if (FORMATTING_ELEMENTS.has(name)) {
          if (open.at(-1) === name) open.pop();
          continue;
        }
        const match = open.lastIndexOf(name);
        if (match === -1) continue;
        const inside = open.slice(match + 1);
        const stops = endTagStops(name);
        if (inside.some((inner) => stops.has(inner))) continue;
        closedFormatting += inside.filter((inner) => FORMATTING_ELEMENTS.has(inner)).length;
        open.length = match;
        continue;
      }
      if (VOID_ELEMENTS.has(name)) continue;
      // Inside svg and math the parser reads by other rules (a title or style there holds tags, `<![CDATA[` is
      // text, some HTML tags break out): not followed here, so the reading is not sure, and counts as too deep.
      if (FOREIGN_ELEMENTS.has(name)) return true;
      // The end tags HTML lets an author leave out, which a start tag implies: a list item, a definition's term or
      // description, an option, a table cell, row or section closes the open one of its kind, a block closes an
      // open paragraph (`<li>a<li>b` and `<p>a<p>b` are flat).
      if (name === "li") closeImplied(["li"], (inner) => ITEM_SEARCH_PASSES.has(inner));
      if (name === "dt" || name === "dd") closeImplied(["dt", "dd"], (inner) => ITEM_SEARCH_PASSES.has(inner));
      if (CLOSES_P.has(name)) closeImplied(["p"], (inner) => !BUTTON_SCOPE.has(inner));
      if ((name === "option" || name === "optgroup") && open.at(-1) === "option") open.pop();
      if (name === "optgroup" && open.at(-1) === "optgroup") open.pop();
      if (name === "td" || name === "th") closeImplied(["td", "th"], (inner) => !CELL_SEARCH_STOPS.has(inner), true);
      if (name === "tr") closeImplied(["tr"], (inner) => !ROW_SEARCH_STOPS.has(inner), true);
      if (name === "tbody" || name === "thead" || name === "tfoot") {
        closeImplied(["tbody", "thead", "tfoot"], (inner) => !SECTION_SEARCH_STOPS.has(inner), true);
      }
      open.push(name);
      if (deeper()) return true;
      // Everything after `<plaintext>` is its text.
      if (name === "plaintext") return false;
      if (RAW_TEXT_ELEMENTS.has(name) && at !== -1) {
        const end = new RegExp(`</${name}[\\s/>]`, "ig");
        end.lastIndex = at;
        const found = end.exec(html);
        // A comment in a script can hide its first end tag from the parser; the reading is not sure after it.
        if (name === "script" && html.slice(at, found?.index ?? html.length).includes("<!--")) endTagsTrusted = false;
        at = found ? found.index : -1;
      }
    } else if (next === "!" || next === "?" || closing) {
      // Not a tag: a DOCTYPE, a processing instruction, `</>` or `</3`, which HTML reads as a comment up to `>`.
      const end = html.indexOf(">", at);
      at = end === -1 ? -1 : end + 1;
    } else {
      at++;
    }
  }
  return deeper();
}

/**
 * HTML (a Moodle question's, or a GIFT `[html]` text) as Markdown that shows what the HTML showed: paragraphs,
 * line breaks, emphasis, code and code blocks with their language, lists, headings, quotes, tables, links
 * (http, https and mailto) and our own images. Script, styles and embedded documents are dropped with their
 * content; other elements leave their text. Text is escaped where Markdown would read it, so `&lt;h1&gt;` is a
 * literal `<h1>`. `inline` (an option, shown in a label): paragraphs are joined by line breaks.
 * Throws `UnconvertibleText` for inline SVG or MathML and for HTML nested deeper than `MAX_HTML_NESTING`.
 */
export function htmlAsMarkdown(html: string, inline = false): string {
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
    converted = turndown.turndown(source);
  } catch (error) {
    // Turndown recurses through the tree; HTML the count above misjudged must still be a problem, not a crash.
    if (error instanceof RangeError) throw new UnconvertibleText("The text's HTML is too deeply nested to convert");
    throw error;
  }
  const markdown = converted.replace(MARK_AT_LINE_START, "$1\\").replaceAll(LINE_START_MARK, "");
  return inline ? markdown.replace(/\n[ \t]*(?:\n[ \t]*)+/g, "\n") : markdown;
}

/** Moodle's auto-format: text with HTML allowed, where a line break is a line break. */
export function moodleAutoAsMarkdown(text: string, inline = false): string {
  const withBreaks = text.replace(/\r\n?/g, "\n").trim().replace(/\n/g, "<br>\n");
  return htmlAsMarkdown(withBreaks, inline);
}

/** A text of a question file, in the format it says it is in, as our Markdown; throws `UnconvertibleText`. */
export function asMarkdown(text: string, format: SourceFormat, inline = false): string {
  switch (format) {
    case "markdown":
      return text;
    case "html":
      return htmlAsMarkdown(text, inline);
    case "moodle":
      return moodleAutoAsMarkdown(text, inline);
    case "plain":
      return plainAsMarkdown(text, inline);
  }
}
