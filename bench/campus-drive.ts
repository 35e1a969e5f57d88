// `npm run bench`: a campus drive against the real product. Starts the server (embedded PostgreSQL in a
// temporary DATA_DIR, or DATABASE_URL when set) and sends STUDENTS students through the whole journey,
// CONCURRENCY at a time: register, fetch the questions and the attempt, save 25 answers (each followed by
// Next), submit, read the result. Prints journeys per second, request latency percentiles and errors.
// A benchmark, not a test: it asserts nothing and only reports what it measured.
import http from "node:http";
import os from "node:os";
import { startProduct } from "../scripts/product-process.ts";
import { compareStaticPages } from "./static-pages.ts";

const STUDENTS = Number(process.env.STUDENTS ?? 2000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);

interface Stats {
  latencies: number[];
  errors: Map<string, number>;
}

// Plain keep-alive HTTP/1.1: the load generator shares the machine's two cores with the server and its
// database, so it should cost as little as it can (fetch's web streams cost about twice as much).
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(baseUrl: string, method: string, url: string, token?: string, body?: unknown) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request(`${baseUrl}${url}`, {
      method,
      agent,
      headers: {
        ...(payload === undefined
          ? {}
          : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    request.on("error", reject);
    request.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.end(payload);
  });
}

async function call<T>(
  stats: Stats,
  baseUrl: string,
  method: string,
  url: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const started = performance.now();
  const response = await send(baseUrl, method, url, token, body);
  const text = response.text;
  stats.latencies.push(performance.now() - started);
  if (response.status >= 400) {
    const key = `${method} ${url.replace(/[0-9a-f-]{36}/g, ":id").split("?")[0]} → ${response.status}`;
    stats.errors.set(key, (stats.errors.get(key) ?? 0) + 1);
    throw new Error(key);
  }
  return JSON.parse(text) as T;
}

async function journey(stats: Stats, baseUrl: string, index: number): Promise<void> {
  const unique = `${process.pid}-${index}`;
  const { token } = await call<{ token: string }>(stats, baseUrl, "POST", "/api/auth/student/register", undefined, {
    name: `Bench Student ${index}`,
    email: `bench-${unique}@example.com`,
    phone: "9876543210",
    usnNo: `BENCH-${unique}`,
    college: "Benchmark College",
    course: "B.E.",
    group: "CSE",
    year: "2025",
  });
  const questions = await call<{ _id: string; options: { _id: string }[] }[]>(
    stats,
    baseUrl,
    "GET",
    "/api/quiz/questions?limit=25",
    token,
  );
  await call(stats, baseUrl, "GET", "/api/quiz/attempt", token);
  for (const [position, question] of questions.entries()) {
    const option = question.options[index % question.options.length];
    await call(stats, baseUrl, "PUT", "/api/quiz/answers", token, { questionId: question._id, optionId: option?._id });
    if (position < questions.length - 1)
      await call(stats, baseUrl, "POST", "/api/quiz/next", token, { position: position + 1 });
  }
  const { resultId } = await call<{ resultId: string }>(stats, baseUrl, "POST", "/api/quiz/submit", token, {
    answers: [],
  });
  await call(stats, baseUrl, "GET", `/api/quiz/result/${resultId}`, token);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function runCampusDrive(label: string): Promise<void> {
  const product = await startProduct({ SEED_DEMO: "true" });
  const { baseUrl } = product;
  const stats: Stats = { latencies: [], errors: new Map() };
  let next = 0;
  let completed = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < STUDENTS) {
        const index = next++;
        try {
          await journey(stats, baseUrl, index);
          completed++;
        } catch {
          failed++;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();

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
  if (process.env.STATIC !== "off") await compareStaticPages(product);
  await product.stop();
}

await runCampusDrive(process.env.DATABASE_URL ? "external PostgreSQL" : "embedded PostgreSQL");
