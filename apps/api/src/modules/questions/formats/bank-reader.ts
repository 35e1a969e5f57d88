// Reads uploaded question files off the event loop: one worker thread per instance (reading-worker.ts), started
// when the first file comes, one file at a time, a few waiting, each given a time limit. An import is an admin's
// occasional act; what matters is that no file, of any shape, holds the server for anyone else (a GIFT file of
// 4,900 questions took 6 s to read, one question with 100,000 options 13 s, all on the event loop).
import { Worker } from "node:worker_threads";
import type { BankFormat } from "@trainwise/contract/questions";
import { HttpError } from "../../../http/http-error.ts";
import type { FileOutcome, FileRefusal, ImportDefaults } from "./bank-file.ts";
import type { ReadingJob } from "./reading-worker.ts";

export const BANK_READER_LIMITS = {
  /** A file still being read after this is given up (the worker is replaced) and refused. */
  timeMs: 30_000,
  /** Files waiting behind the one being read; more are refused at once with a 503. */
  waiting: 4,
};

interface Reply {
  id: number;
  /** The file read; for a preview, only whether it could be read (`{ ok: true }`) or why not. */
  outcome?: FileOutcome | { ok: true };
  /** The preview as JSON, already checked against the contract. */
  preview?: string;
  error?: string;
}

interface Pending {
  job: ReadingJob;
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

/** The images of a bank came through the worker as plain byte arrays; the media code expects Buffers. */
function withBuffers(outcome: FileOutcome): FileOutcome {
  if (!outcome.ok) return outcome;
  for (const [sha256, image] of outcome.bank.images) {
    const bytes = image.bytes as Uint8Array;
    outcome.bank.images.set(sha256, { ...image, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length) });
  }
  return outcome;
}

export class BankReader {
  #worker: Worker | undefined;
  #current: { pending: Pending; timer: NodeJS.Timeout } | undefined;
  readonly #queue: Pending[] = [];
  #nextId = 1;
  #closed = false;
  readonly #limits: typeof BANK_READER_LIMITS;

  constructor(limits: Partial<typeof BANK_READER_LIMITS> = {}) {
    this.#limits = { ...BANK_READER_LIMITS, ...limits };
  }

  /** The file read in `format`: its questions and problems, or the whole file refused. */
  async read(text: string, format: BankFormat, defaults: ImportDefaults): Promise<FileOutcome> {
    const reply = await this.#run({ text, format, defaults, preview: false });
    return withBuffers(reply.outcome as FileOutcome);
  }

  /** The preview of the file as JSON (the contract's `questionImportPreviewSchema`), or why it was refused. */
  async preview(
    text: string,
    format: BankFormat,
    defaults: ImportDefaults,
  ): Promise<{ ok: true; json: string } | FileRefusal> {
    const reply = await this.#run({ text, format, defaults, preview: true });
    const outcome = reply.outcome as FileOutcome | { ok: true };
    return outcome.ok ? { ok: true, json: reply.preview as string } : outcome;
  }

  /** Stops the worker; files still waiting are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const pending of this.#queue.splice(0)) pending.reject(new HttpError(503, "The server is shutting down."));
    await this.#worker?.terminate();
    this.#worker = undefined;
  }

  #run(job: Omit<ReadingJob, "id">): Promise<Reply> {
    if (this.#closed) return Promise.reject(new HttpError(503, "The server is shutting down."));
    if (this.#queue.length >= this.#limits.waiting) {
      return Promise.reject(
        new HttpError(503, "Other question files are being read right now. Try again in a minute.", undefined, {
          "retry-after": "30",
        }),
      );
    }
    return new Promise<Reply>((resolve, reject) => {
      this.#queue.push({ job: { ...job, id: this.#nextId++ }, resolve, reject });
      this.#next();
    });
  }

  #next(): void {
    if (this.#current || this.#queue.length === 0) return;
    const pending = this.#queue.shift() as Pending;
    const timer = setTimeout(() => {
      // A file that takes this long is refused, and the worker, still busy with it, is replaced.
      void this.#worker?.terminate();
      this.#worker = undefined;
      this.#finish(pending, () =>
        pending.reject(
          new HttpError(
            413,
            "The file took too long to read: it is too large or too complicated. Split it into smaller files.",
          ),
        ),
      );
    }, this.#limits.timeMs);
    this.#current = { pending, timer };
    this.#workerOf().postMessage(pending.job);
  }

  #finish(pending: Pending, settle: () => void): void {
    if (this.#current?.pending !== pending) return;
    clearTimeout(this.#current.timer);
    this.#current = undefined;
    settle();
    this.#next();
  }

  #workerOf(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL("./reading-worker.ts", import.meta.url));
    worker.on("message", (reply: Reply) => {
      const pending = this.#current?.pending;
      if (!pending || pending.job.id !== reply.id) return;
      this.#finish(pending, () =>
        reply.error === undefined ? pending.resolve(reply) : pending.reject(new Error(reply.error)),
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
