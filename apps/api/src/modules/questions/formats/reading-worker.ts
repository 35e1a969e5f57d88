// The worker thread that reads uploaded question files (decision 018): parsing a file and converting its texts to
// Markdown takes seconds for a large GIFT or Moodle XML file, and the preview renders formulas, so both run here,
// where they hold no request of anyone else. `bank-reader.ts` is its only caller.
import { parentPort } from "node:worker_threads";
import { type BankFormat, questionImportPreviewSchema } from "@trainwise/contract/questions";
import type { ImportDefaults } from "./bank-file.ts";
import { readBankFile, toPreview } from "./bank-formats.ts";

export interface ReadingJob {
  id: number;
  text: string;
  format: BankFormat;
  defaults: ImportDefaults;
  /**
   * Answer the preview instead of the bank: rendered (the first characters of text as students will see them),
   * checked against the contract and written as JSON here, so the thread that answers requests only sends it.
   */
  preview: boolean;
}

parentPort?.on("message", async (job: ReadingJob) => {
  try {
    const outcome = await readBankFile(job.text, job.format, job.defaults);
    if (!job.preview || !outcome.ok) {
      parentPort?.postMessage({ id: job.id, outcome });
      return;
    }
    const preview = JSON.stringify(questionImportPreviewSchema.parse(toPreview(job.format, outcome.bank)));
    parentPort?.postMessage({ id: job.id, outcome: { ok: true }, preview });
  } catch (error) {
    parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
