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

  // One per project (the cost suite runs as a project of its own), so two setups on one server never share it.
  const templateDatabase = `trainwise_template_${process.pid}_${project.name.replaceAll(/\W/g, "_")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${templateDatabase} with (force)`);
  await admin.query(`create database ${templateDatabase}`);
  const template = connectDatabase(databaseUrlFor(serverUrl, templateDatabase), { max: 2 });
  await applyMigrations(template);
  await template.close();

  project.provide("serverUrl", serverUrl);
  project.provide("templateDatabase", templateDatabase);
  // Each watched log (test/log-watch.ts) and its file's marks, searched together once every file of every project
  // has run: a value one project's file marked (the cost suite's) is looked for in the other project's logs too.
  const logWatchDir = sharedLogWatchDir();
  project.provide("logWatchDir", logWatchDir);

  return async () => {
    const leaks = releaseLogWatchDir(logWatchDir);
    await admin.query(`drop database if exists ${templateDatabase} with (force)`);
    await admin.end();
    await stopServer();
    if (leaks.length > 0) throw new Error(`A watched log holds values the tests marked:\n${leaks.join("\n")}`);
  };
}

/** The projects of this run whose setup holds the shared log folder; the last one to finish searches it. */
const runState = globalThis as { trainwiseLogWatch?: { dir: string; holders: number } };

function sharedLogWatchDir(): string {
  runState.trainwiseLogWatch ??= {
    dir: fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-test-logs-")),
    holders: 0,
  };
  runState.trainwiseLogWatch.holders++;
  return runState.trainwiseLogWatch.dir;
}

/** The leaks found, once the last project has let go of the folder (and the folder removed); none before. */
function releaseLogWatchDir(dir: string): string[] {
  const state = runState.trainwiseLogWatch;
  if (!state || --state.holders > 0) return [];
  runState.trainwiseLogWatch = undefined;
  const leaks = leaksInRun(dir);
  fs.rmSync(dir, { recursive: true, force: true });
  return leaks;
}
