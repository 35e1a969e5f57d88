// Math in Markdown, by pandoc's rule: `$$…$$` is display math; `$…$` is inline math only when the opening $ has
// no space after it, the closing $ no space before it and no digit right after it, so "costs $5 and $10" stays
// text. `\$` is a dollar sign. Written here rather than taken from a plugin: the markdown-it math plugins each use
// a looser rule of their own and pin an older KaTeX.
import type { MarkdownIt, StateInline } from "markdown-it";

export interface MathOptions {
  /** The HTML that stands for a formula in the output. */
  // biome-ignore lint/suspicious/noExplicitAny: markdown-it's render environment is untyped.
  render: (tex: string, displayMode: boolean, env: any) => string;
}

const DOLLAR = 0x24;
const BACKSLASH = 0x5c;

export function isEscaped(source: string, position: number): boolean {
  let backslashes = 0;
  for (let at = position - 1; at >= 0 && source.charCodeAt(at) === BACKSLASH; at--) backslashes++;
  return backslashes % 2 === 1;
}

const isSpace = (character: string | undefined) => character !== undefined && /\s/.test(character);
const isDigit = (character: string | undefined) => character !== undefined && character >= "0" && character <= "9";

/** Where the display formula opened at `start` (just past `$$`) closes, or -1. */
export function displayEnd(source: string, start: number, max: number): number {
  for (let at = source.indexOf("$$", start); at !== -1 && at + 1 < max; at = source.indexOf("$$", at + 1)) {
    if (!isEscaped(source, at)) return at;
  }
  return -1;
}

/** Where the inline formula opened at `start` (just past `$`) closes by pandoc's rule, or -1. */
export function inlineEnd(source: string, start: number, max: number): number {
  for (let at = source.indexOf("$", start); at !== -1 && at < max; at = source.indexOf("$", at + 1)) {
    if (at === start || isEscaped(source, at)) continue;
    if (!isSpace(source[at - 1]) && !isDigit(source[at + 1])) return at;
  }
  return -1;
}

export function mathPlugin(md: MarkdownIt, options: MathOptions): void {
  function math(state: StateInline, silent: boolean): boolean {
    const { src, pos, posMax } = state;
    if (src.charCodeAt(pos) !== DOLLAR) return false;
    const display = src.charCodeAt(pos + 1) === DOLLAR;
    const start = pos + (display ? 2 : 1);
    let end: number;
    if (display) {
      end = displayEnd(src, start, posMax);
      if (end <= start || src.slice(start, end).trim() === "") return false;
    } else {
      if (start >= posMax || isSpace(src[start])) return false;
      end = inlineEnd(src, start, posMax);
      if (end === -1) return false;
    }
    if (!silent) {
      const token = state.push(display ? "math_display" : "math_inline", "", 0);
      token.content = src.slice(start, end);
      token.markup = display ? "$$" : "$";
    }
    state.pos = end + (display ? 2 : 1);
    return true;
  }
  md.inline.ruler.after("escape", "math", math);
  md.renderer.rules.math_inline = (tokens, index, _options, env) =>
    options.render(tokens[index]?.content ?? "", false, env);
  md.renderer.rules.math_display = (tokens, index, _options, env) =>
    options.render(tokens[index]?.content ?? "", true, env);
}
