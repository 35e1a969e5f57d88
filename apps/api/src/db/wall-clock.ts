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
