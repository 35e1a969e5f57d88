// `npm run bench`: a campus drive against the real product. Starts the server (embedded PostgreSQL in a
// temporary DATA_DIR, or DATABASE_URL when set) and sends STUDENTS students through the whole journey,
// CONCURRENCY at a time: register, fetch the questions and the attempt, save 25 answers (each followed by
// Next), submit, read the result. Prints journeys per second, request latency percentiles and errors.
// A benchmark, not a test: it asserts nothing and only reports what it measured.
import net from "node:net";
import os from "node:os";
import { startProduct } from "../scripts/product-process.ts";
import { compareStaticPages } from "./static-pages.ts";

const STUDENTS = Number(process.env.STUDENTS ?? 2000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);

interface Stats {
  latencies: number[];
  errors: Map<string, number>;
}

/**
 * One student's keep-alive HTTP/1.1 connection, one request at a time. The load generator shares the machine's
 * two cores with the server and its database, so it is as lean as a wrk-style client: it writes each request in
 * one piece and reads the response by its Content-Length (the API always sends one). Node's http client took
 * over three times as much CPU per request (perf: 17.6% of the machine at ~1,300 requests/s, against 7.4% at
 * ~2,050), all of it taken from the product being measured.
 */
class StudentConnection {
  private readonly host: string;
  private readonly socket: net.Socket;
  private received: Buffer = Buffer.alloc(0);
  private waiting:
    | { resolve: (response: { status: number; text: string }) => void; reject: (error: Error) => void }
    | undefined;

  constructor(host: string, port: number) {
    this.host = host;
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on("data", (chunk: Buffer) => {
      this.received = this.received.length ? Buffer.concat([this.received, chunk]) : chunk;
      this.settle();
    });
    const fail = (error: Error) => this.waiting?.reject(error);
    this.socket.on("error", fail);
    this.socket.on("close", () => fail(new Error("connection closed")));
  }

  private settle() {
    const headerEnd = this.received.indexOf("\r\n\r\n");
    if (headerEnd < 0 || !this.waiting) return;
    const head = this.received.toString("latin1", 0, headerEnd);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? Number.NaN);
    if (Number.isNaN(length)) {
      this.waiting.reject(new Error(`response without Content-Length: ${head.split("\r\n")[0]}`));
      return;
    }
    const bodyStart = headerEnd + 4;
    if (this.received.length < bodyStart + length) return;
    const text = this.received.toString("utf8", bodyStart, bodyStart + length);
    this.received = this.received.subarray(bodyStart + length);
    const { resolve } = this.waiting;
    this.waiting = undefined;
    resolve({ status: Number(head.slice(9, 12)), text });
  }

  send(method: string, url: string, token?: string, body?: unknown) {
    const payload = body === undefined ? "" : JSON.stringify(body);
    const request =
      `${method} ${url} HTTP/1.1\r\nhost: ${this.host}\r\n` +
      (token ? `authorization: Bearer ${token}\r\n` : "") +
      (body === undefined
        ? ""
        : `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n`) +
      `\r\n${payload}`;
    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(request);
    });
  }

  close() {
    this.socket.destroy();
  }
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
  const text = response.text;
  stats.latencies.push(performance.now() - started);
  if (response.status >= 400) {
    const key = `${method} ${url.replace(/[0-9a-f-]{36}/g, ":id").split("?")[0]} → ${response.status}`;
    stats.errors.set(key, (stats.errors.get(key) ?? 0) + 1);
    throw new Error(key);
  }
  return JSON.parse(text) as T;
}

interface ServedQuestion {
  _id: string;
  options: { _id: string }[];
}
interface QuizState {
  totalQuestions: number;
  question: ServedQuestion | null;
}

async function journey(stats: Stats, connection: StudentConnection, index: number): Promise<void> {
  const unique = `${process.pid}-${index}`;
  const { token } = await call<{ token: string }>(stats, connection, "POST", "/api/auth/student/register", undefined, {
    name: `Bench Student ${index}`,
    email: `bench-${unique}@example.com`,
    phone: "9876543210",
    usnNo: `BENCH-${unique}`,
    college: "Benchmark College",
    course: "B.E.",
    group: "CSE",
    year: "2025",
  });
  // Our own client's protocol: start, then each question as its window opens (Next answers the next one).
  const state = await call<QuizState>(stats, connection, "POST", "/api/quiz/start", token);
  let question = state.question;
  for (let position = 0; position < state.totalQuestions && question; position++) {
    const option = question.options[index % question.options.length];
    await call(stats, connection, "PUT", "/api/quiz/answers", token, {
      questionId: question._id,
      optionId: option?._id,
    });
    if (position === state.totalQuestions - 1) break;
    ({ question } = await call<{ question: ServedQuestion | null }>(
      stats,
      connection,
      "POST",
      "/api/quiz/next",
      token,
      {
        position: position + 1,
      },
    ));
  }
  const { resultId } = await call<{ resultId: string }>(stats, connection, "POST", "/api/quiz/submit", token, {
    answers: [],
  });
  await call(stats, connection, "GET", `/api/quiz/result/${resultId}`, token);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function runCampusDrive(label: string): Promise<void> {
  // BENCH_URL drives a product that is already running (say, several instances behind a proxy) instead.
  const product = process.env.BENCH_URL
    ? undefined
    : await startProduct({ SEED_DEMO: "true", REGISTRATION_RATE_LIMIT: "1000000" });
  const { hostname, port } = new URL(product?.baseUrl ?? (process.env.BENCH_URL as string));
  const stats: Stats = { latencies: [], errors: new Map() };
  let next = 0;
  let completed = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      let connection = new StudentConnection(hostname, Number(port));
      while (next < STUDENTS) {
        const index = next++;
        try {
          await journey(stats, connection, index);
          completed++;
        } catch {
          failed++;
          // The journey's connection may be in any state now; the next student gets a new one.
          connection.close();
          connection = new StudentConnection(hostname, Number(port));
        }
      }
      connection.close();
    }),
  );
  const seconds = (performance.now() - started) / 1000;

  const sorted = stats.latencies.sort((a, b) => a - b);
  const errorCount = [...stats.errors.values()].reduce((sum, count) => sum + count, 0);
  console.log(`\ncampus drive (${label}): ${STUDENTS} students, ${CONCURRENCY} at a time, ${os.cpus().length} cores`);
  console.log(`  finished journeys   ${completed} (failed ${failed}) in ${seconds.toFixed(1)} s`);
  console.log(`  journeys per second ${(completed / seconds).toFixed(1)}`);
  console.log(`  requests            ${sorted.length} (${(sorted.length / seconds).toFixed(0)} per second)`);
  console.log(
    `  latency ms          p50 ${percentile(sorted, 50).toFixed(1)}  p90 ${percentile(sorted, 90).toFixed(1)}  p99 ${percentile(sorted, 99).toFixed(1)}  max ${(sorted.at(-1) ?? 0).toFixed(1)}`,
  );
  console.log(`  errors              ${errorCount}`);
  for (const [key, count] of stats.errors) console.log(`    ${count} × ${key}`);
  if (!product) return;
  if (process.env.STATIC !== "off") await compareStaticPages(product);
  await product.stop();
}

const target = process.env.BENCH_URL ?? (process.env.DATABASE_URL ? "external PostgreSQL" : "embedded PostgreSQL");
await runCampusDrive(target);
