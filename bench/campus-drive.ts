// `npm run bench`: a campus drive against the real product. Starts the server (embedded PostgreSQL in a
// temporary DATA_DIR, or DATABASE_URL when set; BENCH_URL drives one already running instead) and sends students
// through the whole journey with the product's own client protocol: register, start, one Next per question
// carrying the answer to the question being left, Submit carrying every answer given, the result.
//   MODE=fast (default)  STUDENTS (5000) as fast as CONCURRENCY (32) connections can take them: throughput.
//   MODE=paced           students arrive over ARRIVAL_SECONDS (20) and think THINK_MS (2000, ±50%) per question,
//                        each on their own connection (bench/paced-drive.ts). PACED_STUDENTS (say "3000" or
//                        "1000,3000") runs those counts; unset, it steps up by 1,000 students at once until p99
//                        crosses 150 ms, and names that step the knee.
//   MODE=both            the two, one after the other, on one server.
//   SECTIONS=4           divides the default test into that many sections first (the same questions in all, each
//                        category of the bank in one section, negative marking in one and cut-offs in two; decision
//                        034), to compare with the one-list test; needs the bench to start the product.
//   SECTION_CLOCKS=on    with SECTIONS, times the test per section, every section a question at a time at the
//                        test's seconds: the client leaves each section on its last question (POST
//                        /api/quiz/section/next, carrying the answer as Next does) instead of a Next. Fast mode only.
// Every answer the server acknowledged is then compared with what it stores (fast: by a read-only query of the
// database when the bench started it; paced: through the API). A benchmark, not a test: it asserts nothing,
// but exits 1 when an acknowledged answer was lost.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { runningDatabaseUrl, runningServer, runningSuperuserUrl } from "../apps/api/src/db/embedded-postgres.ts";
import { type RunningProduct, startProduct } from "../scripts/product-process.ts";
import { type PacedDriveReport, printPacedReport, runPacedDrive } from "./paced-drive.ts";
import { countStatements } from "./statements.ts";
import { compareStaticPages } from "./static-pages.ts";
import {
  percentile,
  pickedOption,
  requestKey,
  type ServedQuestion,
  type StartedQuiz,
  StudentConnection,
} from "./student-connection.ts";

const MODE = process.env.MODE ?? "fast";
const STUDENTS = Number(process.env.STUDENTS ?? 5000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);
const ARRIVAL_SECONDS = Number(process.env.ARRIVAL_SECONDS ?? 20);
const THINK_MS = Number(process.env.THINK_MS ?? 2000);
const P99_BAR_MS = 150;
const KNEE_STEP = 1000;
const KNEE_MAX = Number(process.env.KNEE_MAX ?? 10_000);
const SECTIONS = Number(process.env.SECTIONS ?? 1);
const SECTION_CLOCKS = process.env.SECTION_CLOCKS === "on";
/** The admin the bench starts the product with, to divide the default test into sections. */
const ADMIN = { username: "bench-admin", password: "bench admin password" };

interface Stats {
  latencies: number[];
  errors: Map<string, number>;
  /** Every answer the server acknowledged, as `email|question|option`. */
  acknowledged: string[];
}

async function call<T>(
  stats: Stats,
  connection: StudentConnection,
  method: string,
  url: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const started = performance.now();
  const response = await connection.send(method, url, token, body);
  stats.latencies.push(performance.now() - started);
  if (response.status >= 400) {
    const key = requestKey(method, url, response.status);
    stats.errors.set(key, (stats.errors.get(key) ?? 0) + 1);
    throw new Error(key);
  }
  return JSON.parse(response.text) as T;
}

const RUN = `${process.pid}-${Date.now().toString(36)}`;

async function journey(stats: Stats, connection: StudentConnection, index: number): Promise<void> {
  const email = `bench-${RUN}-${index}@example.com`;
  const { token } = await call<{ token: string }>(stats, connection, "POST", "/api/auth/student/register", undefined, {
    name: `Bench Student ${index}`,
    email,
    phone: "9876543210",
    usnNo: `BENCH-${RUN}-${index}`,
    college: "Benchmark College",
    course: "B.E.",
    group: "CSE",
    year: "2025",
  });
  let state = await call<StartedQuiz>(stats, connection, "POST", "/api/quiz/start", token);
  const given: { questionId: string; optionId: string }[] = [];
  let question = state.question;
  for (let position = 0; position < state.totalQuestions && question; position++) {
    const answer = { questionId: question._id, optionId: pickedOption(question, index, position) };
    given.push(answer);
    if (position === state.totalQuestions - 1) break;
    if (position === state.sectionEnd - 1) {
      // The last question of a section on its own clock: leaving the section carries its answer.
      state = await call<StartedQuiz>(stats, connection, "POST", "/api/quiz/section/next", token, {
        sectionFirst: state.sectionFirst,
        answer,
      });
      question = state.question;
    } else {
      ({ question } = await call<{ question: ServedQuestion | null }>(
        stats,
        connection,
        "POST",
        "/api/quiz/next",
        token,
        {
          position: position + 1,
          answer,
        },
      ));
    }
    stats.acknowledged.push(`${email}|${answer.questionId}|${answer.optionId}`);
  }
  const { resultId, refused } = await call<{ resultId: string; refused: { questionId: string }[] }>(
    stats,
    connection,
    "POST",
    "/api/quiz/submit",
    token,
    { answers: given },
  );
  const last = given.at(-1);
  if (last && !refused.some((refusal) => refusal.questionId === last.questionId)) {
    stats.acknowledged.push(`${email}|${last.questionId}|${last.optionId}`);
  }
  await call(stats, connection, "GET", `/api/quiz/result/${resultId}`, token);
}

/** Acknowledged answers that the database does not hold as given: read-only, after the drive. */
async function lostAnswers(databaseUrl: string, acknowledged: string[]): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("begin transaction read only");
    const { rows } = await client.query<{ key: string }>(
      `select s.email || '|' || aq.question_id || '|' || aq.selected_option_id as key
       from students s join attempts a on a.student_id = s.id join attempt_questions aq on aq.attempt_id = a.id
       where s.email like $1 and aq.selected_option_id is not null`,
      [`bench-${RUN}-%`],
    );
    await client.query("commit");
    const stored = new Set(rows.map((row) => row.key));
    return acknowledged.filter((key) => !stored.has(key)).length;
  } finally {
    await client.end();
  }
}

/** Other work on the machine takes CPU from the product: the load average says how busy it was. */
function loadNote(): string {
  return ` (load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores)`;
}

/** CPU seconds a process and its reaped children have used (Linux), 0 elsewhere. */
function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    // utime, stime, cutime, cstime: fields 14–17 of stat, counted from the state field (3) here.
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
  } catch {
    return 0;
  }
}

/** The PostgreSQL server's processes: the postmaster and its children (backends, writer, WAL writer…). */
function databaseCpuSeconds(): number {
  const server = dataDir ? runningServer(path.join(dataDir, "postgres")) : undefined;
  if (!server) return 0;
  let total = cpuSeconds(server.pid);
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.split(") ")[1]?.split(" ")[1] === String(server.pid)) total += cpuSeconds(Number(entry));
    } catch {
      // The process has gone.
    }
  }
  return total;
}

/** CPU used by the server, the database and the bench: a figure that other load on the machine bends less. */
function cpuNow() {
  return {
    server: product ? cpuSeconds(product.pid) : 0,
    database: databaseCpuSeconds(),
    bench: cpuSeconds(process.pid),
  };
}

async function fastDrive(baseUrl: string, databaseUrl: string | undefined): Promise<number> {
  const { hostname, port } = new URL(baseUrl);
  const stats: Stats = { latencies: [], errors: new Map(), acknowledged: [] };
  let next = 0;
  let completed = 0;
  let failed = 0;
  const superuserUrl = process.env.DATABASE_URL ?? (dataDir ? runningSuperuserUrl(dataDir) : undefined);
  const statements = superuserUrl ? await countStatements(superuserUrl) : undefined;
  const cpuBefore = cpuNow();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const connection = new StudentConnection(hostname, Number(port));
      while (next < STUDENTS) {
        const index = next++;
        try {
          await journey(stats, connection, index);
          completed++;
        } catch {
          failed++;
          // The journey's connection may be in any state now; the next student gets a new one.
          connection.close();
        }
      }
      connection.close();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuNow();

  const sorted = stats.latencies.sort((a, b) => a - b);
  const errorCount = [...stats.errors.values()].reduce((sum, count) => sum + count, 0);
  console.log(`\ncampus drive, fast: ${STUDENTS} students, ${CONCURRENCY} at a time, ${os.cpus().length} cores`);
  console.log(`  finished journeys   ${completed} (failed ${failed}) in ${seconds.toFixed(1)} s${loadNote()}`);
  console.log(`  journeys per second ${(completed / seconds).toFixed(1)}`);
  console.log(
    `  requests            ${sorted.length} (${(sorted.length / seconds).toFixed(0)} per second, ${(sorted.length / STUDENTS).toFixed(1)} per student)`,
  );
  console.log(
    `  latency ms          p50 ${percentile(sorted, 50).toFixed(1)}  p90 ${percentile(sorted, 90).toFixed(1)}  p99 ${percentile(sorted, 99).toFixed(1)}  max ${(sorted.at(-1) ?? 0).toFixed(1)}`,
  );
  console.log(`  errors              ${errorCount}`);
  for (const [key, count] of stats.errors) console.log(`    ${count} × ${key}`);
  await statements?.report(STUDENTS);
  await statements?.reportTableWrites(STUDENTS);
  await statements?.close();
  if (product) {
    const used = (part: keyof typeof cpuAfter) => cpuAfter[part] - cpuBefore[part];
    const perStudent = (part: keyof typeof cpuAfter) => ((used(part) * 1000) / STUDENTS).toFixed(1);
    console.log(
      `  CPU seconds         server ${used("server").toFixed(1)}, database ${used("database").toFixed(1)}, bench ${used("bench").toFixed(1)} (per student: ${perStudent("server")} + ${perStudent("database")} + ${perStudent("bench")} ms; the machine had ${(seconds * os.cpus().length).toFixed(0)})`,
    );
  }
  if (!databaseUrl) {
    console.log(`  answers             ${stats.acknowledged.length} acknowledged (not compared: no database to read)`);
    return 0;
  }
  const lost = await lostAnswers(databaseUrl, stats.acknowledged);
  console.log(`  answers             ${stats.acknowledged.length} acknowledged, ${lost} not stored as given`);
  return lost;
}

async function pacedDrive(baseUrl: string, students: number): Promise<PacedDriveReport> {
  console.log(
    `\ncampus drive, paced: ${students} students arriving over ${ARRIVAL_SECONDS} s, ~${THINK_MS} ms per question, one connection each`,
  );
  const started = performance.now();
  const report = await runPacedDrive({
    baseUrl,
    students,
    arrivalSeconds: ARRIVAL_SECONDS,
    thinkMs: THINK_MS,
    retries: 0,
    label: `bench-${students}`,
  });
  console.log(`  took                ${((performance.now() - started) / 1000).toFixed(1)} s${loadNote()}`);
  printPacedReport(report);
  return report;
}

/** Paced drives at the counts asked for, or in steps until p99 crosses the bar; returns the answers lost. */
async function pacedDrives(baseUrl: string): Promise<number> {
  let lost = 0;
  if (process.env.PACED_STUDENTS) {
    for (const count of process.env.PACED_STUDENTS.split(",").map(Number)) {
      lost += (await pacedDrive(baseUrl, count)).lostAnswers;
    }
    return lost;
  }
  let withinBar: number | undefined;
  for (let students = KNEE_STEP; students <= KNEE_MAX; students += KNEE_STEP) {
    const report = await pacedDrive(baseUrl, students);
    lost += report.lostAnswers;
    const p99 = percentile(report.latenciesMs, 99);
    const clean = report.errors.size === 0 && report.lostAnswers === 0;
    if (p99 < P99_BAR_MS && clean) {
      withinBar = report.peakAtOnce;
      continue;
    }
    console.log(
      `\nknee: p99 crosses ${P99_BAR_MS} ms (or errors appear) between ${withinBar ?? 0} and ${report.peakAtOnce} students at once (p99 ${p99.toFixed(1)} ms at ${report.peakAtOnce})`,
    );
    return lost;
  }
  console.log(`\nknee: beyond ${withinBar} students at once (p99 stayed under ${P99_BAR_MS} ms up to KNEE_MAX)`);
  return lost;
}

let product: RunningProduct | undefined;
let dataDir: string | undefined;
if (!process.env.BENCH_URL) {
  // The bench's own DATA_DIR, so that it can read the embedded database afterwards.
  dataDir = process.env.DATABASE_URL ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-bench-"));
  product = await startProduct(
    {
      SEED_DEMO: "true",
      REGISTRATION_RATE_LIMIT: "1000000",
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    },
    dataDir,
  );
}
const baseUrl = product?.baseUrl ?? (process.env.BENCH_URL as string);
const databaseUrl = process.env.BENCH_URL
  ? undefined
  : (process.env.DATABASE_URL ?? (dataDir ? runningDatabaseUrl(dataDir) : undefined));
console.log(
  `against ${process.env.BENCH_URL ?? (process.env.DATABASE_URL ? "external PostgreSQL" : "embedded PostgreSQL")}`,
);
/**
 * Divides the default test into `SECTIONS` sections of (nearly) equal length, the bank's categories shared out
 * among them (sections may not draw the same question), the largest first to the section furthest from its length:
 * the first with negative marking, the first two with cut-offs.
 */
async function divideDefaultTest(baseUrl: string) {
  const admin = async <T>(method: string, url: string, body?: unknown, token?: string) => {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { "content-type": "application/json", ...(token && { authorization: `Bearer ${token}` }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const { token } = await admin<{ token: string }>("POST", "/api/auth/admin/login", ADMIN);
  const tests = await admin<Record<string, unknown>[]>("GET", "/api/tests", undefined, token);
  const test = tests.find((candidate) => candidate.isDefault) as Record<string, unknown> & {
    questionCount: number;
    secondsPerQuestion: number;
  };
  const { _id, isDefault, archived, available, createdAt, ...settings } = test;
  const sections = Array.from({ length: SECTIONS }, (_, index) => ({
    name: `Section ${index + 1}`,
    categories: [] as string[],
    questionCount: Math.floor(test.questionCount / SECTIONS) + (index < test.questionCount % SECTIONS ? 1 : 0),
    negativeMark: index === 0 ? 0.25 : 0,
    cutOff: index < 2 ? 40 : null,
    timing: "per_question",
    secondsPerQuestion: test.secondsPerQuestion,
  }));
  const wanted = test.categories as string[];
  const names = (await admin<string[]>("GET", "/api/questions/categories", undefined, token)).filter(
    (name) => wanted.length === 0 || wanted.includes(name),
  );
  const sizes = await Promise.all(
    names.map(async (name) => {
      const page = await admin<{ total: number }>(
        "GET",
        `/api/questions/table?category=${encodeURIComponent(name)}&pageSize=1`,
        undefined,
        token,
      );
      return { name, total: page.total };
    }),
  );
  const held = new Map(sections.map((section) => [section, 0]));
  for (const { name, total } of sizes.sort((a, b) => b.total - a.total)) {
    const share = (section: (typeof sections)[number]) => (held.get(section) ?? 0) / section.questionCount;
    const neediest = sections.reduce((best, section) => (share(section) < share(best) ? section : best));
    neediest.categories.push(name);
    held.set(neediest, (held.get(neediest) ?? 0) + total);
  }
  const timingMode = SECTION_CLOCKS ? "per_section" : settings.timingMode;
  await admin("PUT", `/api/tests/${_id}`, { ...settings, timingMode, sections }, token);
  console.log(
    `the default test in ${SECTIONS} sections${SECTION_CLOCKS ? ", each on its own clock" : ""}: ${sections.map((section) => `${section.questionCount} of ${held.get(section)} (${section.categories.join(", ")})`).join("; ")}`,
  );
}

let lost = 0;
try {
  if (SECTIONS > 1) {
    if (!product) throw new Error("SECTIONS needs the bench to start the product (no BENCH_URL)");
    await divideDefaultTest(baseUrl);
  }
  if (MODE === "fast" || MODE === "both") lost += await fastDrive(baseUrl, databaseUrl);
  if (MODE === "paced" || MODE === "both") lost += await pacedDrives(baseUrl);
  if (product && MODE !== "paced" && process.env.STATIC !== "off") await compareStaticPages(product);
} finally {
  await product?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
if (lost > 0) {
  console.error(`\n${lost} acknowledged answers were lost`);
  process.exitCode = 1;
}
