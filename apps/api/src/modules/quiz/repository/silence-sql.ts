// When a candidate's page was last heard from, and when its silence holds its attempt open (decision 040), written
// once for hearing the student (disconnects.ts), the sweep, every close of an attempt (closeIfOverdue) and when a
// drive settles (key-release.ts).

import { clockColumns, runsOutAtSql } from "./clock-sql.ts";

/**
 * When the student of attempt `attempt` was last heard from: every request they make while sitting a drive that
 * gives lost connections their time back writes it (last_contact_at), and until the first, the start.
 */
export function heardSql(attempt: string): string {
  return `greatest(${attempt}.last_contact_at, ${attempt}.started_at)`;
}

/** heardSql of the attempt `a`. */
export const HEARD_SQL = heardSql("a");

/**
 * Attempt `attempt` of drive `drive` may be held open for a lost connection: the drive gives time back, some is
 * still to give, and the page fell silent beyond the grace before the open section's time ran out.
 */
function holdableSql(attempt: string, drive: string, runsOutAt: string): string {
  return `(${drive}.disconnect_grace_seconds is not null
    and ${attempt}.credited_seconds < ${drive}.disconnect_credit_minutes * 60
    and ${heardSql(attempt)} + make_interval(secs => ${drive}.disconnect_grace_seconds) < ${runsOutAt})`;
}

/**
 * Until when a holdable attempt `attempt` of drive `drive` is held open (null when it is not holdable): until the
 * time it could still be given has run out past the open section's end, or the drive's closing that ends attempts.
 */
export function heldUntilSql(attempt: string, drive: string): string {
  const runsOutAt = runsOutAtSql(clockColumns(attempt));
  const closing = `case when ${drive}.closing_ends_attempts then coalesce(${drive}.closed_at, ${drive}.closes_at) end`;
  return `(case when ${holdableSql(attempt, drive, runsOutAt)} then least(
      ${runsOutAt} + make_interval(secs => ${drive}.disconnect_credit_minutes * 60 - ${attempt}.credited_seconds),
      ${closing}) end)`;
}

/**
 * Attempt `attempt` of drive `drive` stands held open for its lost connection at `now` (decision 040). Nothing closes
 * it or moves it on meanwhile, and its drive has not settled: heard again, it gets the silence back
 * (disconnectCredit) and goes on where it stood; never heard again, it closes once heldUntilSql has passed.
 */
export function silenceHoldsSql(attempt: string, drive: string, now: string): string {
  return `coalesce(${now} < ${heldUntilSql(attempt, drive)}, false)`;
}
