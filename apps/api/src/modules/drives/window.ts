// When a drive takes students: its opening and closing times, read in the zone the admin planned it in, and the
// sentences a student reads when they come too early or too late.

type Moment = Date | string | null;

export interface DriveWindow {
  opensAt: Moment;
  closesAt: Moment;
  closedAt: Moment;
  timeZone: string;
}

/** "10:00 on 3 December (India Standard Time)": a time as the people of the drive read it. */
export function formatDriveTime(moment: Date | string, timeZone: string): string {
  const date = new Date(moment);
  const time = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  const day = new Intl.DateTimeFormat("en-GB", { timeZone, day: "numeric", month: "long" });
  const zone = new Intl.DateTimeFormat("en-GB", { timeZone, timeZoneName: "long" })
    .formatToParts(date)
    .find((part) => part.type === "timeZoneName")?.value;
  return `${time.format(date)} on ${day.format(date)}${zone ? ` (${zone})` : ""}`;
}

/** Why the drive takes nobody at `now`, or undefined while it is open. */
export function driveWindowRefusal(drive: DriveWindow, now: Date): string | undefined {
  if (drive.closedAt) return "This test has been closed.";
  if (drive.opensAt && new Date(drive.opensAt).getTime() > now.getTime()) {
    return `This test opens at ${formatDriveTime(drive.opensAt, drive.timeZone)}.`;
  }
  if (drive.closesAt && new Date(drive.closesAt).getTime() <= now.getTime()) {
    return `This test closed at ${formatDriveTime(drive.closesAt, drive.timeZone)}.`;
  }
  return undefined;
}

/** Whether a drive has closed at `now`: closed by an admin, or past its closing time. */
export function driveHasClosed(drive: Pick<DriveWindow, "closesAt" | "closedAt">, now: Date): boolean {
  if (drive.closedAt) return true;
  return drive.closesAt !== null && new Date(drive.closesAt).getTime() <= now.getTime();
}

/** A drive's state at `now`: closed (by an admin or its closing time), scheduled (not yet open), or open. */
export function driveStatus(
  drive: Pick<DriveWindow, "opensAt" | "closesAt" | "closedAt">,
  now: Date,
): "scheduled" | "open" | "closed" {
  if (driveHasClosed(drive, now)) return "closed";
  return drive.opensAt && new Date(drive.opensAt).getTime() > now.getTime() ? "scheduled" : "open";
}
