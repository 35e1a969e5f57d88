// What the drive's page says about when its students read their results (decision 024): a practice test's scores
// come at submit, whatever waits for the close; a newcomer's walk found the page promising them at the close.
import type { DriveDetail } from "@trainwise/contract/drives";
import { describe, expect, it } from "vitest";
import { resultsReleaseText, resultsWaitForRelease } from "./drive-display.ts";

const now = Date.parse("2026-11-27T10:00:00Z");
const drive = (settings: Partial<DriveDetail>) =>
  ({
    timeZone: "Asia/Kolkata",
    holdResults: false,
    resultsReleaseAt: null,
    settlesAt: null,
    testSecure: true,
    testReviewPolicy: "score_only",
    ...settings,
  }) as DriveDetail;

describe("when a drive's results reach its students", () => {
  it("says a practice test's scores come at submit, and what of it waits for the close", () => {
    expect(resultsReleaseText(drive({ testSecure: false, testReviewPolicy: "score_only" }), now)).toBe(
      "Score and pass or fail at submit (a practice test); no ticks",
    );
    // The student's own ticks come at submit; the right answers beside them only once the drive has released.
    expect(resultsReleaseText(drive({ testSecure: false, testReviewPolicy: "score_and_ticks" }), now)).toBe(
      "Score, pass or fail and ticks at submit (a practice test); the right answers: out once the drive closes and everyone's time is up",
    );
    expect(resultsReleaseText(drive({ testSecure: false, testReviewPolicy: "ticks_after_close" }), now)).toBe(
      "Score and pass or fail at submit (a practice test); the ticks and the right answers: out once the drive closes and everyone's time is up",
    );
    // Nothing of a practice test showing the score only waits, so there is nothing to publish.
    expect(resultsWaitForRelease({ testSecure: false, testReviewPolicy: "score_only" })).toBe(false);
    expect(resultsWaitForRelease({ testSecure: false, testReviewPolicy: "score_and_ticks" })).toBe(true);
    expect(resultsWaitForRelease({ testSecure: true, testReviewPolicy: "score_only" })).toBe(true);
  });

  it("says what a secure test holds back, and until when", () => {
    expect(resultsReleaseText(drive({}), now)).toBe(
      "Scores and pass or fail: out once the drive closes and everyone's time is up",
    );
    expect(
      resultsReleaseText(
        drive({ testReviewPolicy: "ticks_after_close", resultsReleaseAt: "2026-11-27T09:00:00Z" }),
        now,
      ),
    ).toMatch(/^Scores, pass or fail, the ticks and the right answers: out since .*, once everyone's time is up$/);
    expect(resultsReleaseText(drive({ holdResults: true, settlesAt: "2026-11-27T09:30:00Z" }), now)).toBe(
      "Scores and pass or fail: held; everyone's time is up, so you can publish them",
    );
  });
});
