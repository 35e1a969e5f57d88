// A campus drive paced like a real one, against a product already running at `baseUrl` (one instance, or
// several behind a proxy): students arrive spread over a window, each on their own keep-alive connection as a
// browser holds one, and think about each question before pressing Next. Each student uses the product's own
// client protocol: register, start, then per question one Next carrying the answer to the question being left,
// and Submit carrying every answer given (the last one new), then the result.
//
// Every answer the server acknowledged is checked against what the server stores, through the API alone (so
// that it works through a proxy, with instances dying): Submit with every answer given makes the server
// compare each one with the answer it holds; an earlier question's stored answer that differs is refused
// ("Time is up for that question"), and so counts as lost. With retries on, the stored answers are also read
// (`GET /api/quiz/attempt`) before submitting, because a retried Submit whose first try committed answers only
// "already submitted". The result must then list every question answered.
import {
  percentile,
  pickedOption,
  requestKey,
  type ServedQuestion,
  type StartedQuiz,
  StudentConnection,
} from "./student-connection.ts";

export interface PacedDriveOptions {
  baseUrl: string;
  students: number;
  arrivalSeconds: number;
  thinkMs: number;
  /** Retries per request after a dropped connection or a 502/503/504 (the product's own client retries a failed save). 0 in the bench. */
  retries: number;
  label?: string;
}

export interface PacedDriveReport {
  students: number;
  completed: number;
  requests: number;
  retried: number;
  errors: Map<string, number>;
  /** Sorted. */
  latenciesMs: number[];
  peakAtOnce: number;
  acknowledgedAnswers: number;
  lostAnswers: number;
}

interface Answer {
  questionId: string;
  optionId: string;
}

const TRANSIENT = new Set([502, 503, 504]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Drive {
  readonly report: PacedDriveReport;
  private readonly options: PacedDriveOptions;
  private readonly host: string;
  private readonly port: number;
  private readonly run: string;
  private atOnce = 0;

  constructor(options: PacedDriveOptions) {
    this.options = options;
    const url = new URL(options.baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port || 80);
    this.run = `${(options.label ?? "paced").replace(/[^a-z0-9]+/gi, "-").slice(0, 20)}-${process.pid}-${Date.now().toString(36)}`;
    this.report = {
      students: options.students,
      completed: 0,
      requests: 0,
      retried: 0,
      errors: new Map(),
      latenciesMs: [],
      peakAtOnce: 0,
      acknowledgedAnswers: 0,
      lostAnswers: 0,
    };
  }

  private fail(key: string): never {
    this.report.errors.set(key, (this.report.errors.get(key) ?? 0) + 1);
    throw new Error(key);
  }

  /** One request, retried after a dropped connection or a gateway error as the options allow. */
  private async call<T>(
    connection: StudentConnection,
    method: string,
    url: string,
    token?: string,
    body?: unknown,
  ): Promise<{ data: T; retried: boolean }> {
    for (let attempt = 0; ; attempt++) {
      this.report.requests++;
      const started = performance.now();
      let outcome: number | string;
      let text = "";
      try {
        const reply = await connection.send(method, url, token, body);
        this.report.latenciesMs.push(performance.now() - started);
        outcome = reply.status;
        text = reply.text;
      } catch (error) {
        connection.close();
        outcome = (error as Error).message;
      }
      const transient = typeof outcome === "string" || TRANSIENT.has(outcome);
      if (transient && attempt < this.options.retries) {
        this.report.retried++;
        await sleep(Math.min(100 * 2 ** attempt, 2000));
        continue;
      }
      if (typeof outcome === "string" || outcome >= 400) this.fail(requestKey(method, url, outcome));
      return { data: JSON.parse(text) as T, retried: attempt > 0 };
    }
  }

  private think(): Promise<unknown> {
    // Uniform jitter of ±50% around the mean, so that students drift apart as they would.
    return sleep(this.options.thinkMs * (0.5 + Math.random()));
  }

  async student(index: number): Promise<void> {
    await sleep((index * this.options.arrivalSeconds * 1000) / this.options.students);
    this.atOnce++;
    this.report.peakAtOnce = Math.max(this.report.peakAtOnce, this.atOnce);
    const connection = new StudentConnection(this.host, this.port);
    try {
      await this.journey(connection, index);
      this.report.completed++;
    } catch {
      // Counted in errors by the request that failed.
    } finally {
      this.atOnce--;
      connection.close();
    }
  }

  private async journey(connection: StudentConnection, index: number): Promise<void> {
    const unique = `${this.run}-${index}`;
    const { data: registered } = await this.call<{ token: string }>(
      connection,
      "POST",
      "/api/auth/student/register",
      undefined,
      {
        name: `Paced Student ${index}`,
        email: `${unique}@example.com`,
        phone: "9876543210",
        usnNo: unique.toUpperCase(),
        college: "Benchmark College",
        course: "B.E.",
        group: "CSE",
        year: "2025",
        // As the registration page does: a retry after a lost answer gets the student in, not a 409.
        registrationKey: `key-${unique}`.padEnd(22, "0"),
      },
    );
    const { token } = registered;
    const { data: state } = await this.call<StartedQuiz>(connection, "POST", "/api/quiz/start", token);
    const given: Answer[] = [];
    const acknowledged = new Map<string, string>();
    let question = state.question;
    for (let position = 0; position < state.totalQuestions; position++) {
      if (!question) this.fail(requestKey("POST", "/api/quiz/next", "no question served"));
      await this.think();
      const answer = { questionId: question._id, optionId: pickedOption(question, index, position) };
      given.push(answer);
      if (position === state.totalQuestions - 1) break;
      const { data: progress } = await this.call<{ question?: ServedQuestion | null }>(
        connection,
        "POST",
        "/api/quiz/next",
        token,
        { position: position + 1, answer },
      );
      acknowledged.set(answer.questionId, answer.optionId);
      question = progress.question ?? null;
    }

    let lost = 0;
    const checked = new Set<string>();
    if (this.options.retries > 0) {
      const { data: stored } = await this.call<{ answers?: Answer[] }>(connection, "GET", "/api/quiz/attempt", token);
      const storedOption = new Map((stored.answers ?? []).map((answer) => [answer.questionId, answer.optionId]));
      for (const [questionId, optionId] of acknowledged) {
        if (storedOption.get(questionId) !== optionId) lost++;
        checked.add(questionId);
      }
    }
    const { data: submitted, retried } = await this.call<{
      resultId: string;
      refused: { questionId: string; reason: string }[];
    }>(connection, "POST", "/api/quiz/submit", token, { answers: given });
    const refused = new Set(submitted.refused.map((refusal) => refusal.questionId));
    const last = given.at(-1);
    if (last && !refused.has(last.questionId)) acknowledged.set(last.questionId, last.optionId);
    const alreadySubmitted = retried && submitted.refused.every((refusal) => /already submitted/.test(refusal.reason));
    for (const [questionId] of acknowledged) {
      if (checked.has(questionId) || questionId === last?.questionId) continue;
      // The server refuses an earlier question's answer only when the one it holds differs.
      if (refused.has(questionId) && !alreadySubmitted) lost++;
    }

    const { data: result } = await this.call<{
      totalQuestions: number;
      review: { ticksShown: boolean };
      answers: { questionId: string }[];
    }>(connection, "GET", `/api/quiz/result/${submitted.resultId}`, token);
    if (result.review.ticksShown) {
      const listed = new Set(result.answers.map((row) => row.questionId));
      for (const [questionId] of acknowledged) if (!listed.has(questionId)) lost++;
    }
    this.report.acknowledgedAnswers += acknowledged.size;
    this.report.lostAnswers += lost;
  }
}

/** Runs one paced drive to its end and reports what it measured. */
export async function runPacedDrive(options: PacedDriveOptions): Promise<PacedDriveReport> {
  const drive = new Drive(options);
  await Promise.all(Array.from({ length: options.students }, (_, index) => drive.student(index)));
  drive.report.latenciesMs.sort((a, b) => a - b);
  return drive.report;
}

export function printPacedReport(report: PacedDriveReport): void {
  const sorted = report.latenciesMs;
  const errors = [...report.errors.values()].reduce((sum, count) => sum + count, 0);
  console.log(
    `  students            ${report.students} (completed ${report.completed}, peak at once ${report.peakAtOnce})`,
  );
  console.log(`  requests            ${report.requests} (retried ${report.retried})`);
  console.log(
    `  latency ms          p50 ${percentile(sorted, 50).toFixed(1)}  p90 ${percentile(sorted, 90).toFixed(1)}  p99 ${percentile(sorted, 99).toFixed(1)}  max ${(sorted.at(-1) ?? 0).toFixed(1)}`,
  );
  console.log(`  errors              ${errors}`);
  for (const [key, count] of report.errors) console.log(`    ${count} × ${key}`);
  console.log(`  answers             ${report.acknowledgedAnswers} acknowledged, ${report.lostAnswers} lost`);
}
