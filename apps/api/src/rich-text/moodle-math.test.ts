import { describe, expect, it } from "vitest";
import { mathForMoodle, mathFromMoodle } from "./moodle-math.ts";

describe("math written for Moodle and read back", () => {
  it("writes a formula in Moodle's escaped delimiters and reads it back", () => {
    expect(mathForMoodle("Is $x^2$ a square?")).toBe("Is \\\\(x^2\\\\) a square?");
    expect(mathFromMoodle("Is \\\\(x^2\\\\) a square?")).toBe("Is $x^2$ a square?");
  });

  it("keeps a text's own backslash and parenthesis before a formula as text (the round-trip property found it)", () => {
    // `\\(` in our Markdown is a backslash, then "(": not an opener, though a formula's opener follows it.
    const text = "- **\\\\(** $x^2$";
    expect(mathFromMoodle(mathForMoodle(text))).toBe(text);
    expect(mathFromMoodle("a \\\\( b \\\\(y\\\\)")).toBe("a \\\\( b $y$");
  });
});
