// The server's rendered HTML is shown as HTML (not as escaped text), and wide blocks can be reached by keyboard.
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { RichText } from "./rich-text.tsx";

afterEach(cleanup);

const codeBlock =
  '<p>What does this print?</p><pre><code class="hljs language-python"><span class="hljs-built_in">print</span>(1)</code></pre>';

describe("rich text", () => {
  it("shows the rendered HTML as elements, in a block for a question", () => {
    const { container } = render(<RichText html={codeBlock} />);
    expect(screen.getByText("What does this print?").tagName).toBe("P");
    expect(container.querySelector("pre > code.hljs > span.hljs-built_in")?.textContent).toBe("print");
    expect(container.firstElementChild?.tagName).toBe("DIV");
    expect(container.textContent).not.toContain("<p>");
  });

  it("puts each code block and displayed formula in the tab order, so a keyboard can scroll it", () => {
    const { container, rerender } = render(<RichText html={codeBlock} />);
    expect(container.querySelector("pre")?.tabIndex).toBe(0);
    rerender(<RichText html={'<span class="katex-display"><span class="katex">x</span></span>'} />);
    expect(container.querySelector(".katex-display")?.getAttribute("tabindex")).toBe("0");
  });

  it("is a span for an option's inline text", () => {
    const { container } = render(<RichText inline html="<em>both</em>" />);
    expect(container.firstElementChild?.tagName).toBe("SPAN");
    expect(container.querySelector("em")?.textContent).toBe("both");
  });
});
