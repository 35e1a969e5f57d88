// The dashboard's own query: the drives taking students right now. Its other figures are the results module's
// aggregates; nothing here reads a list row by row.
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";

/** Drives open at this moment (not archived, not closed, past their opening), the default drive last. */
export async function openDrivesNow(db: Executor) {
  const { rows } = await db.execute<{
    id: string;
    name: string;
    organisation: string;
    closes_at: Date | null;
    students: number;
    submitted: number;
  }>(sql`
    select d.id, d.name, d.organisation, d.closes_at,
           (select count(*)::int from students s where s.drive_id = d.id) as students,
           (select count(*)::int from attempts a where a.drive_id = d.id and a.submitted_at is not null) as submitted
    from drives d
    where d.archived_at is null and d.closed_at is null
      and (d.opens_at is null or d.opens_at <= now()) and (d.closes_at is null or d.closes_at > now())
    order by d.is_default, d.closes_at nulls last, d.name
    limit 20`);
  return rows.map((row) => ({
    _id: row.id,
    name: row.name,
    organisation: row.organisation,
    closesAt: row.closes_at ? new Date(row.closes_at).toISOString() : null,
    students: row.students,
    submitted: row.submitted,
  }));
}
