// A fresh database per test file, copied from the migrated template in one statement.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, inject } from "vitest";
import { connectDatabase, type DatabaseHandle } from "../db/client.ts";
import { databaseUrlFor } from "./database-url.ts";

/** A database copied from the migrated template, or with `{ empty: true }` one with no tables at all. */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<DatabaseHandle & { url: string }> {
  const serverUrl = inject("serverUrl");
  const name = `trainwise_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${options.empty ? "template0" : inject("templateDatabase")}`);
  const url = databaseUrlFor(serverUrl, name);
  const handle = connectDatabase(url, { max: 5 });
  afterAll(async () => {
    await handle.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  return { ...handle, url };
}
