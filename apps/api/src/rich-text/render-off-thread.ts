// Texts an admin has just written are rendered in a worker thread before the request that saves or previews them
// reads them: rendering a new text of 2,000 characters of math and code held the event loop 50-120 ms (the
// security suite's cost test). The HTML goes into render.ts's cache, so every later read, the quiz's included,
// finds it there. Texts already in the cache cost nothing.
import { WorkerQueue } from "../threads/worker-queue.ts";
import { notRendered, type RenderJob, rememberRendered } from "./render.ts";

export class OffThreadRenderer {
  readonly #queue = new WorkerQueue<RenderJob[], string[]>({
    script: new URL("./render-worker.ts", import.meta.url),
    timeMs: 10_000,
    waiting: 20,
    busyMessage: "Many questions are being saved right now. Try again in a moment.",
    timeoutError: () => new Error("Rendering a question's text took too long."),
  });

  /** Renders in the worker whichever of these texts the cache does not hold yet, and keeps them there. */
  async prerender(jobs: readonly RenderJob[]): Promise<void> {
    const missing = notRendered(jobs);
    if (missing.length === 0) return;
    const html = await this.#queue.run(missing);
    missing.forEach((job, index) => {
      const rendered = html[index];
      if (rendered !== undefined) rememberRendered(job, rendered);
    });
  }

  close(): void {
    this.#queue.close();
  }
}

/** A question's text and its options' as render jobs. */
export function questionRenderJobs(text: string, options: readonly string[]): RenderJob[] {
  return [{ text, inline: false }, ...options.map((option) => ({ text: option, inline: true }))];
}
