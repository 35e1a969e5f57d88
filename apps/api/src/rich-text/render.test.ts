// The renderer: Markdown, code, math and images come out as the allow-list permits; HTML an admin types is shown
// as typed, so nothing typed can run script, load from elsewhere, style the page or add elements to it.
import { describe, expect, it } from "vitest";
import { threadCpuMs } from "../test/cpu-time.ts";
import { renderOptionText, renderQuestionText, renderUncached } from "./render.ts";

const MEDIA = `/api/media/${"0123456789abcdef".repeat(4)}.png`;

/**
 * No element, attribute or URL that can run script, fetch from elsewhere or cover the page survives. The sanitiser
 * writes every attribute as name="value" with quotes escaped, so the tags can be read with a pattern; what is text
 * (a "javascript:" the author typed, shown as typed) is inert.
 */
function expectInert(html: string) {
  // Escaped text (`&lt;script&gt;`) is fine; none of these may be markup.
  expect(html).not.toMatch(/<(script|svg|iframe)\b/i);
  expect(html).not.toMatch(/<[^>]*href="\s*javascript:/i);
  // An attribute's value is quoted with its quotes escaped: with the values emptied, no tag has a handler.
  expect(html.replace(/"[^"]*"/g, '""')).not.toMatch(/<[^>]*\son[a-z]+=/i);
  for (const [image = ""] of html.matchAll(/<img\b[^>]*>/gi)) {
    expect(image).toMatch(/^<img src="\/api\/media\/[0-9a-f]{64}\.(png|jpg|webp|gif)"/);
  }
  for (const [, name = "", attributes = ""] of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g)) {
    expect(name.toLowerCase()).not.toMatch(/^(script|style|iframe|object|embed|svg|math|form|input|link|meta|base)$/);
    for (const [, attribute = "", value = ""] of attributes.matchAll(/\s([^\s=/>]+)(?:="([^"]*)")?/g)) {
      expect(attribute.toLowerCase()).not.toMatch(/^on/);
      if (attribute === "href") expect(value).toMatch(/^(https?:|mailto:)/);
      if (attribute === "src") expect(value).toMatch(/^\/api\/media\/[0-9a-f]{64}\.(png|jpg|webp|gif)$/);
      if (attribute === "style") expect(value).not.toMatch(/url\(|expression|fixed|absolute/i);
      if (attribute === "class") expect(value).not.toContain("admin-only");
    }
  }
}

describe("plain text", () => {
  it("reads the same as before: a question in a paragraph, an option as it is, special characters escaped", () => {
    expect(renderQuestionText("What is 2 < 3?")).toBe("<p>What is 2 &lt; 3?</p>");
    expect(renderQuestionText('Tom & Jerry say "hi"')).toBe('<p>Tom &amp; Jerry say "hi"</p>');
    expect(renderOptionText("2 < 3")).toBe("2 &lt; 3");
    expect(renderOptionText("x > 5")).toBe("x &gt; 5");
  });

  it("keeps a comparison that looks like a tag as the author's text", () => {
    expect(renderQuestionText("Is x<y and y>z?")).toBe("<p>Is x&lt;y and y&gt;z?</p>");
  });

  it("keeps the author's line breaks", () => {
    expect(renderQuestionText("First line\nSecond line")).toBe("<p>First line<br />\nSecond line</p>");
    expect(renderOptionText("First <br> line\nSecond")).toBe("First &lt;br&gt; line<br />\nSecond");
  });
});

describe("HTML typed in a text", () => {
  // A bank about web development asks about tags: they must read as typed, never become (empty) elements.
  const literal: [string, string][] = [
    ["<h1>", "&lt;h1&gt;"],
    ["<h2>", "&lt;h2&gt;"],
    ["<header>", "&lt;header&gt;"],
    ["<head>", "&lt;head&gt;"],
    ["<br>", "&lt;br&gt;"],
    ["x<y and y>z", "x&lt;y and y&gt;z"],
    ["a <b>bold</b> claim", "a &lt;b&gt;bold&lt;/b&gt; claim"],
    ["Which tag makes a line break: <br> or <lb>?", "Which tag makes a line break: &lt;br&gt; or &lt;lb&gt;?"],
    ["<!-- a comment --> and <?php echo 1; ?>", "&lt;!-- a comment --&gt; and &lt;?php echo 1; ?&gt;"],
  ];

  it.each(literal)("shows %s literally, as a question and as an option", (text, shown) => {
    expect(renderQuestionText(text)).toBe(`<p>${shown}</p>`);
    expect(renderOptionText(text)).toBe(shown);
  });

  it("shows an HTML block literally, with the Markdown around it rendered", () => {
    expect(renderQuestionText("<div>\n*not* HTML\n</div>\n\n**Which** is it?")).toBe(
      "<p>&lt;div&gt;<br />\n<em>not</em> HTML<br />\n&lt;/div&gt;</p>\n<p><strong>Which</strong> is it?</p>",
    );
    expect(renderQuestionText("<h1>Title</h1>")).toBe("<p>&lt;h1&gt;Title&lt;/h1&gt;</p>");
  });
});

describe("Markdown", () => {
  it("renders emphasis, lists and inline code; an option has no paragraph around it", () => {
    expect(renderQuestionText("Which is **true**?\n\n- *one*\n- `two`")).toBe(
      "<p>Which is <strong>true</strong>?</p>\n<ul>\n<li><em>one</em></li>\n<li><code>two</code></li>\n</ul>",
    );
    expect(renderOptionText("**bold** and `a < b`")).toBe("<strong>bold</strong> and <code>a &lt; b</code>");
  });

  it("highlights a fenced code block on the server", () => {
    const html = renderQuestionText("What does this print?\n\n```python\nprint('<b>' * 2)\n```");
    expect(html).toContain('<pre><code class="hljs language-python"><span class="hljs-built_in">print</span>(');
    expect(html).toContain(`<span class="hljs-string">'&lt;b&gt;'</span>`);
    for (const language of ["c", "cpp", "java", "javascript", "typescript", "sql", "bash"]) {
      expect(renderQuestionText(`\`\`\`${language}\nint x = 1;\n\`\`\``)).toContain(
        `class="hljs language-${language}"`,
      );
    }
    expect(renderQuestionText("```\nplain <code>\n```")).toBe(
      '<pre><code class="hljs">plain &lt;code&gt;\n</code></pre>',
    );
  });

  it("opens http, https and mailto links in a new tab without passing on the page", () => {
    expect(renderQuestionText("[docs](https://example.com/a?b=1)")).toBe(
      '<p><a href="https://example.com/a?b=1" rel="noopener noreferrer nofollow" target="_blank">docs</a></p>',
    );
    expect(renderOptionText("[mail](mailto:a@example.com)")).toBe(
      '<a href="mailto:a@example.com" rel="noopener noreferrer nofollow" target="_blank">mail</a>',
    );
  });

  it("shows images from our media only, loaded lazily", () => {
    expect(renderQuestionText(`![A graph](${MEDIA})`)).toBe(
      `<p><img src="${MEDIA}" alt="A graph" loading="lazy" /></p>`,
    );
    // An image typed as HTML is text, even one of ours.
    expect(renderQuestionText(`<img src="${MEDIA}" onerror="alert(1)">`)).toBe(
      `<p>&lt;img src="${MEDIA}" onerror="alert(1)"&gt;</p>`,
    );
  });
});

describe("math", () => {
  it("renders $…$ inline and $$…$$ as display math with KaTeX, the TeX kept for screen readers", () => {
    const inline = renderQuestionText("Solve $x^2 = 4$.");
    expect(inline).toMatch(/^<p>Solve <span class="math-inline" role="img" aria-label="x\^2 = 4"><span class="katex">/);
    expect(inline).toContain('<span class="mord mathnormal">x</span>');
    const display = renderQuestionText("$$\\sqrt{2}$$");
    expect(display).toContain(
      '<span class="math-display" role="img" aria-label="\\sqrt{2}"><span class="katex-display">',
    );
    // KaTeX draws the root sign as an SVG path of its own.
    expect(display).toMatch(
      /<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="400em" height="1.08em"><path d="M95,702/,
    );
    expect(renderOptionText("$\\frac{1}{2}$")).toContain('<span class="mfrac">');
  });

  it("reads $ as math only by pandoc's rule, so prices stay text", () => {
    expect(renderQuestionText("It costs $5 and $10.")).toBe("<p>It costs $5 and $10.</p>");
    expect(renderQuestionText("Not math: $ x$ nor $x $ nor $x$5")).toBe("<p>Not math: $ x$ nor $x $ nor $x$5</p>");
    expect(renderQuestionText("Escaped: \\$x$")).toBe("<p>Escaped: $x$</p>");
    expect(renderQuestionText("Code: `$x$`")).toBe("<p>Code: <code>$x$</code></p>");
    expect(renderQuestionText("A sum of $5 is $a+b$")).toContain('aria-label="5 is $a+b"');
  });

  it("shows a formula that defines macros as its TeX: one used in another multiplies what KaTeX draws", () => {
    // 1,300 characters that drew 23 MB of HTML in 2.2 s: \d uses \c four times, \c \b four times, \b \a four times.
    const bomb =
      `$\\def\\a{${"\\sqrt{x}".repeat(150)}}\\def\\b{\\a\\a\\a\\a}` +
      "\\def\\c{\\b\\b\\b\\b}\\def\\d{\\c\\c\\c\\c}\\d\\d$";
    const started = threadCpuMs();
    const html = renderUncached(bomb);
    expect(threadCpuMs() - started).toBeLessThan(200);
    expect(html.length).toBeLessThan(10_000);
    expect(html).toContain('<span class="katex-error" style="color:#cc0000">\\def\\a{\\sqrt{x}');
    for (const definition of ["\\newcommand{\\x}{y}\\x", "\\gdef\\x{y}", "\\let\\x=y", "\\global\\def\\x{y}"]) {
      expect(renderOptionText(`$${definition}$`), definition).toContain("katex-error");
    }
    // KaTeX's own macros are not definitions.
    expect(renderOptionText("$a \\neq b \\ldots \\defeq$")).not.toContain("katex-error");
  });

  it("draws at most 64 KB of formulas in a question and 16 KB in an option, and shows one past that as its TeX", () => {
    // 2,000 characters of empty matrix cells: KaTeX wrote 947 KB for them, and sanitising that for a question and
    // its ten options held the server 2.7 s a request.
    const cells = `$$\\begin{matrix}${"&".repeat(1_970)}\\end{matrix}$$`;
    const html = renderUncached(cells);
    expect(html).toContain('<span class="katex-error" style="color:#cc0000">\\begin{matrix}&amp;&amp;');
    expect(html.length).toBeLessThan(20_000);
    // A real matrix, and a text of many ordinary formulas, still draw.
    expect(renderUncached("$$\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}$$")).not.toContain("katex-error");
    expect(renderUncached("$x^2$, ".repeat(40))).not.toContain("katex-error");
    expect(renderOptionText("$\\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}$")).not.toContain("katex-error");
    expect(renderOptionText(`$$\\begin{matrix}${"&".repeat(300)}\\end{matrix}$$`)).toContain("katex-error");
  });

  it("shows a formula KaTeX cannot draw (nested past its stack) as an error, not a failed request", () => {
    const tower = `$${"x^{".repeat(3_000)}x${"}".repeat(3_000)}$`;
    expect(renderUncached(tower)).toContain('<span class="katex-error" style="color:#cc0000">x^{x^{');
  });
});

describe("hostile text comes out inert", () => {
  const cases: [string, string][] = [
    ["a script element", "<script>alert(1)</script>Hello"],
    ["an inline script", "Hello <script>alert(1)</script> there"],
    ["an event handler on an image", "<img src=x onerror=alert(1)>"],
    ["an event handler on our own image", `<img src="${MEDIA}" onload="alert(1)">`],
    ["a javascript: Markdown link", "[x](javascript:alert(1))"],
    ["a javascript: HTML link in mixed case", '<a href="JaVaScRiPt:alert(1)">click</a>'],
    ["a javascript: link with an entity", '<a href="java&#x09;script:alert(1)">click</a>'],
    ["an SVG with onload", "<svg onload=alert(1)><circle r=5 /></svg>"],
    ["an inline SVG", "Look: <svg><script>alert(1)</script></svg>"],
    ["an iframe", '<iframe src="https://evil.example/"></iframe>'],
    ["a style element", "<style>body { display: none }</style>Text"],
    ["a style attribute", '<p style="position:fixed;top:0">Overlay</p>'],
    ["a data: link", "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)"],
    ["a data: image", "![x](data:image/png;base64,iVBORw0KGgo=)"],
    ["an external image", "![tracker](https://evil.example/pixel.png)"],
    ["a protocol-relative image", '<img src="//evil.example/pixel.png">'],
    ["an image outside our media path", "![x](/api/media/../admins.png)"],
    ["an SVG from our media path", `![x](/api/media/${"a".repeat(64)}.svg)`],
    ["an object", '<object data="x.swf"></object><embed src="x.swf">'],
    ["a form", '<form action="https://evil.example"><input name=p></form>'],
    ["MathML", "<math><mtext><mglyph><style><img src=x onerror=alert(1)></style></mglyph></mtext></math>"],
    ["KaTeX \\href", "$\\href{javascript:alert(1)}{click}$"],
    ["KaTeX \\url", "$\\url{javascript:alert(1)}$"],
    ["KaTeX \\includegraphics", "$\\includegraphics{https://evil.example/x.png}$"],
    ["KaTeX \\htmlClass", "$\\htmlClass{admin-only}{x}$"],
    ["KaTeX \\htmlStyle", "$\\htmlStyle{position:fixed}{x}$"],
    ["KaTeX \\htmlData", "$\\htmlData{onload=alert(1)}{x}$"],
    ["HTML inside math", "$<img src=x onerror=alert(1)>$"],
    ["a javascript: autolink", "<javascript:alert(1)>"],
    ["a javascript: link written with an entity", "[x](&#106;avascript:alert(1))"],
    ["quotes in an image's alt and title", `![x" onerror="alert(1)](${MEDIA} "t\\" onload=\\"alert(1)")`],
    ["an HTML block", "<div onclick=alert(1)>\n<iframe src=https://evil.example/></iframe>\n</div>"],
  ];

  it.each(cases)("%s", (_name, text) => {
    expectInert(renderQuestionText(text));
    expectInert(renderOptionText(text));
  });

  it("shows typed HTML as text and drops what Markdown would link or load", () => {
    expect(renderQuestionText("<script>alert(1)</script>Hello")).toBe(
      "<p>&lt;script&gt;alert(1)&lt;/script&gt;Hello</p>",
    );
    expect(renderOptionText("<img src=x onerror=alert(1)>")).toBe("&lt;img src=x onerror=alert(1)&gt;");
    expect(renderQuestionText('<a href="JaVaScRiPt:alert(1)">click</a>')).toBe(
      '<p>&lt;a href="JaVaScRiPt:alert(1)"&gt;click&lt;/a&gt;</p>',
    );
    // markdown-it refuses the javascript: link, so it stays the text it was typed as.
    expect(renderQuestionText("[x](javascript:alert(1))")).toBe("<p>[x](javascript:alert(1))</p>");
    expect(renderQuestionText("![tracker](https://evil.example/pixel.png)")).toBe("<p></p>");
    expect(renderQuestionText("<style>body { display: none }</style>Text")).toBe(
      "<p>&lt;style&gt;body { display: none }&lt;/style&gt;Text</p>",
    );
    const trusted = renderQuestionText("$\\htmlClass{admin-only}{x}$");
    expect(trusted).not.toContain('admin-only"');
    expect(trusted).toContain("katex");
  });
});
