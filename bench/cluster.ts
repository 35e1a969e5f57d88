// `npm run test:cluster`: the product as docs/deploy.md deploys it, under real failures. A fresh database and role
// on the machine's PostgreSQL (CLUSTER_POSTGRES_URL), three instances of the built product sharing one
// JWT_SECRET, and Debian's nginx running the shipped deploy/nginx/trainwise.conf in front of them. A paced campus
// drive goes through nginx while one instance is killed with -9 and restarted, and later another is sent SIGTERM
// (it drains) and restarted, as a rolling restart does. Wrong admin passwords sent through nginx, spread over
// the instances, must be limited as one. A drive paused through one instance and resumed through another must stop
// and restart its candidate's clock on the third. Exits 1 when an acknowledged answer is lost, when more requests fail
// than were in flight on the killed instance, when the draining instance drops a request or does not exit
// cleanly in time, or when the login limit does not hold. CLUSTER_SHORT=1 runs a smaller drive (CI).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { ensureDebianTools } from "../scripts/debian-tools.ts";
import { freePort } from "../scripts/local-tools.ts";
import { type RunningProduct, startProduct } from "../scripts/product-process.ts";
import { type PacedDriveReport, printPacedReport, runPacedDrive } from "./paced-drive.ts";
import { pauseAcrossInstances } from "./pause-across-instances.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const clientDir = path.join(root, "apps/web/build/client");
const SHIPPED_SITE = path.join(root, "deploy/nginx/trainwise.conf");

const SHORT = process.env.CLUSTER_SHORT === "1";
const STUDENTS = Number(process.env.CLUSTER_STUDENTS ?? (SHORT ? 80 : 300));
const ARRIVAL_SECONDS = Number(process.env.CLUSTER_ARRIVAL_SECONDS ?? (SHORT ? 20 : 60));
const THINK_MS = Number(process.env.CLUSTER_THINK_MS ?? (SHORT ? 600 : 1500));
/** Seconds into the drive when the first instance is killed, and when the second is drained. */
const KILL_AT = Number(process.env.CLUSTER_KILL_AT ?? (SHORT ? 10 : 25));
const DRAIN_AT = Number(process.env.CLUSTER_DRAIN_AT ?? (SHORT ? 22 : 60));
/** The product's promise: a drained instance exits within 10 s (systemd's TimeoutStopSec=15 kills it after). */
const DRAIN_EXIT_MS = 10_000;
const POSTGRES_URL = process.env.CLUSTER_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ADMIN = { username: "cluster-admin", password: "cluster test admin password" };
/** Where the login-limit clients connect from: loopback addresses of their own, so nginx sees distinct clients. */
const GUESSER = "127.0.0.2";
const BYSTANDER = "127.0.0.3";
const INSTANCES = 3;
/** Slow requests sent straight to the instance about to be drained, so that some are in flight at SIGTERM. */
const IN_FLIGHT_LOGINS = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const since = (start: number) => `${((Date.now() - start) / 1000).toFixed(1)} s`;

// ---- the database: a role that owns one database and nothing more, as docs/deploy.md creates it ----

interface Database {
  url: string;
  drop(): Promise<void>;
}

async function createDatabase(): Promise<Database> {
  const name = `trainwise_cluster_${process.pid}`;
  const password = randomBytes(18).toString("base64url");
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`create role ${name} login password '${password}'`);
    await admin.query(`create database ${name} owner ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_URL);
  url.username = name;
  url.password = password;
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
        await client.query(`drop role if exists ${name}`);
      } finally {
        await client.end();
      }
    },
  };
}

// ---- nginx with the shipped site file ----

/**
 * The shipped site file with only what must differ here: the instances' ports, the listen address, the build
 * folder and the access log. Each is replaced exactly once, so a change to those lines fails the test loudly
 * instead of testing something else.
 */
function renderSite(ports: number[], listenPort: number, logFile: string): string {
  let site = fs.readFileSync(SHIPPED_SITE, "utf8");
  const replace = (pattern: RegExp, replacement: string) => {
    const matches = site.match(new RegExp(pattern.source, "gm"))?.length ?? 0;
    if (matches !== 1) throw new Error(`deploy/nginx/trainwise.conf: expected one ${pattern} line, found ${matches}`);
    site = site.replace(new RegExp(pattern.source, "m"), replacement);
  };
  ports.forEach((port, index) => {
    replace(new RegExp(`^(\\s*server )127\\.0\\.0\\.1:${3001 + index}( )`), `$1127.0.0.1:${port}$2`);
  });
  replace(/^(\s*listen )80;/, `$1127.0.0.1:${listenPort};`);
  replace(/^(\s*root )\/opt\/trainwise\/apps\/web\/build\/client;/, `$1${clientDir};`);
  replace(/^(\s*access_log )\/var\/log\/nginx\/trainwise\.access\.log( trainwise;)/, `$1${logFile}$2`);
  if (/^\s*server 127\.0\.0\.1:300\d/m.test(site))
    throw new Error("deploy/nginx/trainwise.conf lists more instances than 3");
  return site;
}

const anAsset = () => fs.readdirSync(path.join(clientDir, "assets")).find((name) => name.endsWith(".js"));

interface RunningNginx {
  url: string;
  logFile: string;
  stop(): Promise<void>;
}

async function startNginx(dir: string, ports: number[]): Promise<RunningNginx> {
  const listenPort = await freePort();
  const logFile = path.join(dir, "access.log");
  fs.writeFileSync(path.join(dir, "trainwise.conf"), renderSite(ports, listenPort, logFile));
  // Debian's /etc/nginx/nginx.conf, less what needs root's paths (pid, logs, temporary files) and TLS.
  fs.writeFileSync(
    path.join(dir, "nginx.conf"),
    `worker_processes auto;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 768; }
http {
  sendfile on;
  tcp_nopush on;
  types_hash_max_size 2048;
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  gzip on;
  client_body_temp_path ${dir}/client-body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/trainwise.conf;
}
`,
  );
  const config = path.join(dir, "nginx.conf");
  const test = spawnSync("nginx", ["-t", "-c", config], { encoding: "utf8" });
  if (test.status !== 0) throw new Error(`nginx -t refused the configuration:\n${test.stderr}`);
  const child: ChildProcess = spawn("nginx", ["-c", config, "-g", "daemon off;"], { stdio: "ignore" });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const url = `http://127.0.0.1:${listenPort}`;
  for (let tries = 0; ; tries++) {
    try {
      // A file nginx serves itself: asking the instances now, before they run, would mark them failed.
      await fetch(`${url}/assets/${anAsset()}`);
      break;
    } catch (error) {
      if (tries > 50 || child.exitCode !== null) {
        throw new Error(`nginx did not start: ${error}\n${fs.readFileSync(path.join(dir, "error.log"), "utf8")}`);
      }
      await sleep(100);
    }
  }
  return {
    url,
    logFile,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * What the site file promises besides proxying: hashed assets from disk, precompressed and cached for a year;
 * pages from the app, with their script-hash Content-Security-Policy; an asset nginx lacks asked of the app.
 */
async function checkStaticFiles(url: string): Promise<string[]> {
  const problems: string[] = [];
  const asset = anAsset();
  const fromDisk = await fetch(`${url}/assets/${asset}`, { headers: { "accept-encoding": "gzip" } });
  await fromDisk.arrayBuffer();
  const cacheControl = fromDisk.headers.get("cache-control") ?? "";
  if (fromDisk.status !== 200 || !cacheControl.includes("immutable") || !cacheControl.includes("max-age=31536000")) {
    problems.push(`/assets/${asset}: ${fromDisk.status}, Cache-Control "${cacheControl}"`);
  }
  // fetch undoes the gzip, so the header tells whether nginx sent the .gz copy.
  if (fromDisk.headers.get("content-encoding") !== "gzip") problems.push(`/assets/${asset} was not sent gzipped`);
  const page = await fetch(`${url}/`);
  await page.arrayBuffer();
  if (page.status !== 200 || !/script-src 'self' 'sha256-/.test(page.headers.get("content-security-policy") ?? "")) {
    problems.push(`/: ${page.status} without the app's script-hash Content-Security-Policy`);
  }
  const missing = await fetch(`${url}/assets/not-in-this-build.js`);
  await missing.arrayBuffer();
  if (missing.status !== 404 || !missing.headers.get("content-security-policy")) {
    problems.push(`a missing asset was not passed to the app (${missing.status})`);
  }
  return problems;
}

// ---- the instances ----

function instanceEnv(databaseUrl: string, jwtSecret: string, siteUrl: string, port: number) {
  return {
    // What /etc/trainwise/trainwise.env holds in docs/deploy.md, plus PORT, which the unit's instance name gives.
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: "10",
    JWT_SECRET: jwtSecret,
    TRUST_PROXY: "127.0.0.1",
    SITE_URL: siteUrl,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: "warn",
    PORT: String(port),
    // Only for the test: demo questions for the drive to answer, and every student arrives from one address.
    SEED_DEMO: "true",
    REGISTRATION_RATE_LIMIT: "1000000",
  };
}

async function waitReady(url: string, within = 30_000): Promise<void> {
  const until = Date.now() + within;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${url}/api/health/ready`)).status === 200) return;
    } catch {}
    await sleep(100);
  }
  throw new Error(`${url}/api/health/ready did not answer 200 within ${within / 1000} s`);
}

// ---- the login limit through nginx ----

interface LoginReply {
  status: number;
  retryAfter: string | undefined;
  /** The device cookie a right password is answered with, as a `name=value` pair for a Cookie header. */
  deviceCookie: string | undefined;
}

/**
 * One admin login at `url`: from `localAddress` on a connection of its own unless an agent is given (each try of
 * the guesser is then a new client socket, as a browser's would be after a while).
 */
function login(
  url: string,
  password: string,
  options: { localAddress?: string; headers?: Record<string, string>; agent?: http.Agent } = {},
): Promise<LoginReply> {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ username: ADMIN.username, password });
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: hostname,
        port,
        localAddress: options.localAddress,
        method: "POST",
        path: "/api/auth/admin/login",
        agent: options.agent ?? false,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          ...options.headers,
        },
      },
      (response) => {
        response.resume();
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: response.headers["retry-after"] as string,
            deviceCookie: response.headers["set-cookie"]?.[0]?.split(";")[0],
          }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** How the requests in flight on an instance when it got SIGTERM ended. */
interface InFlight {
  sent: number;
  /** Answered after the signal, so they were still in flight when it came. */
  answeredAfter: number;
  ok: number;
  failures: string[];
}

/**
 * Sends `count` right-password logins straight to the instance (argon2 makes each take tens of milliseconds on
 * the thread pool) on keep-alive connections opened beforehand, so that they are being worked on when `signal`
 * is sent; the drain must answer every one of them. They carry the admin's device cookie, as a browser that signed
 * in before does: without it, an address may have only a few passwords checked at once and the rest are refused.
 */
async function inFlightAtSignal(url: string, count: number, signal: () => void): Promise<InFlight> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: count });
  try {
    const { deviceCookie } = await login(url, ADMIN.password);
    if (!deviceCookie) throw new Error("a right password was answered without a device cookie");
    // Open the connections first: a request on a brand-new connection could meet the closing listener instead.
    await Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<void>((resolve, reject) =>
            http
              .get(`${url}/api/health/live`, { agent }, (response) => response.resume().on("end", resolve))
              .on("error", reject),
          ),
      ),
    );
    let signalledAt = Number.POSITIVE_INFINITY;
    const replies = Array.from({ length: count }, () =>
      login(url, ADMIN.password, { agent, headers: { cookie: deviceCookie } }).then(
        (reply) => ({ ...reply, at: Date.now() }),
        (error: Error) => ({ status: 0, retryAfter: error.message, at: Date.now() }),
      ),
    );
    await sleep(20);
    signalledAt = Date.now();
    signal();
    const settled = await Promise.all(replies);
    return {
      sent: count,
      answeredAfter: settled.filter((reply) => reply.at > signalledAt).length,
      ok: settled.filter((reply) => reply.status === 200).length,
      failures: settled
        .filter((reply) => reply.status !== 200)
        .map((reply) => `${reply.status} ${reply.retryAfter ?? ""}`),
    };
  } finally {
    agent.destroy();
  }
}

// ---- nginx's access log: which instance got each request, and how each attempt went ----

interface Attempt {
  address: string;
  status: number | undefined;
  sent: number;
  received: number;
}

interface LogLine {
  client: string;
  request: string;
  status: number;
  startMs: number;
  endMs: number;
  attempts: Attempt[];
}

const LOG_LINE =
  /^(\S+) \[[^\]]*\] "([^"]*)" (\d{3}) \d+ ([\d.]+) ([\d.]+) upstream="([^"]*)" upstream_status="([^"]*)" upstream_sent="([^"]*)" upstream_received="([^"]*)" xff="[^"]*"$/;

function readLog(file: string): LogLine[] {
  const lines: LogLine[] = [];
  for (const text of fs.readFileSync(file, "utf8").split("\n")) {
    if (!text) continue;
    const match = LOG_LINE.exec(text);
    if (!match) throw new Error(`unexpected access log line: ${text}`);
    const [, client, request, status, requestTime, msec, addresses, statuses, sent, received] = match;
    // Several attempts are listed with ", "; " : " separates the attempts before and after an internal redirect.
    const list = (value = "") => value.split(/, | : /);
    const statusList = list(statuses);
    const sentList = list(sent);
    const receivedList = list(received);
    const endMs = Number(msec) * 1000;
    lines.push({
      client: client ?? "",
      request: request ?? "",
      status: Number(status),
      startMs: endMs - Number(requestTime) * 1000,
      endMs,
      attempts:
        addresses === "" || addresses === "-"
          ? []
          : list(addresses).map((address, index) => ({
              address,
              status: Number(statusList[index]) || undefined,
              sent: Number(sentList[index]) || 0,
              received: Number(receivedList[index]) || 0,
            })),
    });
  }
  return lines;
}

// ---- the run ----

interface Event {
  port: number;
  atMs: number;
  /** When the restarted instance answered ready again. */
  backMs: number;
}

const cleanups: (() => Promise<void>)[] = [];
let cleanedUp = false;
async function cleanUp() {
  if (cleanedUp) return;
  cleanedUp = true;
  for (const cleanup of cleanups.reverse()) {
    await cleanup().catch((error) => console.error(`cleanup: ${error}`));
  }
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the instances and nginx, dropping the database`);
    void cleanUp().then(() => process.exit(1));
  });
}

const failures: string[] = [];
const check = (ok: boolean, failure: string) => {
  if (!ok) failures.push(failure);
};

async function main() {
  if (!fs.existsSync(path.join(clientDir, "__spa-fallback.html"))) {
    throw new Error("no web build in apps/web/build/client: run npm run build first");
  }
  if (!ensureDebianTools({ nginx: "nginx" })) throw new Error("nginx is needed");
  const started = Date.now();

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-cluster-"));
  // nginx's workers (user nobody) create their temporary folders in here.
  fs.chmodSync(dir, 0o755);
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));

  const database = await createDatabase();
  cleanups.push(() => database.drop());

  const ports = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
  const nginx = await startNginx(path.join(dir), ports);
  cleanups.push(() => nginx.stop());

  const jwtSecret = randomBytes(48).toString("base64");
  const dataDirs = ports.map((port) => {
    const dataDir = path.join(dir, `data-${port}`);
    fs.mkdirSync(dataDir);
    return dataDir;
  });
  const envFor = (port: number) => instanceEnv(database.url, jwtSecret, nginx.url, port);
  const instances: (RunningProduct | undefined)[] = [];
  cleanups.push(async () => {
    await Promise.all(
      instances.map(async (instance) => {
        if (!instance) return;
        const stopped = instance.terminate();
        if (!(await Promise.race([stopped.then(() => true), sleep(15_000).then(() => false)]))) await instance.crash();
      }),
    );
  });
  // Started together, as `systemctl start trainwise@3001 trainwise@3002 trainwise@3003` does: one applies the
  // migrations and creates the admin, the others wait on its lock.
  await Promise.all(
    ports.map(async (port, index) => {
      instances[index] = await startProduct(envFor(port), dataDirs[index]);
    }),
  );
  await waitReady(nginx.url);
  console.log(
    `${INSTANCES} instances on ports ${ports.join(", ")} behind nginx at ${nginx.url}, ` +
      `database ${new URL(database.url).pathname.slice(1)} (${since(started)})`,
  );

  const staticProblems = await checkStaticFiles(nginx.url);
  check(staticProblems.length === 0, `nginx's static files: ${staticProblems.join("; ")}`);

  // Three wrong passwords now, three after the failures: the counters must outlive instances being restarted.
  const guesses: LoginReply[] = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    guesses.push(await login(nginx.url, `wrong password number ${attempt}`, { localAddress: GUESSER }));
  }

  const [killedPort, drainedPort] = [ports[0] as number, ports[1] as number];
  console.log(
    `paced drive: ${STUDENTS} students arriving over ${ARRIVAL_SECONDS} s, thinking ${THINK_MS} ms a question; ` +
      `kill -9 :${killedPort} at ${KILL_AT} s, SIGTERM :${drainedPort} at ${DRAIN_AT} s`,
  );
  const driveStarted = Date.now();
  let driveDone = false;
  const drive = runPacedDrive({
    baseUrl: nginx.url,
    students: STUDENTS,
    arrivalSeconds: ARRIVAL_SECONDS,
    thinkMs: THINK_MS,
    retries: 3,
    label: "cluster",
  }).finally(() => {
    driveDone = true;
  });

  // (a) a crash: kill -9, then start it again on the same port, as systemd's Restart=on-failure would.
  await Promise.race([drive, sleep(driveStarted + KILL_AT * 1000 - Date.now())]);
  check(!driveDone, `the drive ended before the kill at ${KILL_AT} s: lengthen it`);
  const killed: Event = { port: killedPort, atMs: Date.now(), backMs: 0 };
  await instances[0]?.crash();
  console.log(`  ${since(driveStarted)}  kill -9 the instance on :${killedPort}`);
  instances[0] = await startProduct(envFor(killedPort), dataDirs[0]);
  await waitReady(instances[0].baseUrl);
  killed.backMs = Date.now();
  console.log(`  ${since(driveStarted)}  :${killedPort} ready again`);

  // (b) a rolling restart's step: SIGTERM (what systemctl restart sends), wait for the exit, start again.
  await Promise.race([drive, sleep(driveStarted + DRAIN_AT * 1000 - Date.now())]);
  check(!driveDone, `the drive ended before the drain at ${DRAIN_AT} s: lengthen it`);
  const drained: Event = { port: drainedPort, atMs: Date.now(), backMs: 0 };
  const draining = instances[1] as RunningProduct;
  const exiting: { exit?: ReturnType<RunningProduct["terminate"]> } = {};
  const inFlight = await inFlightAtSignal(draining.baseUrl, IN_FLIGHT_LOGINS, () => {
    drained.atMs = Date.now();
    exiting.exit = draining.terminate();
  });
  console.log(
    `  ${((drained.atMs - driveStarted) / 1000).toFixed(1)} s  SIGTERM the instance on :${drainedPort} with ${inFlight.answeredAfter} slow requests in flight`,
  );
  const exit = await Promise.race([exiting.exit, sleep(DRAIN_EXIT_MS + 5_000).then(() => undefined)]);
  const drainMs = Date.now() - drained.atMs;
  if (!exit) await draining.crash();
  console.log(
    `  ${since(driveStarted)}  :${drainedPort} exited ${exit ? `with code ${exit.code ?? exit.signal}` : "not at all (killed)"} ` +
      `after ${(drainMs / 1000).toFixed(1)} s`,
  );
  check(
    exit?.code === 0 && drainMs <= DRAIN_EXIT_MS,
    `the drained instance did not exit cleanly within ${DRAIN_EXIT_MS / 1000} s (${exit ? `code ${exit.code ?? exit.signal}` : "still running"} after ${(drainMs / 1000).toFixed(1)} s):\n${draining.output().slice(-2000)}`,
  );
  instances[1] = await startProduct(envFor(drainedPort), dataDirs[1]);
  await waitReady(instances[1].baseUrl);
  drained.backMs = Date.now();
  console.log(`  ${since(driveStarted)}  :${drainedPort} ready again`);
  check(!driveDone, "the drive ended before the drained instance was back: lengthen it");
  check(
    inFlight.ok === inFlight.sent,
    `the draining instance failed requests it had in flight: ${inFlight.failures.join(", ")}`,
  );
  check(
    inFlight.answeredAfter > 0,
    `none of the ${inFlight.sent} slow requests was still in flight at SIGTERM, so the drain check proved nothing`,
  );

  const report: PacedDriveReport = await drive;
  console.log(`  ${since(driveStarted)}  drive finished\n`);

  // (c) a drive paused through one instance and resumed through another, its candidate on the third.
  const urls = instances.map((instance) => instance?.baseUrl) as [string, string, string];
  const pause = await pauseAcrossInstances(urls, ADMIN).catch((error: unknown) => {
    failures.push(`pause across instances: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  });

  for (let attempt = 4; attempt <= 6; attempt++) {
    guesses.push(await login(nginx.url, `wrong password number ${attempt}`, { localAddress: GUESSER }));
  }
  // The same client again, claiming another address in X-Forwarded-For: nginx appends the real one, which the
  // app takes, so it is still held back.
  const forged = await login(nginx.url, "wrong password number 7", {
    localAddress: GUESSER,
    headers: { "x-forwarded-for": "198.51.100.7" },
  });
  // Another client is never held back by the first one's failures.
  const bystander = await login(nginx.url, "wrong password number 1", { localAddress: BYSTANDER });

  // Let nginx write its last lines before reading them.
  await sleep(200);
  const log = readLog(nginx.logFile);
  const addressOf = (port: number) => `127.0.0.1:${port}`;
  const overlaps = (line: LogLine, event: Event) => line.endMs >= event.atMs && line.startMs <= event.backMs + 5_000;
  let refused = 0;
  let inFlightOnKilled = 0;
  const droppedByDrained: string[] = [];
  // The instance's answer (none: the connection failed), then what nginx answered the client after any retry.
  const describe = (line: LogLine, attempt: Attempt) =>
    `${line.request} → ${attempt.address} ${attempt.status ?? "no answer"} (${attempt.sent} bytes sent), client got ${line.status}`;
  let finishedWhileDraining = 0;
  const unexpected: string[] = [];
  const driveLines = log.filter((line) => line.client === "127.0.0.1" && !line.request.includes(" /api/health"));
  for (const line of driveLines) {
    for (const attempt of line.attempts) {
      const failed = attempt.status === undefined || attempt.status >= 502;
      if (
        !failed &&
        attempt.address === addressOf(drainedPort) &&
        line.startMs <= drained.atMs &&
        line.endMs >= drained.atMs
      ) {
        finishedWhileDraining++;
      }
      if (!failed) continue;
      // Never reached the instance (connection refused while it was down or had closed its listener): nginx
      // tried the next one, whatever the method.
      if (attempt.sent === 0) refused++;
      else if (attempt.address === addressOf(killedPort) && overlaps(line, killed)) inFlightOnKilled++;
      else if (attempt.address === addressOf(drainedPort) && overlaps(line, drained)) {
        droppedByDrained.push(describe(line, attempt));
      } else unexpected.push(describe(line, attempt));
    }
  }
  const guessLines = log.filter((line) => line.client === GUESSER && line.request.includes("/admin/login"));
  const guessedInstances = new Set(guessLines.slice(0, 6).map((line) => line.attempts.at(-1)?.address));

  const errors = [...report.errors.values()].reduce((sum, count) => sum + count, 0);
  console.log(`cluster: ${INSTANCES} instances behind nginx, ${SHORT ? "short" : "full"} run`);
  printPacedReport(report);
  console.log(`  through nginx       ${driveLines.length} requests of the drive`);
  console.log(
    `  static files        ${staticProblems.length === 0 ? "assets from disk (gzip, immutable); pages and a missing asset from the app" : staticProblems.join("; ")}`,
  );
  console.log(
    `  kill -9 :${killedPort}      ${inFlightOnKilled} requests in flight on it failed there; ${refused} attempts ` +
      "refused while an instance was down or draining, passed to another",
  );
  console.log(
    `  SIGTERM :${drainedPort}      exited after ${(drainMs / 1000).toFixed(1)} s; slow requests in flight at the signal ` +
      `${inFlight.answeredAfter} (answered ${inFlight.ok} of ${inFlight.sent} sent); drive requests in flight ` +
      `there at the signal and answered ${finishedWhileDraining}, dropped ${droppedByDrained.length}`,
  );
  console.log(
    `  login limit         wrong passwords 1–6 from ${GUESSER}: ${guesses.map((guess) => guess.status).join(" ")} ` +
      `(Retry-After ${guesses[5]?.retryAfter ?? "none"}), over ${guessedInstances.size} instances; ` +
      `forged X-Forwarded-For ${forged.status}; from ${BYSTANDER} ${bystander.status}`,
  );
  if (pause) {
    console.log(
      `  pause               refused on another instance ${pause.refusedAfterMs} ms after the pause; taken again ` +
        `${pause.takenAfterMs} ms after the resume; ${pause.secondsLeftBefore} s left before a ` +
        `${(pause.pausedMs / 1000).toFixed(1)} s pause, ${pause.secondsLeftAfter} s after`,
    );
  }
  console.log(`  errors allowed      ${inFlightOnKilled} (in flight on the killed instance); errors ${errors}`);
  console.log(`  answers lost        ${report.lostAnswers} of ${report.acknowledgedAnswers} acknowledged`);
  console.log(`  duration            ${since(started)}`);

  check(report.lostAnswers === 0, `${report.lostAnswers} acknowledged answers were lost`);
  check(report.completed > 0, "no student completed the drive");
  check(
    errors <= inFlightOnKilled,
    `${errors} requests failed, more than the ${inFlightOnKilled} in flight on the killed instance`,
  );
  check(
    droppedByDrained.length === 0,
    `the draining instance dropped ${droppedByDrained.length} requests it had been sent:\n    ${droppedByDrained.slice(0, 20).join("\n    ")}`,
  );
  check(
    unexpected.length === 0,
    `instances failed requests outside the kill and the drain:\n    ${unexpected.slice(0, 20).join("\n    ")}`,
  );
  check(
    guesses.slice(0, 5).every((guess) => guess.status === 401) && guesses[5]?.status === 429,
    `the login limit did not hold across instances: wrong passwords 1–6 got ${guesses.map((guess) => guess.status).join(" ")}, expected 401 ×5 then 429`,
  );
  check(guessedInstances.size >= 2, `the wrong passwords all went to one instance, so the check proved nothing`);
  check(forged.status === 429, `a forged X-Forwarded-For slipped past the login limit (${forged.status})`);
  check(bystander.status === 401, `another client was held back by the first one's failures (${bystander.status})`);
  if (failures.length > 0) {
    const errorLog = fs.readFileSync(path.join(dir, "error.log"), "utf8").trim().split("\n").slice(-15);
    console.log(`\nnginx's error log, last lines:\n  ${errorLog.join("\n  ")}`);
    for (const line of log.filter((entry) => entry.status >= 500 || entry.client !== "127.0.0.1").slice(0, 30)) {
      console.log(
        `  ${line.client} ${line.request} ${line.status} ${line.attempts.map((a) => `${a.address}=${a.status ?? "-"}/${a.sent}`).join(" ")}`,
      );
    }
  }
}

try {
  await main();
} catch (error) {
  failures.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  await cleanUp();
}
if (failures.length > 0) {
  console.error(`\nFAILED:\n${failures.map((failure) => `  - ${failure}`).join("\n")}`);
  process.exitCode = 1;
} else {
  console.log("\npassed");
}
// The drive's connections may still hold timers after a failure; the verdict is in.
process.exit();
