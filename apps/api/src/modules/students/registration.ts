// Student registration into a drive: the drive's code (none: the always-open default drive), its window and
// roster decide who may register; email (case-insensitive) and USN are unique within a drive. Registering again
// in the same drive needs the resume code shown once at the first registration, or the one-time code an admin's
// "let resume" made for the student: an email and a USN alone, which classmates know, never hand over someone's
// attempt.
import { hash, randomInt } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { StudentRegistration } from "@trainwise/contract/auth";
import { LET_RESUME_MINUTES } from "@trainwise/contract/students";
import type { Database } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { HttpError } from "../../http/http-error.ts";
import { findPersonalLink, type LinkUsed, markPersonalLinkUsed } from "../drives/personal-links.ts";
import { type DriveForRegistration, findDriveForRegistration, isOnRoster } from "../drives/repository.ts";
import { driveWindowRefusal, lateEntryRefusal } from "../drives/window.ts";
import { checkEmailCode, useUpEmailCode } from "./email-codes.ts";
import {
  findStudentsInDrive,
  insertStudent,
  insertStudentIfNew,
  replaceResumeCode,
  takeResumeAllowance,
} from "./repository.ts";

/**
 * One answer for an email taken by someone, a USN taken by someone, and a registered student's missing or wrong
 * resume code: the same status, message and field, so that nobody learns from it whether an email, a USN or the
 * pair of them is someone's registration (classmates know each other's). A wrong code is answered alike too: a
 * distinct answer would confirm the pair to anyone typing any code beside it. What the 409 itself says, that the
 * registration cannot be made with these details, no unique email and USN can hide.
 */
const ALREADY_REGISTERED =
  "This email or USN is already registered for this test. If you registered before, enter the resume code you " +
  "were given. If you have no resume code, or it is not accepted, ask the invigilator.";

function alreadyRegistered(): HttpError {
  return new HttpError(409, ALREADY_REGISTERED, {
    resumeCode: "Enter the resume code you were given, or ask the invigilator",
  });
}

/**
 * A drive code that names no drive, and a roster that does not list the student, are answered alike: someone who
 * is not admitted learns nothing about which codes are drives (drive-code-guesses.ts counts both).
 */
export const NOT_ADMITTED =
  "This drive code does not let you in. Check the code you were given, and that your email and USN are the ones " +
  "your placement officer has.";

/** A refused drive code: counted against the address (drive-code-guesses.ts). */
export class DriveCodeRefused extends HttpError {
  constructor() {
    super(403, NOT_ADMITTED, { driveCode: NOT_ADMITTED });
  }
}

/**
 * How long after a request began its refused drive code is answered, whichever check refused it. The checks take
 * different times (an unknown code one read; a roster, a personal link or a registered pair one or two more), and
 * an outside attack told them apart by their answers' times: 1.5 ms for an unknown code against 2.0-2.6 ms for a
 * real drive's, right 98 times in 100 after 19 tries. Padded to this, every refusal takes the same time unless the
 * server is far slower than it ever is; the wait costs a timer, not a thread, and slows guessing too.
 */
export const REFUSAL_FLOOR_MS = 100;

/** Runs `work`, and answers its refused drive code (DriveCodeRefused) no sooner than REFUSAL_FLOOR_MS after now. */
export async function refusedNoSooner<T>(work: () => Promise<T>): Promise<T> {
  const answerAt = performance.now() + REFUSAL_FLOOR_MS;
  try {
    return await work();
  } catch (error) {
    // A timer may fire a little before its time by the clock read here, so wait again for what is left.
    for (let left = answerAt - performance.now(); error instanceof DriveCodeRefused && left > 0; ) {
      await sleep(left);
      left = answerAt - performance.now();
    }
    throw error;
  }
}

/** Only someone who typed the admin's code itself can get this answer: it tells nobody else anything. */
const RESUME_CODE_EXPIRED = `That resume code has expired: a code from the invigilator works for ${LET_RESUME_MINUTES} minutes. Ask them for a new one.`;

// No 0/O or 1/I: the code is read off a screen or a sheet of paper and typed again.
const RESUME_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A new resume code such as K7QM-29XD (40 bits): given to the student once, stored only as a hash. */
export function newResumeCode(): string {
  const characters = Array.from({ length: 8 }, () => RESUME_ALPHABET[randomInt(RESUME_ALPHABET.length)]);
  return `${characters.slice(0, 4).join("")}-${characters.slice(4).join("")}`;
}

export function hashResumeCode(code: string): string {
  return hash("sha256", code.toUpperCase().replace("-", ""));
}

function hashRegistrationKey(key: string): string {
  return hash("sha256", key);
}

/** How long the client that registered a student can repeat its registration (a retry after a lost answer). */
const REGISTRATION_REPLAY_MS = 60 * 60_000;

/** The answer when no current drive has the code (none: when the default drive is gone), wherever it is asked. */
export function noDriveFor(driveCode: string | undefined): HttpError {
  if (!driveCode) return new HttpError(403, "Registration is closed. Ask your institution for a drive code.");
  return new DriveCodeRefused();
}

/** The drive a code (none: the default drive) lets a student register for, or the refusal. */
export async function driveFor(db: Database, driveCode: string | undefined): Promise<DriveForRegistration> {
  const drive = await findDriveForRegistration(db, driveCode);
  if (!drive) throw noDriveFor(driveCode);
  return drive;
}

export interface Registered {
  studentId: string;
  /** Only when a code was just made: at the first registration, or when the student used an admin's one-time code. */
  resumeCode?: string;
  /**
   * The registration proved whom it is for: the drive's roster lists them, their personal link or an e-mail code
   * named them, or their resume code let them back in. Its request is not
   * counted against the network address it came from (decision 036); one on a drive open to anyone is.
   */
  proved: boolean;
}

/**
 * The personal link the registration came with, if any: a token that no line of the drive holds, or a line that
 * lists someone else, admits nobody (answered as any refused code).
 */
async function personalLinkOf(
  db: Database,
  driveId: string,
  input: StudentRegistration,
): Promise<LinkUsed | undefined> {
  if (!input.linkToken) return undefined;
  const link = await findPersonalLink(db, driveId, input.linkToken, input.email, input.usnNo);
  if (!link?.lists) throw new DriveCodeRefused();
  return link;
}

/** Registers the student in the drive of their code, or lets a registered student back in. */
export async function registerStudent(db: Database, input: StudentRegistration): Promise<Registered> {
  const drive = await driveFor(db, input.driveCode);
  const link = await personalLinkOf(db, drive.id, input);
  // The roster first: its window is news only to the students it lists, and on a drive of personal links only, to
  // those with a link or coming back (an outside attack read which pairs a roster lists from the window's message).
  if (drive.rosterOnly && !(await isOnRoster(db, drive.id, input.email, input.usnNo))) throw new DriveCodeRefused();
  const now = new Date();
  const refusal = driveWindowRefusal(drive, now);
  // Past the late-entry cut-off only someone new is refused: a student coming back may still resume (decision 035).
  const lateForNew = lateEntryRefusal(drive, now);
  const inWindow = () => {
    if (refusal) throw new HttpError(403, refusal);
  };
  if (!drive.personalLinksOnly) inWindow();
  // On a drive of personal links only, a new candidate needs an unused link; a registered one comes back with
  // their resume code (through their link or not).
  const admitsNew = !drive.personalLinksOnly || (link !== undefined && !link.used);
  if (admitsNew || link) inWindow();
  // On a drive that verifies e-mail, a new candidate needs the code sent to their address; one coming back does not.
  const emailChecked = drive.verifyEmail && input.emailCode !== undefined;
  if (admitsNew && emailChecked) await checkEmailCode(db, drive.id, input.email, input.emailCode);
  const resumeCode = newResumeCode();
  const registrationKeyHash = input.registrationKey ? hashRegistrationKey(input.registrationKey) : null;
  const details = {
    ...input,
    driveId: drive.id,
    resumeCodeHash: hashResumeCode(resumeCode),
    registrationKeyHash,
    emailVerifiedAt: emailChecked ? new Date() : null,
  };
  const registered = async (studentId: string): Promise<Registered> => {
    if (link) await markPersonalLinkUsed(db, link.lineId);
    if (emailChecked) await useUpEmailCode(db, drive.id, input.email);
    return { studentId, resumeCode, proved: drive.rosterOnly || link !== undefined || emailChecked };
  };
  // A new student, the common case, in one statement; a taken email or USN is sorted out below.
  const created =
    !lateForNew && admitsNew && (!drive.verifyEmail || emailChecked)
      ? await insertStudentIfNew(db, details)
      : undefined;
  if (created) return registered(created.id);

  const matches = await findStudentsInDrive(db, drive.id, input.email, input.usnNo);
  const sameEmail = matches.find((student) => student.email.toLowerCase() === input.email.toLowerCase());
  const sameUsn = matches.find((student) => student.usnNo.toLowerCase() === input.usnNo.toLowerCase());
  // Someone without a way in learns nothing of who has registered.
  const refused = () => (admitsNew ? alreadyRegistered() : new DriveCodeRefused());
  if (sameEmail && sameEmail === sameUsn) {
    // The same client again, with the key of its first registration: that answer (token and resume code) was
    // lost on the way, say when the instance that sent it died. The code made then never arrived; a new one does.
    if (
      registrationKeyHash &&
      sameEmail.registrationKeyHash === registrationKeyHash &&
      Date.now() - sameEmail.createdAt.getTime() < REGISTRATION_REPLAY_MS
    ) {
      inWindow();
      await replaceResumeCode(db, sameEmail.id, details.resumeCodeHash);
      // Counted: a lost answer is rare, and each replay writes a new code.
      return { studentId: sameEmail.id, resumeCode, proved: false };
    }
    if (input.resumeCode) {
      const given = hashResumeCode(input.resumeCode);
      if (sameEmail.resumeCodeHash === given) {
        inWindow();
        if (!sameEmail.resumeAllowedUntil) return { studentId: sameEmail.id, proved: true };
        // The code an admin made with "let resume": used up here, within its time, and the student gets a new code
        // of their own for the next time.
        if (await takeResumeAllowance(db, sameEmail.id, given, details.resumeCodeHash)) {
          return { studentId: sameEmail.id, resumeCode, proved: true };
        }
        if (sameEmail.resumeAllowedUntil <= new Date()) {
          throw new HttpError(409, RESUME_CODE_EXPIRED, { resumeCode: RESUME_CODE_EXPIRED });
        }
      }
    }
    throw link?.used ? alreadyRegistered() : refused();
  }
  if (sameEmail || sameUsn || !admitsNew) throw refused();
  if (lateForNew) throw new HttpError(403, lateForNew);
  if (drive.verifyEmail && !emailChecked) await checkEmailCode(db, drive.id, input.email, undefined);
  try {
    return registered((await insertStudent(db, details)).id);
  } catch (error) {
    // Two registrations racing for the same email or USN: the database's unique index decides, and the loser is
    // answered as any taken email or USN is.
    if (
      isUniqueViolation(error, "students_drive_email_unique") ||
      isUniqueViolation(error, "students_drive_usn_unique")
    )
      throw alreadyRegistered();
    throw error;
  }
}
