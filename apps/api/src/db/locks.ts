// PostgreSQL advisory locks: what instances starting or changing things at the same moment take turns on. Each
// lock has one key, named here, so no two jobs share one by accident.
import { sql } from "drizzle-orm";
import type { Executor } from "./client.ts";

export const ADVISORY_LOCKS = {
  /** Applying migrations: the first instance to start migrates, the others wait and find nothing to do. */
  migrations: 727_001,
  /** Creating the first admin: instances starting together on an empty database create one, not several. */
  firstAdmin: 727_002,
  /** Seeding demo content into an empty database. */
  demoContent: 727_003,
  /** Changing an admin's role or status: two owners demoting each other take turns, so one keeps the last owner. */
  owners: 727_016,
} as const;

/** Takes `lock` until the surrounding transaction ends (`tx` must be a transaction). */
export async function lockUntilCommit(tx: Executor, lock: keyof typeof ADVISORY_LOCKS): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ADVISORY_LOCKS[lock]})`);
}
