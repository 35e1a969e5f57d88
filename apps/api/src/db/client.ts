// The connection pool and the typed Drizzle handle that every repository receives.
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "./schema.ts";

/** The typed handle, and the pool under it (`$client`) for what needs a connection of its own. */
export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  close(): Promise<void>;
}

export function connectDatabase(url: string, options: { max: number }): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max,
    idleTimeoutMillis: 30_000,
    // No just-in-time compiling: the app's statements are short, and a list's estimate over PostgreSQL's threshold
    // (a drive's 3,000 results or live-board tallies) spent more compiling than running (400 vs 315 ms measured on
    // the machine's PostgreSQL 15; the embedded server has no JIT). Set per connection, not as a startup option,
    // which a pooler such as PgBouncer refuses, and before the connection is handed out: sent from the "connect"
    // event, it ran beside the first query, which pg warns of and its next major version refuses.
    // pg-pool awaits the promise the hook returns.
    onConnect: async (client) => {
      await client.query("set jit = off").catch(() => {});
    },
  });
  // An idle client losing its server (a restart) must not crash the app; the next query reconnects.
  pool.on("error", () => {});
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

/** Whether the pool's role is a PostgreSQL superuser, which an app should not need to be (decision 008). */
export async function connectedAsSuperuser(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ rolsuper: boolean }>(
    "select rolsuper from pg_roles where rolname = current_user",
  );
  return rows[0]?.rolsuper === true;
}

/**
 * SQL that PostgreSQL parses and plans once per connection and then reuses. The quiz runs its statements this
 * way: each runs dozens of times per student, and building and planning them cost more than running them.
 */
export interface NamedStatement {
  name: string;
  text: string;
}

/**
 * Runs a named statement on the pool or inside a transaction. Timestamps come back as PostgreSQL's text (as
 * with Drizzle's `execute`); the caller turns them into dates.
 */
export async function runNamed<Row>(db: Executor, statement: NamedStatement, values: unknown[]): Promise<Row[]> {
  const query = db._.session.prepareQuery<{ execute: pg.QueryResult; all: unknown; values: unknown }>(
    { sql: statement.text, params: values },
    undefined,
    statement.name,
    false,
  );
  const result = await query.execute();
  return result.rows as Row[];
}

/** A transaction handle; repositories accept either so callers can group writes. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type Executor = Database | Transaction;
