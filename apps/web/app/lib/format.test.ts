// The admin area's one way of writing each number and time (decision 027). The tests run in English.
import { scorePercentage } from "@trainwise/contract/quiz";
import { describe, expect, it } from "vitest";
import { formatCount, formatDateTime, formatScore, formatScorePercent, formatShare } from "./format.ts";
import { formatInZone } from "./zoned-time.ts";

describe("admin number formats", () => {
  it("writes a score as marks out of the questions with its percentage to two decimals", () => {
    expect(formatScore(7, 8)).toBe("7/8 (87.50%)");
    expect(formatScore(9, 25)).toBe("9/25 (36.00%)");
    expect(formatScore(0, 0)).toBe("0/0 (0.00%)");
  });

  it("counts negative marking and partial credit in the marks it shows", () => {
    expect(formatScore(8.5, 25)).toBe("8.5/25 (34.00%)");
    expect(formatScore(-0.5, 4)).toBe("-0.5/4 (-12.50%)");
  });

  it("writes a percentage the way the score's share is written, also for an average", () => {
    expect(formatScorePercent(87.5)).toBe("87.50%");
    expect(formatScorePercent(36.128)).toBe("36.13%");
    expect(formatScorePercent(40)).toBe("40.00%");
    // The same score reads the same wherever it is shown: in the table, in an average, in the export.
    expect(formatScore(7, 8)).toContain(formatScorePercent(87.5));
    expect(`${scorePercentage(7, 8)}%`).toBe(formatScorePercent(87.5));
  });

  it("writes a share of students with one decimal and counts with the locale's grouping", () => {
    expect(formatShare(62.5)).toBe("62.5%");
    expect(formatShare(100)).toBe("100.0%");
    expect(formatCount(12345)).toBe("12,345");
  });
});

describe("a drive's times", () => {
  it("are written in the drive's time zone with the zone named, not in the browser's or in UTC", () => {
    // An evening exam in UTC is the next morning in India.
    expect(formatInZone("2026-11-20T20:00:00.000Z", "Asia/Kolkata")).toBe("21 Nov 2026, 01:30 (India Standard Time)");
    expect(formatInZone("2026-11-20T20:00:00.000Z", "UTC")).toBe("20 Nov 2026, 20:00 (Coordinated Universal Time)");
  });
});

describe("an admin's own events", () => {
  it("are written as a drive's times are, in the browser's time zone with the zone named", () => {
    // A newcomer's walk found a third style ("Nov 27, 2026, 10:28 AM") on the enquiries beside the drives' one.
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(formatDateTime("2026-11-20T20:00:00.000Z")).toBe(formatInZone("2026-11-20T20:00:00.000Z", zone));
    expect(formatDateTime("2026-11-20T20:00:00.000Z")).toMatch(/^\d{1,2} Nov 2026, \d{2}:\d{2} \(.+\)$/);
  });
});
