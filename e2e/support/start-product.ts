// Starts the built product the way a user does (`npm start`) on a free port with a temporary DATA_DIR, and
// stops it with Ctrl-C (SIGINT) after the run.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../scripts/local-tools.ts";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export default async function startProduct() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-e2e-"));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const { DATABASE_URL: _external, ...inherited } = process.env;
  const child = spawn("npm", ["start"], {
    cwd: repositoryRoot,
    env: {
      ...inherited,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_USERNAME: "e2e-admin",
      ADMIN_PASSWORD: "e2e admin password",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk));

  const until = Date.now() + 120_000;
  while (!output.includes("ready: http://localhost:")) {
    if (child.exitCode !== null || Date.now() > until) throw new Error(`npm start failed:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.env.E2E_BASE_URL = `http://127.0.0.1:${port}`;
  process.env.E2E_ADMIN_USERNAME = "e2e-admin";
  process.env.E2E_ADMIN_PASSWORD = "e2e admin password";

  return async () => {
    // npm runs the server as its child: signal the whole group, as a terminal's Ctrl-C does.
    if (child.pid) process.kill(-child.pid, "SIGINT");
    await new Promise((resolve) => child.once("exit", resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
