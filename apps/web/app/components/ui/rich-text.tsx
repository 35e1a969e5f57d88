// Question and option text as students and admins see it: the HTML the API renders from the Markdown source,
// with code already highlighted (highlight.js classes) and math already typeset (KaTeX), so the browser ships no
// Markdown, highlighter or math code. Only this module imports the styles and fonts for that HTML; it is imported
// by the quiz, result and admin screens alone, so public marketing pages never load them.
import "katex/dist/katex.min.css";
import "highlight.js/styles/a11y-light.css";
import "./rich-text.css";
import { useEffect, useRef } from "react";

/**
 * Shows server-rendered question HTML. Inserting it unescaped is safe because the API sanitises it with an allow
 * list before it ever leaves the server (no script, iframe or SVG, no event handler attributes, no `javascript:`
 * links, images only from /api/media) and every payload that carries `html` is built that way; a second
 * sanitiser here would put a parser on the quiz page for nothing and could disagree with the server's.
 *
 * `inline` is for an option's text (inline content, no paragraphs) inside a label, so the radio's or checkbox's
 * accessible name is the option's text.
 */
export function RichText({
  html,
  inline = false,
  className = "",
  id,
}: {
  html: string;
  inline?: boolean;
  className?: string;
  id?: string;
}) {
  const box = useRef<HTMLElement>(null);
  // A code block or displayed formula wider than the screen scrolls inside itself; a keyboard user must be able
  // to reach it to scroll it, so each gets a place in the tab order (the sanitiser allows no tabindex). Again
  // whenever `html` changes, as React then replaces the element's content.
  useEffect(() => {
    for (const scroller of box.current?.querySelectorAll<HTMLElement>("pre, .katex-display") ?? []) {
      scroller.tabIndex = 0;
    }
  }, [html]);
  const Tag = inline ? "span" : "div";
  return (
    <Tag
      ref={box as React.Ref<HTMLDivElement & HTMLSpanElement>}
      id={id}
      className={`${inline ? "rich-text-inline" : "rich-text"} ${className}`.trim()}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
