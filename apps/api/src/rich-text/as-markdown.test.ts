// Imported text as Markdown: plain text shows literally whatever it holds, HTML reaches the sanitiser whole.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { htmlAsMarkdown, plainAsMarkdown } from "./as-markdown.ts";
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

describe("HTML as Markdown", () => {
  it("keeps HTML whole for the sanitiser, with no Markdown read inside it, whatever its blank lines", () => {
    const html = "<p>Is 2*3 = 6?</p>\n\n    <p>*not* `code`</p>\n\n<pre>a\n\n    b</pre>";
    expect(renderQuestionText(htmlAsMarkdown(html))).toBe(
      "<p>Is 2*3 = 6?</p>\n    <p>*not* `code`</p>\n<pre>a\n\n    b</pre>",
    );
    expect(renderQuestionText(htmlAsMarkdown("Is *x* <b>bold</b>?"))).toBe("Is *x* <b>bold</b>?");
  });

  it("keeps text without anything Markdown would read exactly as it is", () => {
    expect(htmlAsMarkdown("UDP guarantees delivery.")).toBe("UDP guarantees delivery.");
    expect(htmlAsMarkdown("<p>Network</p>", true)).toBe("Network");
  });

  it("makes an option inline: no paragraph around it, its Markdown characters escaped between tags", () => {
    const option = htmlAsMarkdown("<p>2*3 &amp; <b>a_</b></p>\n<p>b</p>", true);
    expect(option).toBe("2\\*3 &amp; <b>a\\_</b><br>b");
    expect(renderOptionText(option)).toBe("2*3 &amp; <b>a_</b><br />b");
  });
});
