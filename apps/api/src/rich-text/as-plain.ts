// Our Markdown as the plain text a reader sees, for formats that hold plain text only (Aiken) and for names (Moodle
// XML's `<name>`): the words of each block, code as typed, links as their text, images left out, and math as TeX
// between the delimiters Moodle's filters render in any text (`\(…\)` inline, `$$…$$` display).
import MarkdownIt, { type Token } from "markdown-it";
import { mathPlugin } from "./math.ts";

/** The same reading of the text as the renderer's (render.ts): no HTML, line breaks kept, and our math rule. */
const reader = new MarkdownIt({ html: false, breaks: true, linkify: false, typographer: false });
reader.use(mathPlugin, { render: () => "" });

function inlineText(children: Token[]): string {
  return children
    .map((child) => {
      switch (child.type) {
        case "text":
        case "code_inline":
          return child.content;
        case "softbreak":
        case "hardbreak":
          return "\n";
        case "math_inline":
          return `\\(${child.content}\\)`;
        case "math_display":
          return `$$${child.content}$$`;
        default:
          // Emphasis, links and images: their marks go, a link's text stays (its own text tokens), an image goes.
          return "";
      }
    })
    .join("");
}

/**
 * A Markdown text as plain text: blocks on lines of their own, list items with a dash. `inline` reads it as an
 * option is rendered (render.ts), with no blocks: there a `#` or `- ` at the start is text, not a heading or a list.
 */
export function markdownAsPlain(markdown: string, inline = false): string {
  if (inline) return inlineText(reader.parseInline(markdown, {})[0]?.children ?? []);
  const lines: string[] = [];
  let item = "";
  for (const token of reader.parse(markdown, {})) {
    if (token.type === "list_item_open") item = "- ";
    if (token.type === "inline") {
      lines.push(item + inlineText(token.children ?? []));
      item = "";
    } else if (token.type === "fence" || token.type === "code_block") {
      lines.push(token.content.replace(/\n$/, ""));
    }
  }
  return lines.join("\n");
}
