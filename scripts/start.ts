// `npm start`: builds the web app when there is no build yet, then runs the server in this process.
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
if (!fs.existsSync(path.join(root, "apps/web/build/client/__spa-fallback.html"))) {
  console.log("[trainwise] no web build found: building it once (npm run build)");
  execSync("npm run build", { cwd: root, stdio: "inherit" });
}
await import("../apps/api/src/server.ts");
