// How deep HTML nests its elements, read from its tags without building the tree: the guard that keeps an imported
// text's HTML from costing the parser (time in the square of the depth) or turndown (one stack frame a level) too
// much (docs/decisions/021, "Imported text"). It follows HTML's tree-building rules where they decide the depth: the
// elements that hold no content or only text, the end tags an author may leave out, and the end tags the parser
// ignores. It is a reader of those rules, written by hand, so it errs on the deep side wherever it is unsure.

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
 * section at the next of its kind; formatting a closed p or item held stays counted too), and where the reading
 * could differ from the parser's (a script with a comment in it), no end tag closes anything after. What the
 * parser adds on its own (a table's body and row around a bare cell) makes the real depth at most about twice the
 * count. Foreign content (svg, math), read by other rules, counts as deeper than any limit; `htmlAsMarkdown`
 * refuses it before asking, with its own message.
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
