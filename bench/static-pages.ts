// Part of `npm run bench`: requests per second for the prerendered home page served by the product, next to the
// same file served by nginx on loopback (Debian's nginx, installed when missing and we are root). Both
// send precompressed gzip bytes; the ratio is product ÷ nginx.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { ensureDebianTools } from "../scripts/debian-tools.ts";
import { freePort } from "../scripts/local-tools.ts";
import type { RunningProduct } from "../scripts/product-process.ts";

const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../apps/web/build/client");
const DURATION_SECONDS = Number(process.env.STATIC_SECONDS ?? 10);
const CONNECTIONS = 32;

async function requestsPerSecond(url: string): Promise<{ rate: number; errors: number; p99: number }> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    headers: { "accept-encoding": "gzip" },
  });
  return { rate: result.requests.average, errors: result.errors + result.non2xx, p99: result.latency.p99 };
}

async function startNginx(): Promise<{ url: string; stop: () => void } | undefined> {
  if (!ensureDebianTools({ nginx: "nginx" })) return undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-nginx-"));
  const port = await freePort();
  fs.writeFileSync(
    path.join(dir, "nginx.conf"),
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  include /etc/nginx/mime.types;
  client_body_temp_path ${dir};
  proxy_temp_path ${dir};
  fastcgi_temp_path ${dir};
  uwsgi_temp_path ${dir};
  scgi_temp_path ${dir};
  server {
    listen 127.0.0.1:${port};
    root ${clientDir};
    gzip_static on;
    location / { try_files $uri $uri/index.html =404; }
  }
}
`,
  );
  const child = spawn("nginx", ["-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], { stdio: "ignore" });
  for (let tries = 0; tries < 50; tries++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/`)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () => {
      child.kill("SIGTERM");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Prints the product's and nginx's rate for the home page; one worker process each, one core for the load. */
export async function compareStaticPages(product: RunningProduct): Promise<void> {
  const ours = await requestsPerSecond(`${product.baseUrl}/`);
  console.log(`\nprerendered home page, ${CONNECTIONS} connections, ${DURATION_SECONDS} s, gzip`);
  console.log(`  product  ${ours.rate.toFixed(0)} requests/s  p99 ${ours.p99} ms  errors ${ours.errors}`);
  const nginx = await startNginx();
  if (!nginx) {
    console.log("  nginx    not available — no comparison");
    return;
  }
  try {
    const theirs = await requestsPerSecond(nginx.url);
    console.log(`  nginx    ${theirs.rate.toFixed(0)} requests/s  p99 ${theirs.p99} ms  errors ${theirs.errors}`);
    console.log(`  ratio    ${(ours.rate / theirs.rate).toFixed(2)} (product ÷ nginx)`);
  } finally {
    nginx.stop();
  }
}
