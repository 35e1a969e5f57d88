// Applies the committed migrations. Several app instances may start at once against one external database,
// so the migration runs under a PostgreSQL advisory lock and the others wait, then find nothing to do.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type { DatabaseHandle } from "./client.ts";
import { ADVISORY_LOCKS } from "./locks.ts";

const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle");

export async function applyMigrations({ db, pool }: DatabaseHandle): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [ADVISORY_LOCKS.migrations]);
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [ADVISORY_LOCKS.migrations]).catch(() => {});
    client.release();
  }
}
