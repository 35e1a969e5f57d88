// The server as a user runs it: a real process on a temporary DATA_DIR with the embedded PostgreSQL, killed with
// -9, restarted, doubled and stopped with Ctrl-C (SIGINT).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { runningServer } from "./db/embedded-postgres.ts";

const serverScript = path.join(path.dirname(fileURLToPath(import.meta.url)), "server.ts");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-server-test-"));
fs.chmodSync(dataDir, 0o755);
const clusterDir = path.join(dataDir, "postgres");
const running: ChildProcess[] = [];

interface Started {
  child: ChildProcess;
  output: () => string;
  baseUrl: string;
}

function launch(env: Record<string, string> = {}) {
  // Without DATABASE_URL (CI sets it for the external run): this test is about the embedded database.
  const { DATABASE_URL: _external, ...inherited } = process.env;
  const child = spawn(process.execPath, [serverScript], {
    env: { ...inherited, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function start(env: Record<string, string> = {}): Promise<Started> {
  const launched = launch(env);
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const ready = launched.output().match(/ready: (http:\/\/localhost:\d+)/);
    if (ready?.[1]) return { child: launched.child, output: launched.output, baseUrl: ready[1] };
    if (launched.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`server did not start:\n${launched.output()}`);
}

async function query(sql: string, params: unknown[] = []) {
  const server = runningServer(clusterDir);
  if (!server) throw new Error("embedded PostgreSQL is not running");
  const password = fs.readFileSync(path.join(dataDir, "postgres-password"), "utf8");
  const client = new pg.Client({
    host: "127.0.0.1",
    port: server.port,
    user: "postgres",
    password,
    database: "trainwise",
  });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  for (const child of running) if (child.exitCode === null) child.kill("SIGINT");
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const leftOver = runningServer(clusterDir);
  if (leftOver) process.kill(leftOver.pid, "SIGINT");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the server process", () => {
  it("stops at start on a bad configuration value, naming the variable", async () => {
    const launched = launch({ PORT: "not-a-port" });
    expect(await launched.exited).toBe(1);
    expect(launched.output()).toContain("PORT must be a port number");
  });

  it("survives kill -9: the left-over database is handled and committed data is kept", {
    timeout: 120_000,
  }, async () => {
    const first = await start();
    expect(first.output()).toContain("created the first admin account");
    expect((await fetch(`${first.baseUrl}/api/health`)).status).toBe(200);
    const appSessions = await query(
      "select distinct usename from pg_stat_activity where datname = 'trainwise' and pid <> pg_backend_pid()",
    );
    expect(appSessions, "the app connects as its own role, not as the superuser").toEqual([
      { usename: "trainwise_app" },
    ]);
    for (const secret of ["postgres-password", "database-password", "token-signing-key"])
      expect((fs.statSync(path.join(dataDir, secret)).mode & 0o777).toString(8), secret).toBe("600");
    await query("insert into contact_enquiries (name, email, subject, phone, message) values ($1, $2, $3, $4, $5)", [
      "Before the crash",
      "crash@example.com",
      "Kept?",
      "9876543210",
      "",
    ]);

    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));
    const orphan = runningServer(clusterDir);
    expect(orphan, "the embedded server outlives an app killed with -9").toBeDefined();

    const second = await start();
    expect(second.output()).toContain(`found PostgreSQL (pid ${orphan?.pid}) left running`);
    expect(second.output()).not.toContain("created the first admin account");
    expect((await fetch(`${second.baseUrl}/api/health`)).status).toBe(200);
    const home = await fetch(`${second.baseUrl}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Learn the skills employers hire for");
    expect(await query("select name from contact_enquiries")).toEqual([{ name: "Before the crash" }]);

    const intruder = launch();
    expect(await intruder.exited).toBe(1);
    expect(intruder.output()).toContain(`is in use by another Trainwise server (pid ${second.child.pid})`);
    expect((await fetch(`${second.baseUrl}/api/health`)).status).toBe(200);

    const databasePid = runningServer(clusterDir)?.pid;
    second.child.kill("SIGINT");
    const code = await new Promise((resolve) => second.child.once("exit", resolve));
    expect(code).toBe(0);
    expect(second.output()).toContain("stopped");
    expect(runningServer(clusterDir)).toBeUndefined();
    expect(databasePid && fs.existsSync(`/proc/${databasePid}`)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, "server.lock"))).toBe(false);

    const third = await start();
    expect(await query("select name from contact_enquiries")).toEqual([{ name: "Before the crash" }]);
    third.child.kill("SIGTERM");
    expect(await new Promise((resolve) => third.child.once("exit", resolve))).toBe(0);
  });

  it("drains on SIGTERM: stops listening at once, serves requests on open connections, finishes and stores", {
    timeout: 120_000,
  }, async () => {
    const server = await start();
    const { port } = new URL(server.baseUrl);
    // Two requests already under way on kept-alive connections when the signal comes (as nginx's would be): a
    // readiness check whose last header line is still to come, and an enquiry whose body is half sent.
    const watcher = await RawConnection.open(Number(port));
    expect((await watcher.request("GET /api/health/ready HTTP/1.1\r\nhost: x\r\n\r\n")).status).toBe(200);
    watcher.write("GET /api/health/ready HTTP/1.1\r\nhost: x\r\n");
    const body = JSON.stringify({
      name: "Sent during a drain",
      email: "drain@example.com",
      subject: "Kept?",
      phone: "9876543210",
      message: "The second half of this body arrives after SIGTERM.",
    });
    const sender = await RawConnection.open(Number(port));
    sender.write(
      `POST /api/contact HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const exited = new Promise<number | null>((resolve) => server.child.once("exit", resolve));
    server.child.kill("SIGTERM");
    await waitFor(() => server.output().includes("SIGTERM received"));

    // New connections are refused at once (a proxy sends those elsewhere; nothing reached this instance).
    await waitFor(async () => !(await acceptsConnections(Number(port))));
    // The requests under way are answered, each closing its connection.
    watcher.write("\r\n");
    const notReady = await watcher.response();
    expect(notReady.status).toBe(503);
    expect(notReady.head).toMatch(/\r\nconnection: close/i);
    expect(JSON.parse(notReady.body)).toMatchObject({ error: "This instance is shutting down." });
    await watcher.closed;
    sender.write(body.slice(20));
    const stored = await sender.response();
    expect(stored.status).toBe(201);
    expect(stored.head).toMatch(/\r\nconnection: close/i);
    expect(await exited, "exit code 1 means the 10-second deadline cut the stop short").toBe(0);
    expect(server.output()).toContain("stopped");

    const again = await start();
    expect(await query("select name from contact_enquiries where email = 'drain@example.com'")).toEqual([
      { name: "Sent during a drain" },
    ]);
    again.child.kill("SIGINT");
    expect(await new Promise((resolve) => again.child.once("exit", resolve))).toBe(0);
  });

  it("stops with the process manager's SIGTERM sent to `npm start`, leaving no server behind", {
    timeout: 120_000,
  }, async () => {
    const { DATABASE_URL: _external, ...inherited } = process.env;
    const npm = spawn("npm", ["start"], {
      cwd: path.resolve(path.dirname(serverScript), "../../.."),
      env: { ...inherited, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    running.push(npm);
    let output = "";
    npm.stdout?.on("data", (chunk: Buffer) => (output += chunk));
    npm.stderr?.on("data", (chunk: Buffer) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => npm.once("exit", resolve));
    await waitFor(() => /ready: http/.test(output), 60_000);
    const serverPid = Number(fs.readFileSync(path.join(dataDir, "server.lock"), "utf8").match(/\d+/)?.[0]);
    expect(serverPid, "the lock names the server process").toBeGreaterThan(0);

    npm.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toContain("stopped");
    expect(fs.existsSync(`/proc/${serverPid}`), "the server process outlived npm").toBe(false);
  });
});

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** One keep-alive HTTP/1.1 connection written by hand, to send part of a request and to see the headers. */
class RawConnection {
  private received = "";
  private readonly socket: net.Socket;
  readonly closed: Promise<void>;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (this.received += chunk));
    this.closed = new Promise((resolve) => socket.once("close", () => resolve()));
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: "127.0.0.1", port }, () => resolve(new RawConnection(socket)));
      socket.once("error", reject);
    });
  }

  write(text: string) {
    this.socket.write(text);
  }

  async request(text: string) {
    this.write(text);
    return this.response();
  }

  /** The next complete response on the connection (the API always sends Content-Length). */
  async response(): Promise<{ status: number; head: string; body: string }> {
    await waitFor(() => {
      const headEnd = this.received.indexOf("\r\n\r\n");
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(this.received.slice(0, headEnd))?.[1] ?? -1);
      return headEnd >= 0 && length >= 0 && Buffer.byteLength(this.received.slice(headEnd + 4)) >= length;
    });
    const headEnd = this.received.indexOf("\r\n\r\n");
    const head = this.received.slice(0, headEnd);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1]);
    const body = Buffer.from(this.received.slice(headEnd + 4))
      .subarray(0, length)
      .toString("utf8");
    this.received = Buffer.from(this.received.slice(headEnd + 4))
      .subarray(length)
      .toString("utf8");
    return { status: Number(head.slice(9, 12)), head, body };
  }
}
