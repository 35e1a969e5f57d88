// The worker thread that draws certificates and scorecards: a PDF takes about 100 ms to draw, which on the event loop held every
// other request that long (an outside attack slowed the health check's p95 from 8 ms to 138 ms by passing quizzes
// with throw-away students and downloading their certificates). `routes.ts` is its only caller.
import { parentPort } from "node:worker_threads";
import { serveJobs } from "../../threads/worker-queue.ts";
import { type DocumentJob, drawDocument } from "./pdf.ts";

serveJobs<DocumentJob, Uint8Array>(parentPort, drawDocument);
