// Question and option text (Markdown) to the sanitised HTML students and admins are shown (docs/decisions/021):
// markdown-it, fenced code highlighted by highlight.js, math by KaTeX, then sanitize-html with an allow-list.
// Rendering costs CPU and the quiz serves the same questions to thousands of students, so each text is rendered
// once per instance and kept in a bounded cache.
import { randomBytes } from "node:crypto";
import { MEDIA_FILE_PATTERN, MEDIA_PATH_PREFIX } from "@trainwise/contract/media";
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import plaintext from "highlight.js/lib/languages/plaintext";
import python from "highlight.js/lib/languages/python";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import katex from "katex";
import { LRUCache } from "lru-cache";
import MarkdownIt, { type Env } from "markdown-it";
import sanitizeHtml from "sanitize-html";
import { mathPlugin } from "./math.ts";

for (const [name, language] of Object.entries({ bash, c, cpp, java, javascript, plaintext, python, sql, typescript })) {
  hljs.registerLanguage(name, language);
}

/** The languages a fenced code block is highlighted in (their usual aliases too: js, ts, py, sh, c++, …). */
export const HIGHLIGHTED_LANGUAGES = hljs.listLanguages();

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A fenced code block: highlighted on the server, so the page needs no highlighter, only its stylesheet. */
function highlightFence(code: string, info: string): string {
  const language = info.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  const known = language && hljs.getLanguage(language) ? language : "";
  const body = known ? hljs.highlight(code, { language: known, ignoreIllegals: true }).value : escapeHtml(code);
  const className = known ? `hljs language-${known}` : "hljs";
  return `<pre><code class="${className}">${body}</code></pre>\n`;
}

/**
 * HTML typed in a text is text: `<h1>` in an option about web pages, "is <br> or <lb> a line break?" or
 * "x<y and y>z" read exactly as typed (markdown-it escapes it). A file's HTML becomes Markdown when it is imported
 * (`as-markdown.ts`), so nothing stored is ever rendered as markup. `breaks` keeps a plain question's line
 * breaks where its author put them; bare URLs stay text.
 */
const markdown = new MarkdownIt({
  html: false,
  breaks: true,
  linkify: false,
  typographer: false,
  highlight: highlightFence,
});

/**
 * Attributes and classes highlight.js and markdown-it produce; everything else goes. markdown-it writes no HTML of
 * the author's, so this is a second line of defence.
 */
const TEXT_ALLOW_LIST: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "br",
    "hr",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "del",
    "sub",
    "sup",
    "mark",
    "small",
    "kbd",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "a",
    "img",
    "span",
  ],
  allowedAttributes: {
    a: ["href", "title", "rel", "target"],
    img: ["src", "alt", "title", "loading"],
    ol: ["start"],
    code: ["class"],
    span: ["class"],
    th: ["style"],
    td: ["style"],
  },
  allowedClasses: { code: ["hljs", "language-*"], span: ["hljs-*"] },
  // markdown-it aligns table columns with an inline style; nothing else may be styled.
  allowedStyles: { th: { "text-align": [/^(left|right|center)$/] }, td: { "text-align": [/^(left|right|center)$/] } },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  // A tag we do not allow is dropped with its content where the content is code or styling, kept as text otherwise.
  disallowedTagsMode: "discard",
  nonTextTags: [
    "script",
    "style",
    "textarea",
    "option",
    "noscript",
    "title",
    "iframe",
    "object",
    "embed",
    "svg",
    "math",
    "template",
    "xmp",
    "noembed",
    "noframes",
  ],
  transformTags: {
    a: (tagName, attribs) => {
      const kept: Record<string, string> = {};
      if (attribs.title !== undefined) kept.title = attribs.title;
      const href = attribs.href?.trim();
      if (href && /^(https?:|mailto:)/i.test(href)) {
        Object.assign(kept, { href, rel: "noopener noreferrer nofollow", target: "_blank" });
      }
      return { tagName, attribs: kept };
    },
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: "lazy" } }),
  },
  // Images come from our own media only: anything else would let a question track the students who see it.
  exclusiveFilter: (frame) => frame.tag === "img" && !isOurMedia(frame.attribs.src),
};

function isOurMedia(src: string | undefined): boolean {
  return (
    typeof src === "string" &&
    src.startsWith(MEDIA_PATH_PREFIX) &&
    MEDIA_FILE_PATTERN.test(src.slice(MEDIA_PATH_PREFIX.length))
  );
}

/** Styles KaTeX's HTML output sets: sizes and offsets in em, and a colour for \color and error messages. */
const LENGTH = /^-?(\d+(\.\d+)?|\.\d+)(em|ex|px|pt|%)?$/;
const COLOUR = /^(#[0-9a-f]{3,8}|[a-z]{3,20}|rgba?\([\d\s.,%]+\))$/i;
const KATEX_STYLES = Object.fromEntries(
  [
    "height",
    "width",
    "min-width",
    "max-width",
    "vertical-align",
    "top",
    "bottom",
    "left",
    "right",
    "margin-left",
    "margin-right",
    "margin-top",
    "margin-bottom",
    "padding-left",
    "padding-right",
    "border-bottom-width",
    "border-top-width",
    "border-right-width",
    "border-left-width",
  ]
    .map((property): [string, RegExp[]] => [property, [LENGTH]])
    .concat([
      ["color", [COLOUR]],
      ["border-color", [COLOUR]],
      ["background-color", [COLOUR]],
      ["position", [/^relative$/]],
    ]),
);

/**
 * KaTeX's own output: spans with its classes and layout styles, and the small SVGs it draws roots, arrows and
 * wide accents with. Applied to KaTeX's output only, never to what an admin typed.
 */
const KATEX_ALLOW_LIST: sanitizeHtml.IOptions = {
  allowedTags: ["span", "svg", "path", "line"],
  allowedAttributes: {
    span: ["class", "style", "aria-hidden", "role", "aria-label"],
    svg: ["xmlns", "width", "height", "viewbox", "preserveaspectratio", "style"],
    path: ["d"],
    line: ["x1", "y1", "x2", "y2", "stroke-width"],
  },
  allowedClasses: { span: ["*"], svg: [] },
  allowedStyles: { span: KATEX_STYLES, svg: KATEX_STYLES },
  allowedSchemes: [],
  parser: { lowerCaseAttributeNames: false },
};

/**
 * TeX that defines macros. `maxExpand` counts expansions, not what they produce: a macro that uses another four
 * times, four levels deep, drew 23 MB of HTML in 2.2 s from a 1,300-character text. No question needs macros of
 * its own (KaTeX's built-in ones still work), so such a formula is shown as its TeX, as KaTeX shows an error.
 */
const MACRO_DEFINITION = /\\(?:[gex]?def|let|futurelet|global|newcommand|renewcommand|providecommand)(?![A-Za-z])/;

/** A formula KaTeX does not draw, shown as its TeX in KaTeX's error colour. */
function mathAsError(tex: string): string {
  return `<span class="katex-error" style="color:#cc0000">${escapeHtml(tex)}</span>`;
}

/**
 * TeX to HTML. Commands that could link, load or style (\href, \url, \includegraphics, \htmlClass, …) are not
 * trusted. KaTeX reports a TeX error in its output, but a formula nested hundreds deep overflows its stack: that
 * formula, not the page, shows as an error.
 */
/**
 * The KaTeX HTML one text may hold: a question's, and each option's. KaTeX itself is quick, but what it writes grows
 * with what a formula draws: 2,000 characters of empty matrix cells wrote 947 KB, and sanitising that for a question
 * and its options held the event loop 2.7 s a request (found by an outside attack). A real formula writes a few
 * kilobytes (the quadratic formula 3 KB, a 3 × 3 matrix 5 KB); past the budget a formula shows as its TeX.
 */
const MATH_HTML_BUDGET = { question: 64 * 1024, option: 16 * 1024 };

function renderMath(tex: string, displayMode: boolean, env: RenderEnv): string {
  let html: string;
  if (MACRO_DEFINITION.test(tex)) {
    html = mathAsError(tex);
  } else {
    try {
      html = katex.renderToString(tex, {
        displayMode,
        output: "html",
        throwOnError: false,
        trust: false,
        strict: "ignore",
        maxSize: 20,
        maxExpand: 500,
      });
    } catch {
      html = mathAsError(tex);
    }
    if (html.length > env.mathHtmlLeft) html = mathAsError(tex);
    else env.mathHtmlLeft -= html.length;
  }
  // KaTeX's HTML output is for the eye; a screen reader reads the TeX it came from.
  const wrapper = displayMode ? "math-display" : "math-inline";
  return `<span class="${wrapper}" role="img" aria-label="${escapeHtml(tex)}">${sanitizeHtml(html, KATEX_ALLOW_LIST)}</span>`;
}

/**
 * Math is rendered apart from the text: the text is sanitised with the strict list, each formula stands in it as a
 * placeholder nobody can type (a random token per instance), and the sanitised formulas replace the placeholders.
 */
const SLOT = `math-${randomBytes(12).toString("hex")}-`;
const SLOT_PATTERN = new RegExp(`${SLOT}(\\d+)\\.`, "g");
markdown.use(mathPlugin, {
  render: (tex: string, displayMode: boolean, env: RenderEnv) => {
    env.math.push(renderMath(tex, displayMode, env));
    return `${SLOT}${env.math.length - 1}.`;
  },
});

interface RenderEnv extends Env {
  math: string[];
  /** What is left of MATH_HTML_BUDGET for this text's formulas. */
  mathHtmlLeft: number;
}

function renderFresh(text: string, inline: boolean): string {
  const env: RenderEnv = {
    math: [],
    mathHtmlLeft: inline ? MATH_HTML_BUDGET.option : MATH_HTML_BUDGET.question,
  };
  const html = inline ? markdown.renderInline(text, env) : markdown.render(text, env);
  const clean = sanitizeHtml(html, TEXT_ALLOW_LIST).trim();
  return env.math.length === 0 ? clean : clean.replace(SLOT_PATTERN, (_slot, index) => env.math[Number(index)] ?? "");
}

/** Rendered texts by source, bounded by their size (a bank of thousands of questions fits many times over). */
const cache = new LRUCache<string, string>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (html, key) => html.length + key.length,
});

/** One text to render: a question's (block HTML) or an option's (`inline`). */
export interface RenderJob {
  text: string;
  inline: boolean;
}

const keyOf = (text: string, inline: boolean) => (inline ? "o" : "q") + text;

/** The jobs whose text is not in the cache yet (render-off-thread.ts renders those in a worker). */
export function notRendered(jobs: readonly RenderJob[]): RenderJob[] {
  return jobs.filter((job) => !cache.has(keyOf(job.text, job.inline)));
}

/** Keeps HTML rendered elsewhere (the rendering worker, from this same module) as this text's. */
export function rememberRendered(job: RenderJob, html: string): void {
  cache.set(keyOf(job.text, job.inline), html);
}

function cached(text: string, inline: boolean): string {
  const key = keyOf(text, inline);
  let html = cache.get(key);
  if (html === undefined) {
    html = renderFresh(text, inline);
    cache.set(key, html);
  }
  return html;
}

/** A question's text as block HTML (paragraphs, code blocks, display math). */
export function renderQuestionText(text: string): string {
  return cached(text, false);
}

/** An option's text as inline HTML: no paragraph around it, so it fits inside a label. */
export function renderOptionText(text: string): string {
  return cached(text, true);
}

/** Renders without the cache: for measuring what a render costs. */
export function renderUncached(text: string, inline = false): string {
  return renderFresh(text, inline);
}
