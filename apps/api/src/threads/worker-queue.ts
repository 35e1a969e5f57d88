// Work too heavy for the event loop (reading a question file, drawing a PDF) runs in a worker thread of its own:
// one per kind of work and instance, started when the first job comes, one job at a time, a bounded number
// waiting, each given a time limit after which the worker is replaced. What a job costs then holds no request of
// anyone else; the thread that answers requests only hands the job over and takes the answer back.
import { type MessagePort, Worker } from "node:worker_threads";
import { HttpError } from "../http/http-error.ts";

export interface WorkerQueueOptions {
  /** The worker's module: it answers each `{ id, job }` message with `{ id, result }` or `{ id, error }`. */
  script: URL;
  /** A job still running after this is given up (the worker is replaced) and refused with `timeoutError`. */
  timeMs: number;
  /** Jobs waiting behind the running one; more are refused at once with a 503 saying `busyMessage`. */
  waiting: number;
  busyMessage: string;
  timeoutError: () => Error;
}

interface Pending<Job, Result> {
  id: number;
  job: Job;
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

/** In the worker: runs `work` on each job the queue sends and posts its result or its error back. */
export function serveJobs<Job, Result>(port: MessagePort | null, work: (job: Job) => Promise<Result>): void {
  port?.on("message", async ({ id, job }: { id: number; job: Job }) => {
    try {
      port.postMessage({ id, result: await work(job) });
    } catch (error) {
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
}

export class WorkerQueue<Job, Result> {
  readonly #options: WorkerQueueOptions;
  #worker: Worker | undefined;
  #current: { pending: Pending<Job, Result>; timer: NodeJS.Timeout } | undefined;
  readonly #queue: Pending<Job, Result>[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: WorkerQueueOptions) {
    this.#options = options;
  }

  run(job: Job): Promise<Result> {
    if (this.#closed) return Promise.reject(new HttpError(503, "The server is shutting down."));
    if (this.#queue.length >= this.#options.waiting) {
      return Promise.reject(new HttpError(503, this.#options.busyMessage, undefined, { "retry-after": "30" }));
    }
    return new Promise<Result>((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, job, resolve, reject });
      this.#next();
    });
  }

  /** Stops the worker; jobs still waiting are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const pending of this.#queue.splice(0)) pending.reject(new HttpError(503, "The server is shutting down."));
    await this.#worker?.terminate();
    this.#worker = undefined;
  }

  #next(): void {
    if (this.#current || this.#queue.length === 0) return;
    const pending = this.#queue.shift() as Pending<Job, Result>;
    const timer = setTimeout(() => {
      // The worker is still busy with the job: it is replaced, and the job refused.
      void this.#worker?.terminate();
      this.#worker = undefined;
      this.#finish(pending, () => pending.reject(this.#options.timeoutError()));
    }, this.#options.timeMs);
    this.#current = { pending, timer };
    this.#workerOf().postMessage({ id: pending.id, job: pending.job });
  }

  #finish(pending: Pending<Job, Result>, settle: () => void): void {
    if (this.#current?.pending !== pending) return;
    clearTimeout(this.#current.timer);
    this.#current = undefined;
    settle();
    this.#next();
  }

  #workerOf(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.#options.script);
    worker.on("message", (reply: { id: number; result?: Result; error?: string }) => {
      const pending = this.#current?.pending;
      if (!pending || pending.id !== reply.id) return;
      this.#finish(pending, () =>
        reply.error === undefined ? pending.resolve(reply.result as Result) : pending.reject(new Error(reply.error)),
      );
    });
    worker.on("error", (error) => {
      if (this.#worker === worker) this.#worker = undefined;
      const pending = this.#current?.pending;
      if (pending) this.#finish(pending, () => pending.reject(error));
    });
    worker.on("exit", () => {
      if (this.#worker === worker) this.#worker = undefined;
    });
    // An idle worker must not keep the process alive.
    worker.unref();
    this.#worker = worker;
    return worker;
  }
}
