// Text that a question file gives in another format (plain text, HTML, Moodle's auto-format) as the Markdown we
// store, so that it shows as it did where it came from (docs/decisions/021, "Imported text").
// Plain text is backslash-escaped wherever Markdown would read it as syntax; HTML is kept as HTML for the
// sanitiser, shaped so that markdown-it passes it through whole instead of reading Markdown inside it.

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

/** Text with Markdown's inline syntax escaped; in HTML a character reference means what it says, so it stays. */
function escapeInline(text: string, keepReferences = false): string {
  const escaped = text.replace(INLINE_SYNTAX, (character) => `\\${character}`).replace(LOOSE_UNDERSCORE, "\\_");
  return keepReferences ? escaped : escaped.replace(CHARACTER_REFERENCE, "\\&");
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

const TAG = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>|<!--[\s\S]*?-->/;
const TAGS = new RegExp(TAG.source, "g");

/** What makes one line of HTML text a Markdown block other than a paragraph: heading, quote, list, rule, table. */
const BLOCK_SYNTAX = /^(#|>|\||[-+*]\s|\d{1,9}[.)]\s|([-*_])\s*\2\s*\2)/;

/** Elements that start an HTML block markdown-it passes through whole, up to the next blank line. */
const BLOCK_START = /^<(?:p|div|table|ul|ol|dl|h[1-6]|blockquote|hr|figure|section|article|center)(?=[\s/>])/i;

/** Line breaks inside `<pre>` as character references, so the HTML has no blank line that would end its block. */
function preWithoutLineBreaks(html: string): string {
  return html.replace(/(<pre\b[^>]*>)([\s\S]*?)(<\/pre>)/gi, (_match, open: string, body: string, close: string) => {
    return open + body.replace(/\n/g, "&#10;") + close;
  });
}

/**
 * HTML (a Moodle question's, or a GIFT `[html]` text) as Markdown that markdown-it hands to the sanitiser as it
 * is: blank lines go (outside `<pre>` they mean nothing in HTML, and one would end the HTML block and let
 * Markdown read the rest), and the whole is wrapped in a `<div>` (which the sanitiser drops, keeping its
 * content) unless it already starts with a block element. HTML with nothing Markdown would read differently is
 * kept exactly as it is. `inline` (an option): a wrapping `<p>` goes, paragraphs become `<br>`, and the text
 * between tags is escaped where Markdown would read it.
 */
export function htmlAsMarkdown(html: string, inline = false): string {
  let text = html.replace(/\r\n?/g, "\n").trim();
  const readAsMarkdown = text.includes("\n") || escapeInline(text, true) !== text || BLOCK_SYNTAX.test(text);
  if (!TAG.test(text) && !readAsMarkdown) return text;
  if (inline) {
    text = preWithoutLineBreaks(text)
      .replace(/^<p\b[^>]*>([\s\S]*)<\/p>$/i, "$1")
      .replace(/<\/p>\s*<p\b[^>]*>/gi, "<br>")
      .replace(/\s*\n\s*/g, " ");
    let out = "";
    let last = 0;
    for (const match of text.matchAll(TAGS)) {
      out += escapeInline(text.slice(last, match.index), true) + match[0];
      last = match.index + match[0].length;
    }
    return (out + escapeInline(text.slice(last), true)).trim();
  }
  text = preWithoutLineBreaks(text)
    .replace(/\n[ \t]*(?=\n)/g, "")
    .replace(/\n+/g, "\n");
  return BLOCK_START.test(text) ? text : `<div>${text}</div>`;
}

/** Moodle's auto-format: text with HTML allowed, where a line break is a line break. */
export function moodleAutoAsMarkdown(text: string, inline = false): string {
  const withBreaks = text.replace(/\r\n?/g, "\n").trim().replace(/\n/g, "<br>\n");
  return htmlAsMarkdown(withBreaks, inline);
}

/** A text of a question file, in the format it says it is in, as our Markdown. */
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
