// Reads uploaded question files off the event loop, in a worker thread (reading-worker.ts): one file at a time per
// instance, four waiting, each given 30 s. An import is an admin's occasional act; what matters is that no file, of
// any shape, holds the server for anyone else (a GIFT file of 4,900 questions took 6 s to read, one question with
// 100,000 options 13 s, all on the event loop).
import type { BankFormat } from "@trainwise/contract/questions";
import { HttpError } from "../../../http/http-error.ts";
import { WorkerQueue } from "../../../threads/worker-queue.ts";
import type { FileOutcome, FileRefusal, ImportDefaults } from "./bank-file.ts";
import type { ReadingJob, ReadingResult } from "./reading-worker.ts";

export const BANK_READER_LIMITS = { timeMs: 30_000, waiting: 4 };

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
  readonly #queue = new WorkerQueue<ReadingJob, ReadingResult>({
    script: new URL("./reading-worker.ts", import.meta.url),
    ...BANK_READER_LIMITS,
    busyMessage: "Other question files are being read right now. Try again in a minute.",
    timeoutError: () =>
      new HttpError(
        413,
        "The file took too long to read: it is too large or too complicated. Split it into smaller files.",
      ),
  });

  /** The file read in `format`: its questions and problems, or the whole file refused. */
  async read(text: string, format: BankFormat, defaults: ImportDefaults): Promise<FileOutcome> {
    const { outcome } = await this.#queue.run({ text, format, defaults, preview: false });
    return withBuffers(outcome as FileOutcome);
  }

  /** The preview of the file as JSON in UTF-8 (the contract's `questionImportPreviewSchema`), or why it was refused. */
  async preview(
    text: string,
    format: BankFormat,
    defaults: ImportDefaults,
  ): Promise<{ ok: true; json: Buffer } | FileRefusal> {
    const { outcome, preview } = await this.#queue.run({ text, format, defaults, preview: true });
    if (!outcome.ok) return outcome;
    const bytes = preview as Uint8Array;
    return { ok: true, json: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length) };
  }

  close(): Promise<void> {
    return this.#queue.close();
  }
}
