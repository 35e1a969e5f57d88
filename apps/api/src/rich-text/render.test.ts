// The renderer: Markdown, code, math and images come out as the allow-list permits, and nothing an admin types can
// run script, load from elsewhere, or style the page.
import { describe, expect, it } from "vitest";
import { renderOptionText, renderQuestionText } from "./render.ts";

const MEDIA = `/api/media/${"0123456789abcdef".repeat(4)}.png`;

/**
 * No element, attribute or URL that can run script, fetch from elsewhere or cover the page survives. The sanitiser
 * writes every attribute as name="value" with quotes escaped, so the tags can be read with a pattern; what is text
 * (a "javascript:" the author typed, shown as typed) is inert.
 */
function expectInert(html: string) {
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
    expect(renderOptionText("<a href='mailto:a@example.com' onclick='x()'>mail</a>")).toBe(
      '<a href="mailto:a@example.com" rel="noopener noreferrer nofollow" target="_blank">mail</a>',
    );
  });

  it("shows images from our media only, loaded lazily", () => {
    expect(renderQuestionText(`![A graph](${MEDIA})`)).toBe(
      `<p><img src="${MEDIA}" alt="A graph" loading="lazy" /></p>`,
    );
    expect(renderQuestionText(`<img src="${MEDIA}" onerror="alert(1)" style="position:fixed">`)).toBe(
      `<img src="${MEDIA}" loading="lazy" />`,
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
  ];

  it.each(cases)("%s", (_name, text) => {
    expectInert(renderQuestionText(text));
    expectInert(renderOptionText(text));
  });

  it("keeps the readable text and drops what runs", () => {
    expect(renderQuestionText("<script>alert(1)</script>Hello")).toBe("Hello");
    expect(renderQuestionText('<a href="JaVaScRiPt:alert(1)">click</a>')).toBe("<p><a>click</a></p>");
    expect(renderQuestionText("![tracker](https://evil.example/pixel.png)")).toBe("<p></p>");
    expect(renderQuestionText("<style>body { display: none }</style>Text")).toBe("Text");
    const trusted = renderQuestionText("$\\htmlClass{admin-only}{x}$");
    expect(trusted).not.toContain('admin-only"');
    expect(trusted).toContain("katex");
  });
});
