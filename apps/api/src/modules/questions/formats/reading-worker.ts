// The worker thread that reads uploaded question files (decision 018): parsing a file and converting its texts to
// Markdown takes seconds for a large GIFT or Moodle XML file, and the preview renders formulas, so both run here,
// where they hold no request of anyone else. `bank-reader.ts` is its only caller.
import { parentPort } from "node:worker_threads";
import { type BankFormat, questionImportPreviewSchema } from "@trainwise/contract/questions";
import { serveJobs } from "../../../threads/worker-queue.ts";
import type { FileOutcome, ImportDefaults } from "./bank-file.ts";
import { readBankFile, toPreview } from "./bank-formats.ts";

export interface ReadingJob {
  text: string;
  format: BankFormat;
  defaults: ImportDefaults;
  /**
   * Answer the preview instead of the bank: rendered (the first characters of text as students will see them),
   * checked against the contract and written as JSON here, so the thread that answers requests only sends it.
   */
  preview: boolean;
}

export interface ReadingResult {
  /** The file read; for a preview, only whether it could be read (`{ ok: true }`) or why not. */
  outcome: FileOutcome | { ok: true };
  /**
   * The preview as JSON in UTF-8, already checked against the contract: encoded here, so that the thread that
   * answers requests neither decodes nor encodes megabytes of text (a preview of 4,900 questions is 1.6 MB, and its
   * encoding was most of that thread's work on the request).
   */
  preview?: Uint8Array;
}

serveJobs<ReadingJob, ReadingResult>(parentPort, async (job) => {
  const outcome = await readBankFile(job.text, job.format, job.defaults);
  if (!job.preview || !outcome.ok) return { outcome };
  const json = JSON.stringify(questionImportPreviewSchema.parse(toPreview(job.format, outcome.bank)));
  return { outcome: { ok: true }, preview: new TextEncoder().encode(json) };
});
