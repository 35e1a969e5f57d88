// What one request may cost the thread that answers everyone, per route: the CPU it spends there and the longest
// time it holds the event loop, both in CPU milliseconds of that thread (test/cpu-time.ts). The security suite's
// cost test (security/cost.test.ts) sends every route realistic and pathological-but-valid requests and fails on a
// route over its budget. Work done elsewhere is not counted here: PostgreSQL's, the password hashing's (libuv's
// threads) and the worker threads' (question files, certificates), each bounded by its own queue or limit.
import type { EndpointName } from "@trainwise/contract/endpoints";

export interface CostBudget {
  /** CPU of the answering thread for the whole request. */
  cpuMs: number;
  /** The longest the request holds the event loop in one go (the loop's budget for one turn is 50 ms). */
  sliceMs: number;
}

/**
 * Any route's request. The costliest ordinary requests (a whole list of 1,000 rows, a CSV export of 1,100 students)
 * measure 10-15 ms of CPU in slices of up to 10 ms; twice that leaves room for a slower machine, not for a new
 * kind of work.
 */
export const DEFAULT_BUDGET: CostBudget = { cpuMs: 30, sliceMs: 20 };

/**
 * A route with a request limit per user or address (@fastify/rate-limit's per-route config): one caller can only
 * repeat its cost so often. The cost test proves each limit by sending past it and getting 429.
 */
export const THROTTLED_BUDGET: CostBudget = { cpuMs: 50, sliceMs: 50 };

/** Routes that may cost more than the default, and why that is acceptable. */
export const BUDGET_EXCEPTIONS: Partial<Record<EndpointName, CostBudget & { reason: string }>> = {
  resultExport: {
    cpuMs: 50,
    sliceMs: 20,
    reason:
      "every line carries the drive's export's columns (decision 027), among them what each attempt's answer " +
      "times show (late and burst answers, counted by PostgreSQL: answer-timing-sql.ts): 1,100 attempts measured " +
      "8-9 ms of CPU in slices under 3 ms, a batch at a time (16 ms while the times were judged here, and 51 in a " +
      "CI run on a machine running three times slower); a viewer's call, audited",
  },
  previewQuestionImport: {
    cpuMs: 200,
    sliceMs: 50,
    reason:
      "the file is read in a worker thread; this thread receives up to 2 MB and writes the preview of up to 5,000 " +
      "questions (about 20 µs each); an editor's call",
  },
  importQuestions: {
    cpuMs: 600,
    sliceMs: 50,
    reason:
      "stores the file's questions, rendering each text's HTML on this thread (about 0.6 ms a question, so the " +
      "5,000 a file may hold cost about 3 s) in steps of a few ms; an editor's call; measured with 500 questions " +
      "to keep the suite short. Not limited: a limit per admin, or the rendering in the reading worker, would " +
      "bound what one admin can make this thread do",
  },
  replaceRoster: {
    cpuMs: 150,
    sliceMs: 20,
    reason:
      "the largest roster (20,000 lines, 2 MB) is parsed a chunk a turn (csv/chunks.ts) and stored as two arrays: " +
      "about 75 ms of CPU in slices under 10 ms (270 ms in one slice before); an examiner's call",
  },
  makePersonalLinks: {
    cpuMs: 250,
    sliceMs: 45,
    reason:
      "new links for every line of the largest roster (20,000): a token, its hash and a CSV row per line, 500 " +
      "lines a turn; 175 ms of CPU measured once the CSV was written by toCsv itself (158-260 ms through " +
      "csv-stringify); the answer carries the links' 2.4 MB CSV, and serialising it is one slice (JSON.stringify " +
      "alone takes 8-14 ms; 16-37 ms measured in all); an examiner's call, once per roster",
  },
};

/**
 * The routes with a request limit, as their route config declares it (pinned: the test fails when a route's limit
 * differs from this, or a limited route is missing here). `max` is per window, counted per `per`.
 */
export const THROTTLED: Partial<Record<EndpointName, { max: number | "config"; windowMs: number; per: string }>> = {
  registerStudent: {
    max: "config",
    windowMs: 10 * 60_000,
    per: "address and drive code, a registration that proves whom it is for taken back (REGISTRATION_RATE_LIMIT)",
  },
  personalLink: {
    max: "config",
    windowMs: 10 * 60_000,
    per: "address, a link found taken back (REGISTRATION_RATE_LIMIT)",
  },
  registrationDrive: {
    max: "config",
    windowMs: 10 * 60_000,
    per: "address and drive code, a drive's code taken back (REGISTRATION_RATE_LIMIT)",
  },
  sendEmailCode: { max: "config", windowMs: 10 * 60_000, per: "address and drive code (REGISTRATION_RATE_LIMIT)" },
  invitation: { max: 30, windowMs: 60_000, per: "address" },
  acceptInvitation: { max: 30, windowMs: 60_000, per: "address" },
  sendEnquiry: { max: 5, windowMs: 10 * 60_000, per: "address" },
  verifyCertificate: { max: 60, windowMs: 60_000, per: "address" },
  certificate: { max: 10, windowMs: 60_000, per: "student" },
  scorecard: { max: 10, windowMs: 60_000, per: "student" },
  studentResults: {
    max: "config",
    windowMs: 10 * 60_000,
    per: "address, a registration found taken back (REGISTRATION_RATE_LIMIT)",
  },
  studentResultCertificate: { max: 10, windowMs: 60_000, per: "registration named (e-mail or personal link)" },
  studentResultScorecard: { max: 10, windowMs: 60_000, per: "registration named (e-mail or personal link)" },
};

/** The budget of one route. */
export function budgetOf(name: EndpointName): CostBudget {
  return BUDGET_EXCEPTIONS[name] ?? (THROTTLED[name] ? THROTTLED_BUDGET : DEFAULT_BUDGET);
}
