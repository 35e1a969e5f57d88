// `npm run bench:admin`: the admin area at campus-drive scale. Starts the product (embedded PostgreSQL in a
// temporary DATA_DIR), seeds STUDENTS (50,000) students across six drives, each with a submitted attempt of 25
// answered questions, as many feedback entries and enquiries, and TESTS (300) tests with as many drives, straight
// into PostgreSQL with set-based SQL; then measures every admin table's API call (first page, a search, a
// filter, a sort, a deep page), the dashboard's calls and a drive's ranking, ROUNDS (100) sequential requests each
// after a warm-up, and every streamed CSV export (students, results, one drive's results and shortlist, questions,
// feedback, enquiries): time to the first byte, the whole download, and the server's memory (VmRSS from /proc)
// sampled while it runs.
// A quick proof that it works: `STUDENTS=2000 TESTS=30 ROUNDS=5 npm run bench:admin`.
// A benchmark: it prints figures and asserts nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runningDatabaseUrl } from "../apps/api/src/db/embedded-postgres.ts";
import { seedVolume } from "../apps/api/src/test/volume.ts";
import { startProduct } from "../scripts/product-process.ts";
import { percentile } from "./student-connection.ts";

const STUDENTS = Number(process.env.STUDENTS ?? 50_000);
const ROUNDS = Number(process.env.ROUNDS ?? 100);
/** Feedback entries and enquiries: as many as students, so each export is as long as the results'. */
const EXTRA = STUDENTS;
/** Extra tests, and as many extra drives spread over them (open, scheduled and closed). */
const TESTS = Number(process.env.TESTS ?? 300);
const ADMIN = { username: "bench-admin", password: "bench admin password" };

/** Seeds the running product's database (an explain session can reuse it). */
export async function seed(databaseUrl: string) {
  const started = performance.now();
  const ids = await seedVolume(databaseUrl, { students: STUDENTS, extra: EXTRA, tests: TESTS });
  console.log(
    `seeded ${STUDENTS.toLocaleString("en")} students with submitted attempts of 25 answers, ` +
      `${EXTRA.toLocaleString("en")} feedback and ${EXTRA.toLocaleString("en")} enquiries, ` +
      `${TESTS.toLocaleString("en")} tests and drives in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return ids;
}

async function timed(url: string, token: string): Promise<{ ms: number; bytes: number; status: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = await response.arrayBuffer();
  return { ms: performance.now() - started, bytes: body.byteLength, status: response.status };
}

async function measure(baseUrl: string, token: string, label: string, path: string) {
  for (let warm = 0; warm < 3; warm++) await timed(`${baseUrl}/api${path}`, token);
  const latencies: number[] = [];
  let bytes = 0;
  let status = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const result = await timed(`${baseUrl}/api${path}`, token);
    latencies.push(result.ms);
    bytes = result.bytes;
    status = result.status;
  }
  latencies.sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  console.log(
    `${label.padEnd(34)} p50 ${p50.toFixed(1).padStart(6)} ms  p99 ${p99.toFixed(1).padStart(6)} ms  ` +
      `${(bytes / 1024).toFixed(1).padStart(7)} KB  ${status === 200 ? "" : `status ${status} `}${path}`,
  );
  return p99;
}

function residentKb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
}

async function measureExport(baseUrl: string, token: string, pid: number, path: string) {
  // Let the heap settle after the list measurements, so the baseline is the server at rest.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const before = residentKb(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentKb(pid));
  }, 10);
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  const reader = response.body?.getReader();
  let firstByte = 0;
  let bytes = 0;
  let lines = 0;
  for (;;) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) break;
    if (!firstByte) firstByte = performance.now() - started;
    bytes += chunk.value.byteLength;
    for (const byte of chunk.value) if (byte === 10) lines++;
  }
  const total = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, residentKb(pid));
  console.log(
    `${path}: ${(lines - 1).toLocaleString("en")} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB; first byte after ` +
      `${firstByte.toFixed(0)} ms, all after ${total.toFixed(0)} ms; server RSS ${(before / 1024).toFixed(0)} MB → ` +
      `peak ${(peak / 1024).toFixed(0)} MB (growth ${((peak - before) / 1024).toFixed(1)} MB)`,
  );
}

if (import.meta.main) await main();

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-bench-admin-"));
  const product = await startProduct(
    { SEED_DEMO: "true", ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
    dataDir,
  );
  try {
    const databaseUrl = runningDatabaseUrl(dataDir);
    if (!databaseUrl) throw new Error("the embedded database is not running");
    console.log(
      `load average before seeding: ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(" ")}`,
    );
    const { drive, test } = await seed(databaseUrl);
    const login = await fetch(`${product.baseUrl}/api/auth/admin/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const { token } = (await login.json()) as { token: string };
    const deep = Math.floor(STUDENTS / 25);
    const extraDeep = Math.floor(EXTRA / 25);
    console.log(
      `\n${ROUNDS} sequential requests each; load average now ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(" ")}\n`,
    );
    const calls: [string, string][] = [
      ["dashboard: summary", "/dashboard"],
      ["dashboard: recent questions", "/questions/table?pageSize=10"],
      ["dashboard: student details", "/students/table?pageSize=10"],
      ["dashboard: student results", "/students/results/table?pageSize=10"],
      ["students: first page", "/students/table"],
      ["students: search name", "/students/table?search=Student%204242"],
      ["students: search USN", "/students/table?search=cs012345"],
      ["students: filter drive", `/students/table?driveId=${drive}`],
      ["students: filter college", "/students/table?college=College%203"],
      ["students: sort name", "/students/table?sort=name&order=asc"],
      ["students: deep page", `/students/table?page=${deep}`],
      ["results: first page", "/students/results/table"],
      ["results: search", "/students/results/table?search=Iyer"],
      ["results: filter fail", "/students/results/table?outcome=fail"],
      ["results: filter test+college", `/students/results/table?testId=${test}&college=College%202`],
      ["results: sort score", "/students/results/table?sort=score&order=desc"],
      ["results: deep page", `/students/results/table?page=${deep}`],
      ["questions: first page", "/questions/table"],
      ["questions: search", "/questions/table?search=question%2042"],
      ["questions: filter difficulty", "/questions/table?difficulty=hard"],
      ["questions: sort name", "/questions/table?sort=name&order=asc"],
      ["questions: deep page", "/questions/table?page=4"],
      ["feedback: first page", "/feedback/table"],
      ["feedback: search", "/feedback/table?search=Student%20777"],
      ["feedback: filter batch", "/feedback/table?batch=2023"],
      ["feedback: sort name", "/feedback/table?sort=name&order=asc"],
      ["feedback: deep page", `/feedback/table?page=${extraDeep}`],
      ["enquiries: first page", "/contact/table"],
      ["enquiries: search", "/contact/table?search=enquiry%20999"],
      ["enquiries: sort name", "/contact/table?sort=name&order=asc"],
      ["enquiries: deep page", `/contact/table?page=${extraDeep}`],
      ["tests: first page", "/tests/table"],
      ["tests: search", "/tests/table?search=test%2042"],
      ["tests: sort name", "/tests/table?sort=name&order=asc"],
      ["tests: deep page", `/tests/table?page=${Math.max(1, Math.floor(TESTS / 25))}`],
      ["tests: picker", "/tests/choices"],
      ["drives: first page", "/drives/table"],
      ["drives: search", "/drives/table?search=drive%2042"],
      ["drives: filter state", "/drives/table?state=scheduled"],
      ["drives: filter test", `/drives/table?testId=${test}`],
      ["drives: sort opens", "/drives/table?sort=opens&order=asc"],
      ["drives: deep page", `/drives/table?page=${Math.max(1, Math.floor(TESTS / 25))}`],
      ["drives: picker", "/drives/choices"],
    ];
    let worst = 0;
    for (const [label, call] of calls) worst = Math.max(worst, await measure(product.baseUrl, token, label, call));
    console.log(`\nworst p99 of the lists and the dashboard: ${worst.toFixed(1)} ms (target: under 100 ms)`);
    console.log("\na drive's ranking (decision 033): every candidate of one drive ranked on each read");
    await measure(product.baseUrl, token, "ranking: first page", `/drives/${drive}/ranking`);
    await measure(
      product.baseUrl,
      token,
      "ranking: top 50, one college",
      `/drives/${drive}/ranking?cut=top&top=50&college=College%202`,
    );
    console.log("\nexports (target: server memory growth under 50 MB):");
    for (const exportPath of [
      "/students/results/export.csv",
      "/students/export.csv",
      `/drives/${drive}/results.csv`,
      `/drives/${drive}/shortlist.csv`,
      "/questions/export.csv",
      "/feedback/export.csv",
      "/contact/export.csv",
    ]) {
      await measureExport(product.baseUrl, token, product.pid, exportPath);
    }
    console.log("\nfor comparison, the original calls' whole lists:");
    await measure(product.baseUrl, token, "GET /api/students/results/all", "/students/results/all");
    console.log(
      `\nload average after: ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    await product.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
