// Wall-clock times in a named time zone, as an admin plans a drive ("10:00 in Asia/Kolkata"), whatever zone the
// admin's own browser is in. `datetime-local` inputs hold "YYYY-MM-DDTHH:mm" with no zone; these helpers turn that
// into an instant and back with Intl, which knows each zone's offsets and daylight-saving rules.

/** Zones offered when planning a drive; the default first. */
export const DRIVE_TIME_ZONES = [
  "Asia/Kolkata",
  "Asia/Dubai",
  "Asia/Singapore",
  "Asia/Tokyo",
  "Australia/Sydney",
  "Europe/London",
  "Europe/Berlin",
  "America/New_York",
  "America/Chicago",
  "America/Los_Angeles",
  "UTC",
] as const;

export const DEFAULT_DRIVE_TIME_ZONE = "Asia/Kolkata";

const DAY = 24 * 60 * 60 * 1000;

function wallClockParts(instant: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(instant);
  const value = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)?.value);
  return {
    year: value("year"),
    month: value("month"),
    day: value("day"),
    hour: value("hour"),
    minute: value("minute"),
    second: value("second"),
  };
}

/** How far the zone's wall clock is ahead of UTC at this instant, in milliseconds. */
function zoneOffset(instant: number, timeZone: string): number {
  const wall = wallClockParts(instant, timeZone);
  const wallAsUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return wallAsUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant (ISO, UTC) at which the zone's clocks show `local` ("YYYY-MM-DDTHH:mm"), or undefined when `local`
 * is not such a value.
 */
export function zonedLocalToIso(local: string, timeZone: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  // Zones change their offset at most once in any two days, so the offsets a day either side are the only ones
  // this wall time can have.
  const offsets = [zoneOffset(asUtc - DAY, timeZone), zoneOffset(asUtc + DAY, timeZone)];
  const shows = (instant: number) => isoToZonedLocal(new Date(instant).toISOString(), timeZone) === local;
  const candidates = offsets.map((offset) => asUtc - offset).filter(shows);
  // An hour that happens twice when clocks go back is read as its first time. An hour skipped when they go
  // forward is read with the offset from before the change (the smaller one): just after the change.
  const instant = candidates.length > 0 ? Math.min(...candidates) : asUtc - Math.min(...offsets);
  return new Date(instant).toISOString();
}

/** The zone's wall-clock time at `iso`, as a `datetime-local` value ("YYYY-MM-DDTHH:mm"). */
export function isoToZonedLocal(iso: string, timeZone: string): string {
  const wall = wallClockParts(Date.parse(iso), timeZone);
  const two = (value: number) => String(value).padStart(2, "0");
  return `${wall.year}-${two(wall.month)}-${two(wall.day)}T${two(wall.hour)}:${two(wall.minute)}`;
}

/** "23 Nov 2026, 18:05 (India Standard Time)": an instant as the people of the drive read it. */
export function formatInZone(iso: string, timeZone: string): string {
  const date = new Date(iso);
  const when = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(date);
  const zone = new Intl.DateTimeFormat("en-GB", { timeZone, timeZoneName: "long" })
    .formatToParts(date)
    .find((part) => part.type === "timeZoneName")?.value;
  return zone ? `${when} (${zone})` : when;
}
