// How the admin pages show a drive's status and window, in the drive's own time zone with the zone named.
import { type Drive, type DriveDetail, type DriveStatus, waitsForRelease } from "@trainwise/contract/drives";
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

/** Whether anything of the drive's results waits for its release (`waitsForRelease`): else nothing to publish. */
export function resultsWaitForRelease(drive: Pick<DriveDetail, "testSecure" | "testReviewPolicy">): boolean {
  const waits = waitsForRelease(drive.testSecure, drive.testReviewPolicy);
  return waits.score || waits.ticks || waits.rightAnswers;
}

/**
 * When the drive's results reach its students, by `waitsForRelease`: what does not wait shows at submit; what
 * waits comes out once the drive has closed and everyone's time is up, or when an admin publishes it if the
 * drive holds its results.
 */
export function resultsReleaseText(drive: DriveDetail, now = Date.now()): string {
  const waits = waitsForRelease(drive.testSecure, drive.testReviewPolicy);
  if (!resultsWaitForRelease(drive)) return "Score and pass or fail at submit (a practice test); no ticks";
  const waiting = waitingText(drive, now);
  if (waits.score) {
    return `${waits.rightAnswers ? "Scores, pass or fail, the ticks and the right answers" : "Scores and pass or fail"}: ${waiting}`;
  }
  return waits.ticks
    ? `Score and pass or fail at submit (a practice test); the ticks and the right answers: ${waiting}`
    : `Score, pass or fail and ticks at submit (a practice test); the right answers: ${waiting}`;
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
