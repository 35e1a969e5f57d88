// Imported text as Markdown: plain text shows literally whatever it holds; HTML becomes the Markdown that shows
// what it showed, with no markup left in it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { threadCpuMs } from "../test/cpu-time.ts";
import {
  htmlAsMarkdown,
  MAX_HTML_NESTING,
  moodleAutoAsMarkdown,
  plainAsMarkdown,
  UnconvertibleText,
} from "./as-markdown.ts";
import { renderOptionText, renderQuestionText } from "./render.ts";

/** What a reader sees of rendered plain text: the text of its paragraphs, a line break as a new line. */
function shown(html: string): string {
  expect(html.replace(/<\/?p>|<br \/>/g, "")).not.toMatch(/<[a-z]/i);
  return html
    .replace(/<br \/>\n?/g, "\n")
    .replace(/<\/p>\n?<p>/g, "\n\n")
    .replace(/<\/?p>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

const PLAIN_LINE = fc.stringMatching(/^[ A-Za-z0-9!-/:-@[-`{-~]{0,30}$/).map((line) => line.trim());

describe("plain text as Markdown", () => {
  it("shows every line literally: no emphasis, code, math, lists, headings, links, entities or HTML", () => {
    fc.assert(
      fc.property(fc.array(PLAIN_LINE, { minLength: 1, maxLength: 4 }), (lines) => {
        const text = lines.filter((line) => line !== "").join("\n");
        fc.pre(text !== "");
        expect(shown(renderQuestionText(plainAsMarkdown(text)))).toBe(text);
        const option = text.replace(/\n/g, " ");
        expect(shown(renderOptionText(plainAsMarkdown(option, true)))).toBe(option);
      }),
      { numRuns: 300 },
    );
  });

  it("escapes only what Markdown would read", () => {
    expect(plainAsMarkdown("What is 15% of 200? snake_case & co.")).toBe("What is 15% of 200? snake_case & co.");
    expect(plainAsMarkdown("# 1. *a* `b` $x$ &amp;\n  2) - c")).toBe(
      "\\# 1. \\*a\\* \\`b\\` \\$x\\$ \\&amp;\n2\\) - c",
    );
  });
});

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const MEDIA = `/api/media/${"ab".repeat(32)}.png`;

describe("HTML as Markdown", () => {
  it("shows HTML's text literally, whatever Markdown or tags it looks like, and leaves no markup", () => {
    fc.assert(
      fc.property(fc.array(PLAIN_LINE, { minLength: 1, maxLength: 4 }), (lines) => {
        const kept = lines.filter((line) => line !== "");
        fc.pre(kept.length > 0);
        // Moodle renders TeX between its math delimiters, and so do we (tested below): not literal text.
        fc.pre(!/\$\$|\\[([]/.test(kept.join(" ")));
        const markdown = htmlAsMarkdown(kept.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n"));
        // A `<` not escaped by a backslash before it would be markup.
        expect(markdown).not.toMatch(/(?<!\\)(?:\\\\)*<\/?[a-z!?]/i);
        // HTML shows a run of spaces as one.
        const collapsed = kept.map((line) => line.replace(/ +/g, " "));
        expect(shown(renderQuestionText(markdown))).toBe(collapsed.join("\n\n"));
        const option = htmlAsMarkdown(`<span>${escapeHtml(kept.join(" "))}</span>`, true);
        expect(shown(renderOptionText(option))).toBe(collapsed.join(" "));
      }),
      { numRuns: 300 },
    );
  });

  it("reads TeX between Moodle's math delimiters as our math, and renders it with KaTeX", () => {
    expect(htmlAsMarkdown("<p>Solve $$x^2 = 4$$ where \\(x > 0\\), and \\[ \\frac12 \\] costs $5.</p>")).toBe(
      "Solve $$x^2 = 4$$ where $x > 0$, and $$ \\frac12 $$ costs \\$5.",
    );
    // A display formula keeps its TeX as it is, spaces too, as Moodle's filter reads it: trimmed, what a plain-text
    // Aiken line showed ("$$ **{** $$") came back as something else (a property test's find).
    expect(plainAsMarkdown("a $$ **{** $$ b", false, true)).toBe("a $$ **{** $$ b");
    expect(renderQuestionText("$$ \\frac12 $$")).toContain('class="katex-display"');
    // The TeX is read as Moodle's filter reads it: entities decoded, no Markdown escapes inside.
    expect(htmlAsMarkdown("<p>\\(a_1 &lt; b_2 * c\\)</p>")).toBe("$a_1 < b_2 * c$");
    expect(htmlAsMarkdown("\\(\\sqrt{2}\\)", true)).toBe("$\\sqrt{2}$");
    expect(moodleAutoAsMarkdown("Area: \\(\\pi r^2\\)\nnext line")).toBe("Area: $\\pi r^2$\nnext line");
    const html = renderQuestionText(htmlAsMarkdown("<p>Is \\(\\frac{1}{2}\\) a half?</p>"));
    expect(html).toContain('class="katex"');
    expect(html).not.toContain("\\frac{1}{2}\\)");
    // Code stays code: no math in it.
    expect(htmlAsMarkdown("<code>$$x$$</code>")).toBe("`$$x$$`");
  });

  it("turns a tag written as text in the HTML into an escaped, literal tag", () => {
    expect(htmlAsMarkdown("<p>Which is a heading: &lt;h1&gt; or &lt;header&gt;?</p>")).toBe(
      "Which is a heading: \\<h1\\> or \\<header\\>?",
    );
    expect(htmlAsMarkdown("&lt;br&gt;", true)).toBe("\\<br\\>");
    expect(renderOptionText(htmlAsMarkdown("&lt;br&gt;", true))).toBe("&lt;br&gt;");
    expect(htmlAsMarkdown("<p>Is *x* &amp;amp; `y` $5$ [a] # 1. x_?</p>")).toBe(
      "Is \\*x\\* \\&amp; \\`y\\` \\$5\\$ \\[a\\] # 1. x\\_?",
    );
    expect(htmlAsMarkdown("<p>1. first</p><p># hash</p><p>- dash</p><p>&gt; quote</p>")).toBe(
      "1\\. first\n\n\\# hash\n\n\\- dash\n\n\\> quote",
    );
    // Only where the text starts a line, in a list item or a quote too.
    expect(
      htmlAsMarkdown("<p>x<sup>2</sup> + 1 = <b>2</b>. - 3</p><ul><li>- a</li></ul><blockquote>2. b</blockquote>"),
    ).toBe("x² + 1 = **2**. - 3\n\n-   \\- a\n\n> 2\\. b");
  });

  it("converts paragraphs, line breaks, emphasis, code, lists, headings and quotes to Markdown", () => {
    expect(htmlAsMarkdown("<p>Which is <strong>true</strong>, <em>really</em>?</p>\n\n<p>Pick <b>one</b>.</p>")).toBe(
      "Which is **true**, *really*?\n\nPick **one**.",
    );
    expect(htmlAsMarkdown("One<br>Two<br /><br>Three")).toBe("One\nTwo\n\nThree");
    expect(htmlAsMarkdown("<p>Call <code>f(a, `b`)</code> or <kbd>Ctrl</kbd>, not <s>this</s></p>")).toBe(
      "Call ``f(a, `b`)`` or `Ctrl`, not ~~this~~",
    );
    expect(htmlAsMarkdown('<ul><li>one</li><li><i>two</i></li></ul><ol start="3"><li>three</li></ol>')).toBe(
      "-   one\n-   *two*\n\n3.  three",
    );
    expect(htmlAsMarkdown("<h3>Part A</h3><blockquote>Said</blockquote><hr>")).toBe("### Part A\n\n> Said\n\n---");
  });

  it("converts lists nested deep in linear time, still escaping a line start inside them", () => {
    // Each level adds "-   " to the innermost line; the line-start pattern once backtracked exponentially over
    // those spaces (a list 20 deep took minutes, blocking the server on a file of a few hundred bytes).
    const depth = 18;
    const started = threadCpuMs();
    const markdown = htmlAsMarkdown(`${"<ul><li>".repeat(depth)}x${"</li></ul>".repeat(depth)}`);
    const marked = htmlAsMarkdown(`${"<ul><li>".repeat(depth)}# y${"</li></ul>".repeat(depth)}`);
    expect(threadCpuMs() - started).toBeLessThan(1000);
    expect(markdown.trim().endsWith("x")).toBe(true);
    expect(marked.trim().endsWith("\\# y")).toBe(true);
    expect(renderQuestionText(marked)).not.toMatch(/<h1/);
  });

  it("refuses HTML nested deeper than a question's ever is at once, before the parser and turndown see it", () => {
    // 5,000 levels overflowed turndown's recursion; 100,000 held the server for minutes in the HTML parser first.
    for (const depth of [5_000, 100_000]) {
      const started = threadCpuMs();
      expect(() => htmlAsMarkdown("<div>\n".repeat(depth))).toThrow(
        new UnconvertibleText(`The text nests its HTML more than ${MAX_HTML_NESTING} deep; a question's never does`),
      );
      expect(threadCpuMs() - started).toBeLessThan(100);
    }
    expect(() => moodleAutoAsMarkdown("<b>x</b>\n".repeat(10) + "<span>".repeat(MAX_HTML_NESTING + 1))).toThrow(
      UnconvertibleText,
    );
    const deepest = `${"<div>".repeat(MAX_HTML_NESTING)}x${"</div>".repeat(MAX_HTML_NESTING)}`;
    expect(htmlAsMarkdown(deepest)).toBe("x");
  });

  it("refuses inline SVG and MathML at once, however deep what follows, as the depth count cannot read them", () => {
    const foreign =
      "The text's HTML has inline SVG or MathML (an <svg> or <math> element), which a question cannot show; " +
      "write formulas as $…$ (TeX) and give pictures as image files";
    // In foreign content a title or style holds tags and `<![CDATA[` is text, and a p breaks out of svg: the count
    // read them as HTML's, missed the divs after them, and 20,000 levels held the server for 7 s in the parser.
    for (const prefix of ["<svg><title>", "<svg><style>", "<math><style>", "<svg><p><![CDATA[>"]) {
      const started = threadCpuMs();
      expect(() => htmlAsMarkdown(`Deep? ${prefix}\n${"<div>\n".repeat(20_000)}`), prefix).toThrow(
        new UnconvertibleText(foreign),
      );
      expect(threadCpuMs() - started, prefix).toBeLessThan(100);
    }
    for (const html of ["<SVG/>", "<svg\tonload=x>", "<p>x</p><math>", "<sv\u0000g>", "a <svg"]) {
      expect(() => htmlAsMarkdown(html), html).toThrow(new UnconvertibleText(foreign));
    }
    // Text that only names them is text.
    expect(htmlAsMarkdown("&lt;svg&gt; and <code>&lt;math&gt;</code> <svgx>")).toBe("\\<svg\\> and `<math>`");
  });

  it("converts flat HTML written without the end tags HTML lets an author leave out", () => {
    // The depth count reads those end tags as the parser does (html-depth.test.ts); here the whole way through.
    const many = MAX_HTML_NESTING + 1;
    const row = (cells: number) => `<tr>${"<td>x".repeat(cells)}`;
    for (const html of [
      `<ul>${"<li>item".repeat(many)}</ul>`,
      `<ol>${"<li><p>item".repeat(many)}</ol>`,
      "<p>line".repeat(many),
      "<p>line<h2>heading</h2>".repeat(many),
      `<dl>${"<dt>term<dd>description".repeat(many)}</dl>`,
      `<select>${"<option>a".repeat(many)}</select>`,
      `<select>${"<optgroup><option>a<option>b".repeat(many)}</select>`,
      `<table>${row(10).repeat(10)}</table>`,
      `<table>${row(2).repeat(many)}</table>`,
      `<table><thead>${row(2)}<tbody>${row(2).repeat(many)}<tfoot>${row(2)}</table>`,
      `${"<table><thead><tr><th>h<tbody><tr><td>x</table>".repeat(many)}`,
    ]) {
      expect(() => htmlAsMarkdown(html), html.slice(0, 40)).not.toThrow();
    }
    expect(htmlAsMarkdown("<ul><li>one<li>two</ul>")).toBe("-   one\n-   two");
    expect(htmlAsMarkdown("<table><tr><th>a<th>b<tr><td>1<td>2</table>")).toBe("| a | b |\n| --- | --- |\n| 1 | 2 |");
    // What the parser really nests is still refused: a div's `/>` closes nothing.
    expect(() => htmlAsMarkdown("<div/>x".repeat(many))).toThrow(UnconvertibleText);
  });

  it("keeps a code block's lines and language as a fenced block", () => {
    const html = '<pre><code class="language-python">def f():\n\n    return "&lt;b&gt;" * 2  # ``` \n</code></pre>';
    const markdown = htmlAsMarkdown(`<p>What does this print?</p>${html}`);
    expect(markdown).toBe('What does this print?\n\n````python\ndef f():\n\n    return "<b>" * 2  # ``` \n````');
    expect(renderQuestionText(markdown)).toContain('<pre><code class="hljs language-python">');
    expect(htmlAsMarkdown("<pre>a\n\n    b</pre>")).toBe("```\na\n\n    b\n```");
  });

  it("writes subscripts and superscripts as Unicode where it has them, as text otherwise", () => {
    expect(htmlAsMarkdown("H<sub>2</sub>O and x<sup>2</sup> + x<sup>n+1</sup> and a<sub>i</sub>")).toBe(
      "H₂O and x² + xⁿ⁺¹ and a\\_(i)",
    );
  });

  it("converts a table, its first row as the header, cells escaped and aligned", () => {
    const markdown = htmlAsMarkdown(
      '<table><tr><td>Gate</td><td align="right">A|B</td></tr><tr><td><b>AND</b></td><td style="text-align: right">1</td></tr></table>',
    );
    expect(markdown).toBe("| Gate | A\\|B |\n| --- | --: |\n| **AND** | 1 |");
    expect(renderQuestionText(markdown)).toContain(
      '<td><strong>AND</strong></td>\n<td style="text-align:right">1</td>',
    );
  });

  it("keeps our media's images and http, https and mailto links; drops the rest of what could load or run", () => {
    expect(htmlAsMarkdown(`<p><img src="${MEDIA}" alt="a [dot]" onerror="alert(1)"></p>`)).toBe(
      `![a \\[dot\\]](${MEDIA})`,
    );
    expect(htmlAsMarkdown('<img src="https://evil.example/pixel.png" alt="tracker">Text')).toBe("Text");
    expect(htmlAsMarkdown('<a href="https://example.com/a (1)" onclick="x()">docs</a>')).toBe(
      "[docs](https://example.com/a%20%281%29)",
    );
    expect(htmlAsMarkdown('<a href="javascript:alert(1)">click</a> <a href="mailto:a@example.com">mail</a>')).toBe(
      "click [mail](mailto:a@example.com)",
    );
    const hostile =
      '<script>alert(1)</script><style>p { display: none }</style><p onclick="alert(1)">Hello</p>' +
      '<iframe src="https://evil.example/">frame</iframe>' +
      "<object data=x.swf>object</object><template><b>t</b></template><textarea>area</textarea>";
    expect(htmlAsMarkdown(hostile)).toBe("Hello");
  });

  it("keeps text without anything Markdown would read exactly as it is", () => {
    expect(htmlAsMarkdown("UDP guarantees delivery.")).toBe("UDP guarantees delivery.");
    expect(htmlAsMarkdown("<p>Network</p>", true)).toBe("Network");
  });

  it("makes an option inline: no paragraph around it, paragraphs as line breaks", () => {
    const option = htmlAsMarkdown("<p>2*3 &amp; <b>a_</b></p>\n<p>b</p>", true);
    expect(option).toBe("2\\*3 & **a\\_**\nb");
    expect(renderOptionText(option)).toBe("2*3 &amp; <strong>a_</strong><br />\nb");
  });

  it("reads Moodle's auto-format: its line breaks are line breaks, its HTML converted", () => {
    expect(moodleAutoAsMarkdown("Line *1*\n<b>Line</b> 2\n\n&lt;h1&gt;")).toBe("Line \\*1\\*\n**Line** 2\n\n\\<h1\\>");
  });
});
