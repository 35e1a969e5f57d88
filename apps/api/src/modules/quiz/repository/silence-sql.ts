// When a candidate's page was last heard from, and when its silence holds its attempt open (decision 040), written
// once for the heartbeat (disconnects.ts), the sweep and every close of an attempt (closeIfOverdue).

import { settledSql } from "../../drives/key-release.ts";
import { clockColumns, runsOutAtSql } from "./clock-sql.ts";

/**
 * When the student of attempt `attempt` was last heard from on its own row: its last heartbeat, its start, its open
 * question or section's start, a reload. Every other change of the student's is in the attempt's questions
 * (lastHeardSql).
 */
export function heardOnRowSql(attempt: string): string {
  return `greatest(${attempt}.last_contact_at, ${attempt}.started_at, ${attempt}.current_started_at,
    ${attempt}.reloaded_at)`;
}

/** When the student of attempt `attempt` was last heard from, answers saved and questions opened included. */
export function lastHeardSql(attempt: string): string {
  return `greatest(${heardOnRowSql(attempt)}, (select max(greatest(q.answered_at, q.visited_at))
    from attempt_questions q where q.attempt_id = ${attempt}.id))`;
}

/**
 * Attempt `attempt` of drive `drive` is held open for its lost connection at `now` (decision 040): the drive gives
 * time back, the page fell silent beyond the grace before the open section's time ran out, and the time it could
 * still be given has not run out since (nor has the drive's closing that ends attempts come, nor has the drive
 * settled, when its key may be out). Nothing closes it or moves it on meanwhile: heard again, it gets the silence
 * back (disconnectCredit) and goes on where it stood; never heard again, it closes once that time has passed.
 */
export function silenceHoldsSql(attempt: string, drive: string, now: string): string {
  const runsOutAt = runsOutAtSql(clockColumns(attempt));
  const left = `make_interval(secs => ${drive}.disconnect_credit_minutes * 60 - ${attempt}.credited_seconds)`;
  return `(${drive}.disconnect_grace_seconds is not null
    and ${attempt}.credited_seconds < ${drive}.disconnect_credit_minutes * 60
    and ${heardOnRowSql(attempt)} + make_interval(secs => ${drive}.disconnect_grace_seconds) < ${runsOutAt}
    and ${now} < ${runsOutAt} + ${left}
    and (not ${drive}.closing_ends_attempts or ${now} < coalesce(${drive}.closed_at, ${drive}.closes_at, 'infinity'))
    and not ${settledSql(drive)})`;
}
