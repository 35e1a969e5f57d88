// The connection pool and the typed Drizzle handle that every repository receives.
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "./schema.ts";

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  close(): Promise<void>;
}

export function connectDatabase(url: string, options: { max?: number } = {}): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 20, idleTimeoutMillis: 30_000 });
  // An idle client losing its server (a restart) must not crash the app; the next query reconnects.
  pool.on("error", () => {});
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

/**
 * A statement PostgreSQL parses and plans once per connection and then reuses, for the few statements a quiz
 * runs dozens of times per student (planning them took more time than running them).
 */
export interface NamedStatement {
  name: string;
  text: string;
}

export async function runNamed<Row extends pg.QueryResultRow>(
  db: Database,
  statement: NamedStatement,
  values: unknown[],
): Promise<Row[]> {
  const result = await db.$client.query<Row>({ name: statement.name, text: statement.text, values });
  return result.rows;
}

/** A transaction handle; repositories accept either so callers can group writes. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type Executor = Database | Transaction;
