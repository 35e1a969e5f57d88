// How the admin pages show a drive's status and window, in the drive's own time zone with the zone named.
import type { Drive, DriveStatus } from "@trainwise/contract/drives";
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
