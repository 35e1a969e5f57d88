// An admin corrects a candidate's details (a typo at registration, a name as the college spells it). Email and USN
// stay unique within the student's drive; a clash is refused naming which, since the admin may know whose they are.
import type { studentCorrectionSchema } from "@trainwise/contract/students";
import type { z } from "zod";
import type { Database } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { HttpError } from "../../http/http-error.ts";
import { findStudent, findStudentsInDrive, updateStudentDetails } from "./repository.ts";

type Correction = z.output<typeof studentCorrectionSchema>;

const EMAIL_IN_USE = "Another student in this drive has this email";
const USN_IN_USE = "Another student in this drive has this USN";

function inUse(email: boolean, usnNo: boolean): HttpError {
  const fields = { ...(email ? { email: EMAIL_IN_USE } : {}), ...(usnNo ? { usnNo: USN_IN_USE } : {}) };
  const what = email && usnNo ? "this email, and one with this USN" : email ? "this email" : "this USN";
  return new HttpError(409, `Another student in this drive is registered with ${what}. Nothing was changed.`, fields);
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Corrects the details given; answers the student's name as it now reads. */
export async function correctDetails(db: Database, id: string, correction: Correction): Promise<{ name: string }> {
  const student = await findStudent(db, id);
  if (!student) throw new HttpError(404, "Student not found.");
  const { email, usnNo } = correction;
  if (email !== undefined || usnNo !== undefined) {
    const others = (
      await findStudentsInDrive(db, student.driveId, email ?? student.email, usnNo ?? student.usnNo)
    ).filter((other) => other.id !== id);
    const emailTaken = email !== undefined && others.some((other) => same(other.email, email));
    const usnTaken = usnNo !== undefined && others.some((other) => same(other.usnNo, usnNo));
    if (emailTaken || usnTaken) throw inUse(emailTaken, usnTaken);
  }
  try {
    const updated = await updateStudentDetails(db, id, correction);
    if (!updated) throw new HttpError(404, "Student not found.");
    return updated;
  } catch (error) {
    // Someone registered with the email or USN meanwhile: the database's unique index decides.
    if (isUniqueViolation(error, "students_drive_email_unique")) throw inUse(true, false);
    if (isUniqueViolation(error, "students_drive_usn_unique")) throw inUse(false, true);
    throw error;
  }
}
