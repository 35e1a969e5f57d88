// Our math in the Markdown we write for Moodle, and back. Moodle renders TeX with its MathJax (or TeX) filter, which
// looks for `\(…\)` and `\[…\]` in the HTML its Markdown reader (PHP Markdown Extra) writes; it never renders our
// inline `$…$`. So each formula is written as `\\(…\\)` (inline) or `\\[…\\]` (display), with every character of its
// TeX that the Markdown reader would take as an escape or as markup escaped, so that the HTML holds the TeX exactly.
// Reading a Moodle XML Markdown text, the same delimiters are our math again: that is what Moodle shows for them.
import { displayEnd, inlineEnd, isEscaped } from "./math.ts";

/** What PHP Markdown Extra takes after a backslash as an escaped character. */
const MARKDOWN_ESCAPABLE = "\\`*_{}[]()>#+-.!:|";

/** TeX as text PHP Markdown Extra gives back exactly: escapable characters escaped, `&` and `<` as references. */
function escapeTex(tex: string): string {
  return tex.replace(/[\\`*_{}[\]()>#+\-.!:|&<]/g, (character) =>
    character === "&" ? "&amp;" : character === "<" ? "&lt;" : `\\${character}`,
  );
}

/** The end of the paragraph a formula may span: markdown-it reads math inline, so never across a blank line. */
function paragraphEnd(text: string, from: number): number {
  const blank = /\n[ \t]*\n/g;
  blank.lastIndex = from;
  return blank.exec(text)?.index ?? text.length;
}

/**
 * Our Markdown with each formula (pandoc's rule, as rendered here: `$…$`, `$$…$$`, never inside code) written in
 * the delimiters Moodle's filters render. Code spans, fenced code blocks and escaped characters are copied as they
 * are.
 */
export function mathForMoodle(markdown: string): string {
  if (!markdown.includes("$")) return markdown;
  let out = "";
  let at = 0;
  const length = markdown.length;
  while (at < length) {
    const lineStart = at === 0 || markdown[at - 1] === "\n";
    const fence = lineStart ? /^ {0,3}(`{3,}|~{3,})/.exec(markdown.slice(at, at + 200)) : null;
    if (fence?.[1]) {
      // A fenced block runs to a line with a fence at least as long, or to the end.
      const marker = fence[1];
      const closing = new RegExp(`\\n {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}[ \\t]*(?=\\n|$)`, "g");
      closing.lastIndex = at + fence[0].length;
      const found = closing.exec(markdown);
      const end = found ? found.index + found[0].length : length;
      out += markdown.slice(at, end);
      at = end;
      continue;
    }
    const character = markdown[at];
    if (character === "\\") {
      out += markdown.slice(at, at + 2);
      at += 2;
      continue;
    }
    if (character === "`") {
      const run = /^`+/.exec(markdown.slice(at))?.[0] ?? "`";
      const close = new RegExp(`(?<!\`)${run}(?!\`)`, "g");
      close.lastIndex = at + run.length;
      const found = close.exec(markdown);
      const end = found ? found.index + run.length : at + run.length;
      out += markdown.slice(at, end);
      at = end;
      continue;
    }
    if (character === "$" && !isEscaped(markdown, at)) {
      const limit = paragraphEnd(markdown, at);
      const display = markdown[at + 1] === "$";
      if (display) {
        const end = displayEnd(markdown, at + 2, limit);
        if (end > at + 2 && markdown.slice(at + 2, end).trim() !== "") {
          out += `\\\\[${escapeTex(markdown.slice(at + 2, end))}\\\\]`;
          at = end + 2;
          continue;
        }
      } else if (at + 1 < limit && !/\s/.test(markdown[at + 1] ?? "")) {
        const end = inlineEnd(markdown, at + 1, limit);
        if (end !== -1) {
          out += `\\\\(${escapeTex(markdown.slice(at + 1, end))}\\\\)`;
          at = end + 1;
          continue;
        }
      }
    }
    out += character;
    at++;
  }
  return out;
}

/** The TeX of an escaped formula read as PHP Markdown Extra reads it, from `start` to its closing delimiter. */
function readEscapedTex(text: string, start: number, close: ")" | "]"): { tex: string; end: number } | undefined {
  let tex = "";
  let at = start;
  while (at < text.length) {
    const character = text[at] as string;
    if (character === "\\") {
      const next = text[at + 1];
      if (next === undefined) return undefined;
      // `\\)` closes: an escaped backslash before an unescaped delimiter (the TeX's own are escaped).
      if (next === "\\" && text[at + 2] === close) return { tex, end: at + 3 };
      // Another opener of the same kind first: the one before was a text's own `\(` (a backslash, then a
      // parenthesis), not a formula's; the formula, if any, starts here.
      if (next === "\\" && text[at + 2] === (close === ")" ? "(" : "[")) return undefined;
      tex += MARKDOWN_ESCAPABLE.includes(next) ? next : `\\${next}`;
      at += 2;
    } else if (text.startsWith("&amp;", at)) {
      tex += "&";
      at += 5;
    } else if (text.startsWith("&lt;", at)) {
      tex += "<";
      at += 4;
    } else if (character === "\n" && /^\n[ \t]*\n/.test(text.slice(at, at + 80))) {
      return undefined;
    } else {
      tex += character;
      at++;
    }
  }
  return undefined;
}

/**
 * A Moodle XML Markdown text's formulas as ours: `\\(…\\)` inline and `\\[…\\]` display, which Moodle's Markdown
 * reader turns into the delimiters its filters render. The rest of the text is left as it is.
 */
export function mathFromMoodle(markdown: string): string {
  if (!/\\\\[([]/.test(markdown)) return markdown;
  let out = "";
  let at = 0;
  for (let open = markdown.indexOf("\\\\", at); open !== -1; open = markdown.indexOf("\\\\", at)) {
    const kind = markdown[open + 2];
    if ((kind !== "(" && kind !== "[") || isEscaped(markdown, open)) {
      out += markdown.slice(at, open + 2);
      at = open + 2;
      continue;
    }
    const read = readEscapedTex(markdown, open + 3, kind === "(" ? ")" : "]");
    if (!read || read.tex.trim() === "") {
      out += markdown.slice(at, open + 3);
      at = open + 3;
      continue;
    }
    // Inline math may not start or end with a space (pandoc's rule); display math keeps its TeX as it is.
    out += markdown.slice(at, open) + (kind === "(" ? `$${read.tex.trim()}$` : `$$${read.tex}$$`);
    at = read.end;
  }
  return out + markdown.slice(at);
}
