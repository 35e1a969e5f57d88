// Starts the built product in a child process on a free loopback port with a temporary DATA_DIR (or the
// DATABASE_URL of the environment), for the benchmark and the Lighthouse audit.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface RunningProduct {
  baseUrl: string;
  pid: number;
  /** Ctrl-C, waits for the exit, and removes a DATA_DIR this function created. */
  stop(): Promise<void>;
  /** kill -9, as a crash would; waits for the exit. */
  crash(): Promise<void>;
  /** SIGTERM, as systemd stops a unit; resolves with how the process ended once it has. */
  terminate(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything the process has printed so far, stdout and stderr. */
  output(): string;
}

/** Starts the product; with `dataDir` it uses (and keeps) that folder, else a temporary one. */
export async function startProduct(env: Record<string, string> = {}, dataDir?: string): Promise<RunningProduct> {
  const ownDataDir = !dataDir;
  dataDir ??= fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-run-"));
  fs.chmodSync(dataDir, 0o755);
  const child = spawn(process.execPath, [path.join(root, "apps/api/src/server.ts")], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    const ready = output.match(/ready: http:\/\/localhost:(\d+)/);
    if (ready?.[1]) {
      const folder = dataDir;
      return {
        baseUrl: `http://127.0.0.1:${ready[1]}`,
        pid: child.pid as number,
        async stop() {
          child.kill("SIGINT");
          await exited;
          if (ownDataDir) fs.rmSync(folder, { recursive: true, force: true });
        },
        async crash() {
          child.kill("SIGKILL");
          await exited;
        },
        async terminate() {
          child.kill("SIGTERM");
          return exited;
        },
        output: () => output,
      };
    }
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`the product did not start:\n${output}`);
}
