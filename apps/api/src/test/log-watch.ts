// The log holds nothing a test marked secret or personal. Tests mark values as they make them (a token, a password,
// an invitation's link, a download ticket, a certificate's code, a student's e-mail address and phone); an app that
// logs to `watchedLog()` has its log searched for every marked value, in the forms an address or a JSON string
// would carry it, when its file's tests are done. The security suite's apps all log to one; a file's log and its
// marks are also left in the run's folder, where the global teardown searches every log for every file's marks
// (a value marked in one file and logged by another).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where each watched log and its file's marks are left for the global teardown. */
    logWatchDir: string;
  }
}

export type Sensitivity = "secret" | "personal";

interface Mark {
  value: string;
  sensitivity: Sensitivity;
  what: string;
}

/** Shorter values would match by chance (a USN's digits, a word of a message). */
const SHORTEST = 8;

const marks = new Map<string, Mark>();

/** Marks a value the log must never hold: a credential (`secret`) or a person's data (`personal`). */
export function markSensitive(value: string | undefined, sensitivity: Sensitivity, what: string): void {
  if (value && value.length >= SHORTEST) marks.set(value, { value, sensitivity, what });
}

/** The forms a value takes in a log line: as typed, lower-cased, percent-encoded, JSON-escaped. */
function formsOf(value: string): string[] {
  return [
    ...new Set(
      [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)].map((form) => form.toLowerCase()),
    ),
  ];
}

/** The marked values a log holds, each with the first line that holds it (the value masked). */
export function leaksIn(log: string, among: Iterable<Mark> = marks.values()): string[] {
  const lower = log.toLowerCase();
  const found: string[] = [];
  for (const mark of among) {
    for (const form of formsOf(mark.value)) {
      const at = lower.indexOf(form);
      if (at === -1) continue;
      const start = lower.lastIndexOf("\n", at) + 1;
      const end = lower.indexOf("\n", at);
      const line = log.slice(start, end === -1 ? undefined : end).replaceAll(log.slice(at, at + form.length), "«…»");
      found.push(`${mark.sensitivity} value (${mark.what}) in the log: ${line.slice(0, 400)}`);
      break;
    }
  }
  return found;
}

/**
 * A log stream for createTestApp({ logStream }) whose content is searched for every marked value after the tests of
 * the block that called it (and, by the global teardown, for every other file's marks too).
 */
export function watchedLog(): PassThrough {
  const stream = new PassThrough();
  let logged = "";
  stream.on("data", (chunk) => {
    logged += chunk;
  });
  afterAll(() => {
    const dir = inject("logWatchDir");
    const name = randomBytes(6).toString("hex");
    fs.writeFileSync(path.join(dir, `${name}.log`), logged);
    fs.writeFileSync(path.join(dir, `${name}.marks.json`), JSON.stringify([...marks.values()]));
    const leaks = leaksIn(logged);
    if (leaks.length > 0) throw new Error(leaks.join("\n"));
  });
  return stream;
}

/** For the global teardown: every log left in `dir` searched for every file's marks. */
export function leaksInRun(dir: string): string[] {
  const files = fs.readdirSync(dir);
  const all = files
    .filter((file) => file.endsWith(".marks.json"))
    .flatMap((file) => JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Mark[]);
  return files
    .filter((file) => file.endsWith(".log"))
    .flatMap((file) => leaksIn(fs.readFileSync(path.join(dir, file), "utf8"), all));
}
