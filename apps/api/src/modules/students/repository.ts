// Students and their registration details.
import type { StudentRegistration } from "@trainwise/contract/auth";
import { desc, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { students } from "../../db/schema.ts";

/** Students whose email or USN matches, case-insensitively. */
export function findStudentsByEmailOrUsn(db: Executor, email: string, usnNo: string) {
  return db
    .select()
    .from(students)
    .where(or(sql`lower(${students.email}) = lower(${email})`, sql`lower(${students.usnNo}) = lower(${usnNo})`));
}

export async function insertStudent(db: Executor, input: StudentRegistration) {
  const [student] = await db.insert(students).values(input).returning();
  if (!student) throw new Error("The student was not stored.");
  return student;
}

export function listStudents(db: Executor) {
  return db.select().from(students).orderBy(desc(students.createdAt));
}
