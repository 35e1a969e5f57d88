// Conformance with Moodle's own readers and writers (issue 23): files written here, one construct each, read as
// Moodle's qformat_gift, qformat_aiken and qformat_xml read them, asserting what we would store; and our Moodle XML
// export read as qformat_xml reads it, against what a stock Moodle 4.5 holds.
import { describe, expect, it } from "vitest";
import { renderQuestionText } from "../../../rich-text/render.ts";
import type { FileOutcome } from "./bank-file.ts";
import { detectFormat, readBankFile } from "./bank-formats.ts";

function bankOf(outcome: FileOutcome) {
  if (!outcome.ok) throw new Error(`refused: ${outcome.message}`);
  return outcome.bank;
}

const DEFAULTS = { category: "Imported", difficulty: "medium" } as const;

describe("GIFT as Moodle reads it", () => {
  it("names a numerical question whatever its answers hold, instead of calling it a syntax error", async () => {
    const bank = bankOf(
      await readBankFile(
        "::Sum:: What is 1 + 2? {#3:2~#Completely wrong}\n\n// [tag:easy]\nHow many legs has a spider? {#8}\n\nStill read? {=yes ~no}\n",
        "gift",
        DEFAULTS,
      ),
    );
    expect(bank.problems).toEqual([]);
    expect(bank.unsupported).toEqual([
      { line: 1, kind: "numerical", title: "Sum" },
      { line: 4, kind: "numerical", title: "How many legs has a spider?" },
    ]);
    expect(bank.questions.map((entry) => entry.question.text)).toEqual(["Still read?"]);
  });

  it("reads missing-word questions, multiple choice and true/false, with a blank where the answers stand", async () => {
    const bank = bankOf(
      await readBankFile(
        "Water boils at {=100 ~90 ~80} degrees at sea level.\n\nThe sun {T} is a star.\n\nTwo plus two is {F} five.\n",
        "gift",
        DEFAULTS,
      ),
    );
    expect(bank.problems).toEqual([]);
    expect(bank.unsupported).toEqual([]);
    expect(bank.questions.map(({ line, question }) => ({ line, ...question }))).toEqual([
      {
        line: 1,
        text: "Water boils at \\_\\_\\_\\_\\_ degrees at sea level.",
        ...DEFAULTS,
        type: "single",
        scoring: "all_or_nothing",
        options: [
          { text: "100", isCorrect: true },
          { text: "90", isCorrect: false },
          { text: "80", isCorrect: false },
        ],
      },
      {
        line: 3,
        text: "The sun \\_\\_\\_\\_\\_ is a star.",
        ...DEFAULTS,
        type: "true_false",
        scoring: "all_or_nothing",
        options: [
          { text: "True", isCorrect: true },
          { text: "False", isCorrect: false },
        ],
      },
      expect.objectContaining({
        line: 5,
        type: "true_false",
        options: [
          { text: "True", isCorrect: false },
          { text: "False", isCorrect: true },
        ],
      }),
    ]);
    // The blank shows as a blank, not as emphasis or a rule.
    expect(renderQuestionText(bank.questions[0]?.question.text ?? "")).toBe(
      "<p>Water boils at _____ degrees at sea level.</p>",
    );
  });

  it("reads TeX in Moodle's delimiters as math", async () => {
    const bank = bankOf(await readBankFile("What is \\(\\frac12\\) of 4? {=2 ~8}\n", "gift", DEFAULTS));
    expect(bank.questions[0]?.question.text).toBe("What is $\\frac12$ of 4?");
  });
});

describe("Aiken as Moodle reads it", () => {
  it("reads options written without a space after the letter, and only the first letter of the answer", async () => {
    const bank = bankOf(
      await readBankFile("Which is a noble gas?\nA)Neon\nB.Nitrogen\nC) Oxygen\nANSWER: A (neon)\n", "aiken", DEFAULTS),
    );
    expect(bank.problems).toEqual([]);
    expect(bank.questions[0]?.question.options).toEqual([
      { text: "Neon", isCorrect: true },
      { text: "Nitrogen", isCorrect: false },
      { text: "Oxygen", isCorrect: false },
    ]);
  });

  it("reads text as plain text, shown as typed, except TeX in Moodle's delimiters, which its filters render", async () => {
    const bank = bankOf(
      await readBankFile(
        "Is *stateful* the same as <b>stateful</b>, and is \\(x^2\\) a square?\nA. *yes*\nB. $5 or `no`\nANSWER: B\n",
        "aiken",
        DEFAULTS,
      ),
    );
    const question = bank.questions[0]?.question;
    expect(question?.text).toBe("Is \\*stateful\\* the same as \\<b\\>stateful\\</b\\>, and is $x^2$ a square?");
    expect(question?.options.map((option) => option.text)).toEqual(["\\*yes\\*", "\\$5 or \\`no\\`"]);
    const html = renderQuestionText(question?.text ?? "");
    expect(html).toContain("Is *stateful* the same as &lt;b&gt;stateful&lt;/b&gt;, and is ");
    expect(html).toContain('class="katex"');
  });

  it("is detected as Aiken even when its text holds braces, and GIFT stays GIFT", () => {
    const aiken =
      "What does {} mean in JSON?\nA. an empty object\nB. an empty array\nANSWER: A\n\nQ2 {x}?\nA) a\nB) b\nANSWER: B\n";
    expect(detectFormat(aiken)).toBe("aiken");
    expect(detectFormat("What does \\{\\} mean? {=an object ~an array}\n\nANSWER: A is here {T}\n")).toBe("gift");
    expect(detectFormat("// a comment\n\nQ?\nA. a\nB. b\nANSWER: A\n")).toBe("aiken");
  });
});
