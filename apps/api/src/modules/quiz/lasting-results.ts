// A student's lasting way back to their results (decision 026): the email and resume code of a registration, or
// the personal link it came through, name the registration; its results are read as the result page reads them
// (resultOf), so a secure drive's score waits for its release here too. Anything that names no registration gets
// one answer, whatever was wrong.
import type { QuizResult } from "@trainwise/contract/quiz";
import type { ResultsLookup } from "@trainwise/contract/student-results";
import type { FastifyReply } from "fastify";
import type { Database } from "../../db/client.ts";
import { HttpError } from "../../http/http-error.ts";
import type { CounterStore } from "../../limits/counters.ts";
import { studentsOfPersonalLink } from "../drives/personal-links.ts";
import { DriveCodeGuesses, refuseWaitingTry } from "../students/drive-code-guesses.ts";
import { hashResumeCode } from "../students/registration.ts";
import { studentsByResumeCode } from "../students/repository.ts";
import { attemptsOf } from "./repository/attempt-reads.ts";
import { resultOf } from "./service.ts";

export const NO_MATCHING_RESULTS =
  "No results match these details. Check the email and the resume code you were given at registration, or open " +
  "your personal link again.";

/** A lookup that named no registration: counted against the address as a wrong code is. */
export class ResultsLookupRefused extends HttpError {
  constructor() {
    super(404, NO_MATCHING_RESULTS);
  }
}

/** The registrations the lookup names; refused when it names none. */
export async function studentsOfLookup(db: Database, lookup: ResultsLookup): Promise<{ id: string; name: string }[]> {
  const found = lookup.linkToken
    ? await studentsOfPersonalLink(db, lookup.linkToken)
    : lookup.email && lookup.resumeCode
      ? await studentsByResumeCode(db, lookup.email, hashResumeCode(lookup.resumeCode))
      : [];
  if (found.length === 0) throw new ResultsLookupRefused();
  return found;
}

/** Every submitted attempt of those registrations, newest first, each as its result page shows it. */
export async function lastingResults(db: Database, found: { id: string; name: string }[]) {
  const results: { submittedAt: string; result: QuizResult }[] = [];
  for (const student of found) {
    for (const attempt of await attemptsOf(db, student.id)) {
      if (!attempt.submittedAt) continue;
      const result = await resultOf(db, student.id, attempt.id);
      results.push({ submittedAt: attempt.submittedAt.toISOString(), result });
    }
  }
  results.sort((a, b) => b.submittedAt.localeCompare(a.submittedAt));
  return { studentName: found[0]?.name ?? "", results };
}

/**
 * Looks the registration up as registration checks a drive code: each wrong lookup counts against the address with
 * the wrong drive codes (drive-code-guesses.ts: past 20 in 10 minutes each further try waits, up to 30 s), so a
 * 40-bit resume code or a 128-bit link cannot be guessed from one network; a lookup that finds someone is taken back.
 */
export function guardedLookup(counters: CounterStore) {
  const guesses = new DriveCodeGuesses(counters);
  return async (db: Database, ip: string, reply: FastifyReply, lookup: ResultsLookup) => {
    const lookupTry = await guesses.enter(ip);
    refuseWaitingTry(lookupTry, reply, "Too many tries that matched nothing from this network.");
    return lookupTry.settle(
      () => studentsOfLookup(db, lookup),
      (error) => error instanceof ResultsLookupRefused,
    );
  };
}
