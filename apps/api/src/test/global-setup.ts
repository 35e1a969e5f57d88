// Once per test run: a PostgreSQL server (embedded in a temporary folder, or the one in DATABASE_URL) and a
// template database with every migration applied. Each test file copies the template (see database.ts). After
// the run, the watched logs are searched for every file's marked values (log-watch.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { loadConfig } from "../config.ts";
import { connectDatabase } from "../db/client.ts";
import { startEmbeddedPostgres } from "../db/embedded-postgres.ts";
import { applyMigrations } from "../db/migrate.ts";
import { databaseUrlFor } from "./database-url.ts";
import { leaksInRun } from "./log-watch.ts";

declare module "vitest" {
  export interface ProvidedContext {
    serverUrl: string;
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject) {
  const { databaseUrl } = loadConfig();
  let serverUrl: string;
  let stopServer = async () => {};
  if (databaseUrl) {
    serverUrl = databaseUrl;
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-test-db-"));
    // The embedded server runs as the postgres user when tests run as root; it must reach its folder.
    fs.chmodSync(dataDir, 0o755);
    const embedded = await startEmbeddedPostgres(dataDir, () => {});
    serverUrl = embedded.superuserUrl;
    stopServer = async () => {
      await embedded.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
  }

  const templateDatabase = `trainwise_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${templateDatabase} with (force)`);
  await admin.query(`create database ${templateDatabase}`);
  const template = connectDatabase(databaseUrlFor(serverUrl, templateDatabase), { max: 2 });
  await applyMigrations(template);
  await template.close();

  project.provide("serverUrl", serverUrl);
  project.provide("templateDatabase", templateDatabase);
  // Each watched log (test/log-watch.ts) and its file's marks, searched together once every file has run.
  const logWatchDir = fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-test-logs-"));
  project.provide("logWatchDir", logWatchDir);

  return async () => {
    const leaks = leaksInRun(logWatchDir);
    fs.rmSync(logWatchDir, { recursive: true, force: true });
    await admin.query(`drop database if exists ${templateDatabase} with (force)`);
    await admin.end();
    await stopServer();
    if (leaks.length > 0) throw new Error(`A watched log holds values the tests marked:\n${leaks.join("\n")}`);
  };
}
