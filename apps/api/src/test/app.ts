// An app on its own fresh database for one test file, driven with app.inject().
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll } from "vitest";
import { buildApp, type ServerTimeouts } from "../app.ts";
import { type Config, loadConfig } from "../config.ts";
import { connectDatabase, type DatabaseHandle } from "../db/client.ts";
import { createTestDatabase } from "./database.ts";

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
}

export async function createTestApp(
  overrides: Partial<Config> & {
    webClientDir?: string;
    timeouts?: Partial<ServerTimeouts>;
    /** Logs are off in tests unless a test reads them from this stream. */
    logStream?: NodeJS.WritableStream;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const { webClientDir, timeouts, logStream, ...configOverrides } = overrides;
  // A key of its own per test file, so no test writes a key file into the working folder's DATA_DIR.
  const jwtSecret = randomBytes(32).toString("base64url");
  const config: Config = { ...loadConfig({}), jwtSecret, ...configOverrides, databaseUrl: database.url };
  const app = await buildApp({
    config,
    db: database.db,
    logger: logStream !== undefined,
    logStream,
    webClientDir,
    timeouts,
  });
  await app.ready();
  afterAll(() => app.close());
  return { app, database, config };
}

/**
 * Another instance of the same app on the same database, with a pool of its own: two instances behind a load
 * balancer. The pool is what `second.db.$client` holds.
 */
export async function createSecondInstance(
  first: TestApp,
): Promise<{ app: FastifyInstance; database: DatabaseHandle }> {
  const database = connectDatabase(first.config.databaseUrl as string, { max: 5 });
  const app = await buildApp({ config: first.config, db: database.db, logger: false });
  await app.ready();
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  return { app, database };
}
