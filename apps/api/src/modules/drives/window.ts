// When a drive takes students: its opening and closing times, read in the zone the admin planned it in, and the
// sentences a student reads when they come too early or too late.

type Moment = Date | string | null;

export interface DriveWindow {
  opensAt: Moment;
  closesAt: Moment;
  closedAt: Moment;
  timeZone: string;
}

/** A drive's late-entry cut-off: minutes after opensAt past which nobody new registers or starts; null: none. */
export interface LateEntry {
  opensAt: Moment;
  timeZone: string;
  lateEntryMinutes: number | null;
}

/** When entry ends: the late-entry cut-off, or null when entry lasts until the close. */
export function entryEndsAt(drive: LateEntry): Date | null {
  if (drive.lateEntryMinutes === null || !drive.opensAt) return null;
  return new Date(new Date(drive.opensAt).getTime() + drive.lateEntryMinutes * 60_000);
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

/**
 * Why nobody new may register or start at `now` though the drive is open: its late-entry cut-off has passed. A
 * student who started before it resumes, and one who registered before it comes back with their resume code.
 */
export function lateEntryRefusal(drive: LateEntry, now: Date): string | undefined {
  const entryEnds = entryEndsAt(drive);
  if (!entryEnds || entryEnds.getTime() > now.getTime()) return undefined;
  const minutes = drive.lateEntryMinutes === 1 ? "1 minute" : `${drive.lateEntryMinutes} minutes`;
  return (
    `Entry to this test closed at ${formatDriveTime(entryEnds, drive.timeZone)}, ${minutes} after it opened. ` +
    "Please speak to the invigilator."
  );
}

/** Why someone new may not start (or register) at `now`: the drive is not open, or entry to it has closed. */
export function entryRefusal(drive: DriveWindow & LateEntry, now: Date): string | undefined {
  return driveWindowRefusal(drive, now) ?? lateEntryRefusal(drive, now);
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
