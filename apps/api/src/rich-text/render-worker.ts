// The worker thread that renders question and option texts for the editor's calls (render-off-thread.ts): a long
// text full of math and code takes 50-120 ms to render, which on the event loop held every other request.
import { parentPort } from "node:worker_threads";
import { serveJobs } from "../threads/worker-queue.ts";
import { type RenderJob, renderUncached } from "./render.ts";

serveJobs<RenderJob[], string[]>(parentPort, async (jobs) => jobs.map((job) => renderUncached(job.text, job.inline)));
