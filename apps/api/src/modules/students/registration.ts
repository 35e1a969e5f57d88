// Student registration (design decision 7): email (case-insensitive) and USN are unique, and registering again
// with the same email and USN gives a token for that student while they may still take or finish the quiz.
import type { StudentRegistration } from "@trainwise/contract/auth";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { attempts } from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";
import { findStudentsByEmailOrUsn, insertStudent, insertStudentIfNew } from "./repository.ts";

const EMAIL_TAKEN = "This email is already registered.";
const USN_TAKEN = "This USN is already registered.";

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  return (
    (cause as { code?: string; constraint?: string })?.code === "23505" &&
    (cause as { constraint?: string }).constraint === constraint
  );
}

/** The id of the registered (or resumed) student. */
export async function registerStudent(db: Database, input: StudentRegistration): Promise<string> {
  // A new student, the common case, in one statement; a taken email or USN is sorted out below.
  const created = await insertStudentIfNew(db, input);
  if (created) return created.id;
  const matches = await findStudentsByEmailOrUsn(db, input.email, input.usnNo);
  const sameEmail = matches.find((student) => student.email.toLowerCase() === input.email.toLowerCase());
  const sameUsn = matches.find((student) => student.usnNo.toLowerCase() === input.usnNo.toLowerCase());
  if (sameEmail && sameEmail === sameUsn) {
    const taken = await db
      .select({ submittedAt: attempts.submittedAt })
      .from(attempts)
      .where(eq(attempts.studentId, sameEmail.id));
    const finished = taken.filter((attempt) => attempt.submittedAt).length;
    const unfinished = taken.length - finished;
    if (unfinished > 0 || taken.length < sameEmail.attemptsAllowed) return sameEmail.id;
    throw new HttpError(409, "You have already taken the quiz with this email and USN.");
  }
  if (sameEmail) throw new HttpError(409, EMAIL_TAKEN, { email: EMAIL_TAKEN });
  if (sameUsn) throw new HttpError(409, USN_TAKEN, { usnNo: USN_TAKEN });
  try {
    return (await insertStudent(db, input)).id;
  } catch (error) {
    // Two registrations racing for the same email or USN: the database's unique index decides.
    if (isUniqueViolation(error, "students_email_unique"))
      throw new HttpError(409, EMAIL_TAKEN, { email: EMAIL_TAKEN });
    if (isUniqueViolation(error, "students_usn_unique")) throw new HttpError(409, USN_TAKEN, { usnNo: USN_TAKEN });
    throw error;
  }
}
