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
 * When the drive's results reach its students (decision 024). A practice test's scores show at submit; what waits
 * for the close (a secure test's scores, pass or fail and ticks, or a practice test's ticks after close) comes
 * out once the drive has closed and everyone's time is up, or when an admin publishes it if the drive holds them.
 */
export function resultsReleaseText(drive: DriveDetail, now = Date.now()): string {
  if (!drive.testSecure) {
    if (drive.testReviewPolicy === "score_only") return "At submit (a practice test): the score only";
    if (drive.testReviewPolicy === "score_and_ticks") return "At submit (a practice test): the score and the ticks";
    return `Scores at submit (a practice test); the ticks: ${waitingText(drive, now)}`;
  }
  const held = drive.testReviewPolicy === "score_only" ? "Scores and pass or fail" : "Scores, pass or fail and ticks";
  return `${held}: ${waitingText(drive, now)}`;
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
