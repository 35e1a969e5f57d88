// A GIFT question the parser refuses is reported at its line with what to write instead, never with the parser's
// grammar words ("Expected", "found", "blank lines separator"), and the other questions are still read.
import { describe, expect, it } from "vitest";
import type { FileOutcome } from "./bank-file.ts";
import { parseGift } from "./gift.ts";

function problemsOf(outcome: FileOutcome) {
  if (!outcome.ok) throw new Error(`refused: ${outcome.message}`);
  return outcome.bank.problems;
}

/** The one problem of a file holding a good question, then `broken` starting on line 3. */
function problemOf(broken: string) {
  const problems = problemsOf(parseGift(`Fine? {=yes ~no}\n\n${broken}\n`, { category: "Maths" }));
  expect(problems).toHaveLength(1);
  return problems[0];
}

const JARGON = /Expected|found|separator|Question stem|end of input|Not valid GIFT/;

describe("GIFT errors that say what to write", () => {
  it("names a plain ':' in the question text and shows it escaped", () => {
    expect(problemOf("Time: what is 2 + 2? {=4 ~5}")).toEqual({
      line: 3,
      message: `A ':' in the question text must be written '\\:' in GIFT: "Time\\: what is 2 + 2? {=4 ~5}".`,
    });
  });

  it("names each of GIFT's other special characters in the text, on the line it is on", () => {
    for (const character of ["=", "~", "#", "}"]) {
      const problem = problemOf(`Which is right\nwhen a ${character} b? {=yes ~no}`);
      expect(problem?.line).toBe(4);
      expect(problem?.message).toBe(
        `A '${character}' in the question text must be written '\\${character}' in GIFT: "when a \\${character} b? {=yes ~no}".`,
      );
    }
  });

  it("says where the answers' '{' was opened when it is never closed", () => {
    expect(problemOf("Broken {\n=a\n~b")).toEqual({
      line: 5,
      message:
        "The '{' on line 3 that opens the answers is never closed: end the answers with '}'. A '}' written '\\}' is text, not the end.",
    });
  });

  it("asks for the answers when the braces hold none", () => {
    expect(problemOf("Capital of France? {=}")?.message).toBe(
      "The answers in '{…}' are empty or cut short: write each option after '=' (the right one) or '~' (a wrong one), such as {=Paris ~London ~Rome}, or {T} or {F} for true or false.",
    );
  });

  it("names a special character inside an answer", () => {
    expect(problemOf("Ratio? {=3:2 ~2:3}")?.message).toBe(
      `A ':' inside an answer or its feedback must be written '\\:' in GIFT: "Ratio? {=3\\:2 ~2:3}".`,
    );
  });

  it("names a second '{' after the answers, which may be a question missing its blank line", () => {
    expect(problemOf("First {=a ~b}\nSecond {=c ~d}")).toEqual({
      line: 4,
      message: `A question has one set of answers in '{…}': a '{' that is part of the text must be written '\\{' in GIFT: "Second \\{=c ~d}". If a new question starts here, leave a blank line before it.`,
    });
  });

  it("names a title opened with '::' and never closed", () => {
    expect(problemOf("::Title Time {=a ~b}")?.message).toBe(
      "The title that starts with '::' is never closed: write it as ::Title:: before the question, or a ':' in the text as '\\:'.",
    );
  });

  it("says how a weight is written", () => {
    // (`~%half%b` is no error: Moodle reads it as text worth 0, and so do we, naming the loss; conformance.test.ts.)
    expect(problemOf("Q {=a ~%5%%b}")?.message).toBe(
      "A weight is a number from -100 to 100 between two '%' signs before the option, such as ~%50%Half right.",
    );
  });

  it("never passes the parser's words on, whatever the failure", () => {
    const broken = [
      "Time: now {=a ~b}",
      "Q {=a ~b} trailing }",
      "What {=a ~b} is: this",
      "Q {TRUE#fb#fb2#x}",
      "Q {=a -> b ~c}",
      "Q {=4 ~5}}",
      "Q {~}",
      "Q {=a ~b\\}",
      "::T::Q {=a ~b}::x",
    ];
    for (const text of broken) {
      const problem = problemOf(text);
      expect(problem?.line, text).toBe(3);
      expect(problem?.message, text).not.toMatch(JARGON);
    }
  });
});
