// A time as the clocks of a drive's place show it, written by PostgreSQL for the exports (decision 027).
import { sql } from "drizzle-orm";

/**
 * SQL for "2026-11-23 18:05:09": the wall clock of the zone `timeZone` (a column naming an IANA zone) at the
 * timestamptz `instant`, as a spreadsheet reads a date and time. A timestamp in UTC put an evening exam in India
 * on the wrong day; an export gives the zone in a column of its own. Written by PostgreSQL, which knows the zones'
 * rules too: formatting each of an export's rows with Intl in Node doubled the export's CPU time (cost.test.ts).
 */
export function wallClockSql(instant: string, timeZone: string) {
  return sql.raw(`to_char(${instant} at time zone ${timeZone}, 'YYYY-MM-DD HH24:MI:SS')`);
}

/**
 * SQL for "2026-11-23T12:35:09.123Z": the timestamptz `instant` in UTC as `Date.prototype.toISOString` writes it
 * (milliseconds, the rest cut off as a Date parsed from PostgreSQL cuts it), for a list PostgreSQL writes as the
 * contract names it (wall-clock.test.ts pins the two together).
 */
export function isoInstantSql(instant: string) {
  return sql.raw(`to_char(${instant} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
}
