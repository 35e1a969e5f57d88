// How the admin pages show a drive's status and window, in the drive's own time zone with the zone named.
import type { Drive, DriveDetail, DriveStatus } from "@trainwise/contract/drives";
import { formatInZone } from "./zoned-time.ts";

export const DRIVE_STATUS_LABELS: Record<DriveStatus, string> = {
  scheduled: "Scheduled",
  open: "Open",
  closed: "Closed",
};

export function opensText(drive: Pick<Drive, "opensAt" | "timeZone">): string {
  return drive.opensAt ? formatInZone(drive.opensAt, drive.timeZone) : "At once";
}

export function closesText(drive: Pick<Drive, "closesAt" | "timeZone">): string {
  return drive.closesAt ? formatInZone(drive.closesAt, drive.timeZone) : "When an admin closes it";
}

/**
 * Whether anything of the drive's results waits for its release (decision 024, the rules of `resultOf`): a secure
 * test's scores, and any test's right answers beside the ticks. A practice test showing the score only has
 * nothing to publish.
 */
export function resultsWaitForRelease(drive: Pick<DriveDetail, "testSecure" | "testReviewPolicy">): boolean {
  return drive.testSecure || drive.testReviewPolicy !== "score_only";
}

/**
 * When the drive's results reach its students (decision 024): a practice test's score at submit, and its ticks
 * too when the test shows them then; what waits (a secure test's scores and pass or fail, and the right answers
 * beside the ticks) comes out once the drive has closed and everyone's time is up, or when an admin publishes it
 * if the drive holds its results.
 */
export function resultsReleaseText(drive: DriveDetail, now = Date.now()): string {
  const waiting = waitingText(drive, now);
  if (!drive.testSecure) {
    if (drive.testReviewPolicy === "score_only") return "Score and pass or fail at submit (a practice test); no ticks";
    if (drive.testReviewPolicy === "score_and_ticks") {
      return `Score, pass or fail and ticks at submit (a practice test); the right answers: ${waiting}`;
    }
    return `Score and pass or fail at submit (a practice test); the ticks and the right answers: ${waiting}`;
  }
  if (drive.testReviewPolicy === "score_only") return `Scores and pass or fail: ${waiting}`;
  return `Scores, pass or fail, the ticks and the right answers: ${waiting}`;
}

/** When what waits for the drive's close goes out, as the end of a sentence. */
function waitingText(drive: DriveDetail, now: number): string {
  const at = (iso: string) => formatInZone(iso, drive.timeZone);
  if (drive.resultsReleaseAt !== null) {
    const past = Date.parse(drive.resultsReleaseAt) <= now;
    return `${past ? "out since" : "out at"} ${at(drive.resultsReleaseAt)}, once everyone's time is up`;
  }
  if (!drive.holdResults) return "out once the drive closes and everyone's time is up";
  if (drive.settlesAt !== null && Date.parse(drive.settlesAt) <= now) {
    return "held; everyone's time is up, so you can publish them";
  }
  return `held until you publish them, which you can once ${
    drive.settlesAt === null ? "the drive closes and everyone's time is up" : at(drive.settlesAt)
  }`;
}
