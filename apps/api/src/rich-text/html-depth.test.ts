// The HTML depth count: it must never count a tree shallower than the parser builds it (that is what lets a deep
// tree through to the parser and turndown), and should not refuse flat HTML written without optional end tags.
import { describe, expect, it } from "vitest";
import { nestsDeeperThan } from "./html-depth.ts";

/** Any limit does; this is the one imported HTML is held to (`MAX_HTML_NESTING` in as-markdown.ts). */
const LIMIT = 100;

describe("HTML depth", () => {
  it("counts nesting as the HTML parser builds it, never less than a deep tree's own tags", () => {
    const deep = (piece: string) => piece.repeat(LIMIT + 1);
    // Closed elements do not nest, however many there are, nor do void elements.
    expect(nestsDeeperThan(deep("<p><b>a</b><br><img src=x></p>"), LIMIT)).toBe(false);
    expect(nestsDeeperThan(deep("<ul><li>a</li></ul>"), LIMIT)).toBe(false);
    // An end tag closes what is open inside its element where the parser does too.
    expect(nestsDeeperThan(deep("<div><p><span>a</div>"), LIMIT)).toBe(false);
    expect(nestsDeeperThan(deep("<span><i>a</i></span>"), LIMIT)).toBe(false);
    // End tags the parser does not read as end tags close nothing: in an attribute, a comment, a textarea, a
    // script with a comment in it, or a formatting element's across a block (the parser copies it inward).
    for (const piece of [
      "<div title='>'</div>'>",
      "<div><!-- </div> -->",
      "<div><textarea></div></textarea>",
      "<div><script><!--<script></script></div></script>",
      "<a><div></a>",
      "<div><b id=1></div>x",
      "<svg><![CDATA[</svg>]]><g>",
      // The parser ignores an ordinary end tag across a special element, and a special one across a table or an
      // object (`<span><div></span>` 3,000 times held the server 2.6 s, found by an outside attack).
      "<span><div></span>",
      "<font><p></font>",
      "<div><table></div>",
      "<div><object></div>",
      "<li><ul></li>",
    ]) {
      expect(nestsDeeperThan(deep(piece), LIMIT), piece).toBe(true);
    }
    // What is not a tag opens nothing.
    expect(nestsDeeperThan(deep("a < b <3 </3 <!-- <div> --> <!--><?x <div?> "), LIMIT)).toBe(false);
  });

  it("reads the end tags HTML lets an author leave out, as the parser does", () => {
    const many = LIMIT + 1;
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
      expect(nestsDeeperThan(html, LIMIT), html.slice(0, 40)).toBe(false);
    }
    // What the parser really nests still counts: a div's `/>` closes nothing, an li opens a new list's item
    // inside the old one, a cell in a nested table stays in it.
    for (const html of [
      "<div/>x".repeat(many),
      "<ul><li>".repeat(many),
      "<table><tr><td>".repeat(many),
      "<p><table>".repeat(many),
      "<li><button>".repeat(many),
    ]) {
      expect(nestsDeeperThan(html, LIMIT), html.slice(0, 40)).toBe(true);
    }
  });

  it("counts foreign content (svg, math) as deeper than any limit: the parser reads it by other rules", () => {
    expect(nestsDeeperThan("<svg><title>", LIMIT)).toBe(true);
    expect(nestsDeeperThan("<math>", LIMIT)).toBe(true);
  });
});
