// `npm run test:crash`: under a campus-drive load, kills the app with -9 (odd rounds) or its embedded
// PostgreSQL (even rounds) ROUNDS times (10 by default), restarts it each time on the same DATA_DIR, and checks
// that every registration, answer, submission, question and feedback that got a success response is still
// there. Prints rounds survived and writes lost; exits 1 if a restart failed or anything acknowledged was lost.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { runningDatabaseUrl, runningServer } from "../apps/api/src/db/embedded-postgres.ts";
import { type RunningProduct, startProduct } from "../scripts/product-process.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 10);
const WORKERS = Number(process.env.WORKERS ?? 16);
const ADMIN = { username: "crash-admin", password: "crash test admin password" };

interface Acknowledged {
  students: Set<string>;
  answers: Map<string, string>; // `${email}|${questionId}` → optionId
  submissions: Set<string>;
  questions: Set<string>;
  feedback: Set<string>;
}

const acknowledged: Acknowledged = {
  students: new Set(),
  answers: new Map(),
  submissions: new Set(),
  questions: new Set(),
  feedback: new Set(),
};

async function call<T>(baseUrl: string, method: string, url: string, token?: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`${method} ${url} → ${response.status}`);
  return (await response.json()) as T;
}

interface ServedQuestion {
  _id: string;
  options: { _id: string }[];
}

let sequence = 0;
async function studentJourney(baseUrl: string): Promise<void> {
  const journey = ++sequence;
  const id = `${process.pid}-${journey}`;
  const email = `crash-${id}@example.com`;
  const { token } = await call<{ token: string }>(baseUrl, "POST", "/api/auth/student/register", undefined, {
    name: `Crash ${id}`,
    email,
    phone: "9876543210",
    usnNo: `CRASH-${id}`,
    college: "Crash College",
    course: "B.E.",
    group: "CSE",
    year: "2025",
  });
  acknowledged.students.add(email);
  // Our own client's protocol: start, then each question as its window opens (Next answers the next one). Every
  // other student saves each answer on its own before Next; the rest send it with Next, as the quiz page does,
  // where it is stored with other students' Nexts in one commit (decision 032).
  const answersWithNext = journey % 2 === 1;
  const state = await call<{ totalQuestions: number; question: ServedQuestion | null }>(
    baseUrl,
    "POST",
    "/api/quiz/start",
    token,
  );
  let question = state.question;
  for (let position = 0; position < state.totalQuestions && question; position++) {
    const optionId = question.options[sequence % question.options.length]?._id ?? "";
    const last = position === state.totalQuestions - 1;
    if (last || !answersWithNext) {
      await call(baseUrl, "PUT", "/api/quiz/answers", token, { questionId: question._id, optionId });
      acknowledged.answers.set(`${email}|${question._id}`, optionId);
    }
    if (last) break;
    const answered = question._id;
    ({ question } = await call<{ question: ServedQuestion | null }>(baseUrl, "POST", "/api/quiz/next", token, {
      position: position + 1,
      ...(answersWithNext && { answer: { questionId: answered, optionId } }),
    }));
    if (answersWithNext) acknowledged.answers.set(`${email}|${answered}`, optionId);
  }
  const { resultId } = await call<{ resultId: string }>(baseUrl, "POST", "/api/quiz/submit", token, { answers: [] });
  acknowledged.submissions.add(resultId);
}

async function adminWork(baseUrl: string): Promise<void> {
  const { token } = await call<{ token: string }>(baseUrl, "POST", "/api/auth/admin/login", undefined, ADMIN);
  const id = ++sequence;
  const question = await call<{ _id: string }>(baseUrl, "POST", "/api/questions", token, {
    text: `Crash question ${id}?`,
    category: "Crash",
    difficulty: "easy",
    options: [
      { text: "yes", isCorrect: true },
      { text: "no", isCorrect: false },
    ],
  });
  acknowledged.questions.add(question._id);
  const { feedback } = await call<{ feedback: { _id: string } }>(baseUrl, "POST", "/api/feedback", token, {
    name: `Crash ${id}`,
    usnNumber: `CR${id}`,
    emailId: `crash${id}@example.com`,
    section: "A",
    batch: "2026",
    feedback: "Still here after the crash?",
  });
  acknowledged.feedback.add(feedback._id);
}

/** Runs the load until `stop` resolves; failures (the crash) are expected and simply not acknowledged. */
async function load(baseUrl: string, stop: Promise<void>): Promise<void> {
  let stopped = false;
  void stop.then(() => {
    stopped = true;
  });
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, worker) => {
      while (!stopped) {
        try {
          await (worker === 0 ? adminWork(baseUrl) : studentJourney(baseUrl));
        } catch {
          if (!stopped) await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    }),
  );
}

async function lostWrites(dataDir: string): Promise<string[]> {
  const url = runningDatabaseUrl(dataDir);
  if (!url) throw new Error("the database is not running");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const lost: string[] = [];
    const emails = new Set(
      (await client.query<{ email: string }>("select email from students")).rows.map((row) => row.email),
    );
    for (const email of acknowledged.students) if (!emails.has(email)) lost.push(`student ${email}`);
    const answers = await client.query<{ email: string; question_id: string; selected_option_id: string }>(`
      select s.email, aq.question_id, aq.selected_option_id from attempt_questions aq
      join attempts a on a.id = aq.attempt_id join students s on s.id = a.student_id
      where aq.selected_option_id is not null`);
    const stored = new Map(answers.rows.map((row) => [`${row.email}|${row.question_id}`, row.selected_option_id]));
    for (const [key, optionId] of acknowledged.answers) if (stored.get(key) !== optionId) lost.push(`answer ${key}`);
    const submitted = new Set(
      (await client.query<{ id: string }>("select id from attempts where submitted_at is not null")).rows.map(
        (row) => row.id,
      ),
    );
    for (const id of acknowledged.submissions) if (!submitted.has(id)) lost.push(`submission ${id}`);
    const questions = new Set(
      (await client.query<{ id: string }>("select id from questions")).rows.map((row) => row.id),
    );
    for (const id of acknowledged.questions) if (!questions.has(id)) lost.push(`question ${id}`);
    const feedback = new Set((await client.query<{ id: string }>("select id from feedback")).rows.map((row) => row.id));
    for (const id of acknowledged.feedback) if (!feedback.has(id)) lost.push(`feedback ${id}`);
    return lost;
  } finally {
    await client.end();
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-crash-"));
const env = {
  ADMIN_USERNAME: ADMIN.username,
  ADMIN_PASSWORD: ADMIN.password,
  SEED_DEMO: "true",
  REGISTRATION_RATE_LIMIT: "1000000",
};
let survived = 0;
let lost: string[] = [];
let product: RunningProduct | undefined;
try {
  product = await startProduct(env, dataDir);
  for (let round = 1; round <= ROUNDS; round++) {
    const victim = round % 2 === 1 ? "app" : "PostgreSQL";
    let crash = () => {};
    const crashed = new Promise<void>((resolve) => {
      crash = resolve;
    });
    const running = load(product.baseUrl, crashed);
    await new Promise((resolve) => setTimeout(resolve, 1500 + Math.random() * 2000));
    if (victim === "PostgreSQL") {
      const database = runningServer(path.join(dataDir, "postgres"));
      if (database) process.kill(database.pid, "SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await product.crash();
    crash();
    await running;
    product = await startProduct(env, dataDir);
    const health = await fetch(`${product.baseUrl}/api/health`);
    if (health.status !== 200) throw new Error(`round ${round}: health ${health.status} after restart`);
    lost = await lostWrites(dataDir);
    console.log(
      `round ${round} (kill -9 ${victim}): restarted, ${acknowledged.students.size} students, ` +
        `${acknowledged.answers.size} answers, ${acknowledged.submissions.size} submissions, ` +
        `${acknowledged.questions.size} questions, ${acknowledged.feedback.size} feedback acknowledged; lost ${lost.length}`,
    );
    if (lost.length > 0) break;
    survived++;
  }
} finally {
  await product?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const writes =
  acknowledged.students.size +
  acknowledged.answers.size +
  acknowledged.submissions.size +
  acknowledged.questions.size +
  acknowledged.feedback.size;
console.log(`\nrounds survived: ${survived} of ${ROUNDS}`);
console.log(`writes acknowledged: ${writes}`);
console.log(`writes lost: ${lost.length}`);
for (const entry of lost.slice(0, 20)) console.log(`  lost ${entry}`);
process.exitCode = survived === ROUNDS && lost.length === 0 ? 0 : 1;
