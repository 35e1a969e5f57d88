// What a question's text field takes, with one example each: a disclosure beside the editor, closed until asked
// for, so it is always one press away and never a wall of text. The rules themselves are the server's renderer's
// (docs/decisions/021); this says them in an author's words.

/** The one-line hint the question field carries, naming what the help below explains. */
export const MARKDOWN_HINT =
  "Takes Markdown: **bold**, *italics*, `code`, code blocks and $math$. Formatting help below has an example of each.";

const EXAMPLES: { what: string; write: string }[] = [
  { what: "Bold and italics", write: "A **stack** is *last in, first out*." },
  { what: "Code in a sentence", write: "What does `len(items)` return?" },
  {
    what: "A block of code: three backticks and its language, on lines of their own",
    write: "```python\nprint(2 ** 3)\n```",
  },
  { what: "Math in a sentence, between single dollar signs", write: "Solve $x^2 = 16$ for $x > 0$." },
  { what: "Math on a line of its own, between double dollar signs", write: "$$\\frac{a + b}{2}$$" },
  { what: "A dollar sign that is not math", write: "It costs \\$5 (a price: $5 and $10 stay text)." },
  { what: "A new paragraph", write: "An empty line between two lines of text." },
];

export function MarkdownHelp() {
  return (
    <details className="rounded border border-slate-300 p-3 md:col-span-2">
      <summary className="cursor-pointer font-medium">Formatting help: Markdown, code, math and pictures</summary>
      <p className="mt-2 text-sm">
        The question and each option are written in Markdown. The preview below shows them as students will see them.
      </p>
      <table className="mt-2 w-full text-left text-sm">
        <caption className="sr-only">What to write for each kind of formatting</caption>
        <thead>
          <tr className="border-b border-slate-300">
            <th scope="col" className="py-1 pr-3">
              To show
            </th>
            <th scope="col" className="py-1">
              Write
            </th>
          </tr>
        </thead>
        <tbody>
          {EXAMPLES.map((example) => (
            <tr key={example.what} className="border-b border-slate-100 align-top">
              <td className="py-1 pr-3">{example.what}</td>
              <td className="py-1">
                <pre className="whitespace-pre-wrap break-words font-mono">{example.write}</pre>
              </td>
            </tr>
          ))}
          <tr className="align-top">
            <td className="py-1 pr-3">A picture</td>
            <td className="py-1">
              Choose it with Insert image: it asks for a description for students who cannot see it, then puts the
              picture at the cursor.
            </td>
          </tr>
        </tbody>
      </table>
    </details>
  );
}
