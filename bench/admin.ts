// `npm run bench:admin`: the admin area at campus-drive scale. Starts the product (embedded PostgreSQL in a
// temporary DATA_DIR), seeds STUDENTS (50,000) students across six drives, each with a submitted attempt of 25
// answered questions, as many feedback entries and enquiries, and TESTS (300) tests with as many drives, straight
// into PostgreSQL with set-based SQL; then measures every admin table's API call (first page, a search, a
// filter, a sort, a deep page) and the dashboard's calls, ROUNDS (100) sequential requests each after a warm-up,
// and every streamed CSV export (students, results, one drive's results, questions, feedback, enquiries): time to
// the first byte, the whole download, and the server's memory (VmRSS from /proc) sampled while it runs.
// A quick proof that it works: `STUDENTS=2000 TESTS=30 ROUNDS=5 npm run bench:admin`.
// A benchmark: it prints figures and asserts nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { runningDatabaseUrl } from "../apps/api/src/db/embedded-postgres.ts";
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
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  try {
    await client.query("begin");
    const { rows: tests } = await client.query<{ id: string }>("select id from tests where is_default");
    const testId = tests[0]?.id;
    await client.query(
      `insert into tests (name, question_count, seconds_per_question, pass_mark)
       values ('Bench aptitude', 25, 30, 40)`,
    );
    // Six drives: the default one and five colleges' drives on a test with a pass mark.
    await client.query(
      `insert into drives (test_id, name, organisation, batch, code)
       select (select id from tests where name = 'Bench aptitude'), 'Campus drive ' || n, 'College ' || n, '202' || n,
              'BENCH' || n
       from generate_series(1, 5) n`,
    );
    // 100 questions with four options each, the first right.
    await client.query(
      `insert into questions (text, category, difficulty)
       select 'Bench question ' || n || '?', (array['Aptitude','Programming','Verbal'])[1 + n % 3],
              (array['easy','medium','hard'])[1 + n % 3]::difficulty
       from generate_series(1, 100) n`,
    );
    await client.query(
      `insert into question_options (question_id, text, is_correct, position)
       select q.id, 'Option ' || p, p = 0, p from questions q cross join generate_series(0, 3) p
       where q.text like 'Bench question %'`,
    );
    const { rows: drives } = await client.query<{ id: string }>(
      "select id from drives where is_default or code like 'BENCH_' order by is_default desc, name",
    );
    const driveIds = drives.map((drive) => drive.id);
    await client.query(
      `insert into students (name, email, phone, usn_no, college, course, "group", year, drive_id, created_at)
       select 'Student ' || n || ' ' || (array['Sharma','Rao','Iyer','Khan','Das','Nair'])[1 + n % 6],
              'student' || n || '@bench.example', '9876543210', '1TW24CS' || lpad(n::text, 6, '0'),
              'College ' || (1 + n % 5), 'B.E.', 'CSE', '2025', ($1::uuid[])[1 + n % 6],
              now() - make_interval(secs => ${STUDENTS} - n)
       from generate_series(1, ${STUDENTS}) n`,
      [driveIds],
    );
    await client.query(
      `insert into attempts (student_id, drive_id, deadline_at, seconds_per_question, total_questions, timing_mode,
         paced, review_policy, pass_mark, started_at, submitted_at, score, marks, passed)
       select s.id, s.drive_id, s.created_at + interval '20 minutes', 30, 25, 'per_question', true, 'score_and_ticks',
              40, s.created_at, s.created_at + interval '15 minutes', sc, sc, sc >= 10
       from (select id, drive_id, created_at, (abs(hashtext(id::text)) % 26) as sc from students) s`,
    );
    // 25 answered questions per attempt (1.25 million rows at 50,000 students): the result detail and the
    // dashboard's per-question analysis read these.
    await client.query(
      `with bank as (
         select q.id, row_number() over (order by q.text) - 1 as k,
                array_agg(o.id order by o.position) as options
         from questions q join question_options o on o.question_id = q.id
         where q.text like 'Bench question %' group by q.id)
       insert into attempt_questions (attempt_id, position, question_id, option_order, selected_option_id,
         answered_at, is_correct)
       select a.id, p, bank.id, bank.options, bank.options[case when p < a.score then 1 else 2 end],
              a.submitted_at, p < a.score
       from attempts a cross join generate_series(0, 24) p
       join bank on bank.k = (abs(hashtext(a.id::text)) + p) % 100`,
    );
    await client.query(
      `insert into feedback (name, usn_number, email_id, section, batch, feedback, created_at)
       select 'Student ' || n, '1TW24CS' || lpad(n::text, 6, '0'), 'student' || n || '@bench.example', 'A',
              '202' || (1 + n % 5), 'The mock drive was useful ' || n, now() - make_interval(secs => n)
       from generate_series(1, ${EXTRA}) n`,
    );
    await client.query(
      `insert into contact_enquiries (name, email, subject, phone, message, created_at)
       select 'Visitor ' || n, 'visitor' || n || '@bench.example', 'Training enquiry ' || n, '9876543210',
              'Please call back.', now() - make_interval(secs => n)
       from generate_series(1, ${EXTRA}) n`,
    );
    // The tests and drives lists at volume: a few hundred of each, drives open, scheduled and closed.
    await client.query(
      `insert into tests (name, question_count, seconds_per_question, categories, created_at)
       select 'Bench test ' || n, 10 + n % 20, 30, case when n % 2 = 0 then array['Aptitude'] else '{}'::text[] end,
              now() - make_interval(mins => n)
       from generate_series(1, ${TESTS}) n`,
    );
    await client.query(
      `insert into drives (test_id, name, organisation, batch, code, opens_at, closes_at, closed_at, created_at)
       select t.id, 'Bench drive ' || n, 'College ' || (1 + n % 40), '2026', 'BD' || lpad(n::text, 6, '0'),
              case when n % 3 = 1 then now() + make_interval(days => n % 9 + 1) end,
              case when n % 3 = 2 then now() - make_interval(hours => n % 9 + 1) end,
              case when n % 7 = 0 then now() end,
              now() - make_interval(mins => n)
       from generate_series(1, ${TESTS}) n
       join lateral (select id from tests where name = 'Bench test ' || (1 + n % ${TESTS})) t on true`,
    );
    await client.query("commit");
    // What autovacuum does after a bulk load: statistics, and the trigram indexes' pending entries merged in.
    await client.query("vacuum analyze");
    console.log(
      `seeded ${STUDENTS.toLocaleString("en")} students with submitted attempts of 25 answers, ` +
        `${EXTRA.toLocaleString("en")} feedback and ${EXTRA.toLocaleString("en")} enquiries, ` +
        `${TESTS.toLocaleString("en")} tests and drives in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s` +
        (testId ? "" : " (no default test found)"),
    );
    const { rows: ids } = await client.query<{ drive: string; test: string }>(
      `select d.id as drive, t.id as test from drives d join tests t on t.id = d.test_id where d.code = 'BENCH3'`,
    );
    return ids[0] as { drive: string; test: string };
  } finally {
    await client.end();
  }
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
    console.log("\nexports (target: server memory growth under 50 MB):");
    for (const exportPath of [
      "/students/results/export.csv",
      "/students/export.csv",
      `/drives/${drive}/results.csv`,
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
