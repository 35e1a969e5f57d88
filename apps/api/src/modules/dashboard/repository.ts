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
    with open as (
      select d.id, d.name, d.organisation, d.closes_at, d.is_default
      from drives d
      where d.archived_at is null and d.closed_at is null
        and (d.opens_at is null or d.opens_at <= now()) and (d.closes_at is null or d.closes_at > now())
      order by d.is_default, d.closes_at nulls last, d.name
      limit 20
    ),
    -- Counted by one pass over each table, grouped, rather than a look-up per row of each open drive.
    registered as (
      select drive_id, count(*)::int as n from students where drive_id in (select id from open) group by drive_id
    ),
    submitted as (
      select drive_id, count(*)::int as n from attempts
      where submitted_at is not null and drive_id in (select id from open) group by drive_id
    )
    select o.id, o.name, o.organisation, o.closes_at, coalesce(r.n, 0) as students, coalesce(s.n, 0) as submitted
    from open o
    left join registered r on r.drive_id = o.id
    left join submitted s on s.drive_id = o.id
    order by o.is_default, o.closes_at nulls last, o.name`);
  return rows.map((row) => ({
    _id: row.id,
    name: row.name,
    organisation: row.organisation,
    closesAt: row.closes_at ? new Date(row.closes_at).toISOString() : null,
    students: row.students,
    submitted: row.submitted,
  }));
}
