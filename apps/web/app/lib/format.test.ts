// Numbers in the admin area follow the browser's locale; the tests run in English, so these are the English forms.
import { describe, expect, it } from "vitest";
import { formatPercent, formatScore } from "./format.ts";

describe("admin number formats", () => {
  it("writes a score as marks out of the questions with the share", () => {
    expect(formatScore(9, 25)).toBe("9/25 (36%)");
    expect(formatScore(0, 0)).toBe("0/0 (0%)");
  });

  it("writes an average percentage with at most two decimals, as the locale writes percentages", () => {
    expect(formatPercent(36.128)).toBe("36.13%");
    expect(formatPercent(50)).toBe("50%");
    expect(formatPercent(1234.5)).toBe("1,234.5%");
  });
});
