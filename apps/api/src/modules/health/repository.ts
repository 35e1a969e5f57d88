// The health check's one question to the database.
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";

/** Resolves when the database answers a trivial query; rejects when it cannot be reached. */
export async function databaseAnswers(db: Executor): Promise<void> {
  await db.execute(sql`select 1`);
}
