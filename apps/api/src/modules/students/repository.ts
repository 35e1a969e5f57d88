// Students and their registration details.
import type { StudentDetails } from "@trainwise/contract/auth";
import type { StudentListQuery } from "@trainwise/contract/students";
import { and, count, desc, eq, gt, or, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { attempts, drives, students } from "../../db/schema.ts";

/** Students of the drive whose email or USN matches, case-insensitively. */
export function findStudentsInDrive(db: Executor, driveId: string, email: string, usnNo: string) {
  return db
    .select()
    .from(students)
    .where(
      and(
        eq(students.driveId, driveId),
        or(sql`lower(${students.email}) = lower(${email})`, sql`lower(${students.usnNo}) = lower(${usnNo})`),
      ),
    );
}

/** A student as stored: the registration details, the drive, and the hashes of the resume code and client key. */
export type NewStudent = StudentDetails & {
  driveId: string;
  resumeCodeHash: string;
  registrationKeyHash: string | null;
};

function studentValues(input: NewStudent) {
  const { name, email, phone, usnNo, college, course, group, year, driveId } = input;
  const { resumeCodeHash, registrationKeyHash } = input;
  return { name, email, phone, usnNo, college, course, group, year, driveId, resumeCodeHash, registrationKeyHash };
}

/** Stores a new student; undefined when the email or USN is already taken (nothing is stored then). */
export async function insertStudentIfNew(db: Executor, input: NewStudent) {
  const [student] = await db
    .insert(students)
    .values(studentValues(input))
    .onConflictDoNothing()
    .returning({ id: students.id });
  return student;
}

export async function insertStudent(db: Executor, input: NewStudent) {
  const [student] = await db.insert(students).values(studentValues(input)).returning();
  if (!student) throw new Error("The student was not stored.");
  return student;
}

/**
 * Uses up an admin's "let resume" if one is still valid: the student gets a new resume code (its hash is
 * stored) and their earlier sessions end, so the attempt continues on this device only.
 */
export async function takeResumeAllowance(db: Executor, id: string, resumeCodeHash: string): Promise<boolean> {
  const now = new Date();
  const rows = await db
    .update(students)
    .set({ resumeCodeHash, resumeAllowedUntil: null, sessionsValidFrom: now })
    .where(and(eq(students.id, id), gt(students.resumeAllowedUntil, now)))
    .returning({ id: students.id });
  return rows.length > 0;
}

/** Gives the student a new resume code (its hash is stored): the one made before never reached them. */
export async function replaceResumeCode(db: Executor, id: string, resumeCodeHash: string) {
  await db.update(students).set({ resumeCodeHash }).where(eq(students.id, id));
}

/** An admin lets the student register again without the resume code, for the next `minutes`. */
export async function allowResume(db: Executor, id: string, minutes: number) {
  const [row] = await db
    .update(students)
    .set({ resumeAllowedUntil: new Date(Date.now() + minutes * 60_000) })
    .where(eq(students.id, id))
    .returning({ id: students.id });
  return row;
}

/** Ends every session of the student: tokens issued before now are refused from now on. */
export async function endSessions(db: Executor, id: string) {
  const [row] = await db
    .update(students)
    .set({ sessionsValidFrom: new Date() })
    .where(eq(students.id, id))
    .returning({ id: students.id });
  return row;
}

function searchCondition(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const pattern = `%${search.replaceAll(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return sql`(${students.name} ilike ${pattern} or ${students.email} ilike ${pattern} or ${students.usnNo} ilike ${pattern}
    or ${students.college} ilike ${pattern} or ${students.course} ilike ${pattern})`;
}

/** Students, newest first, with their drive and how many attempts each has used; paged when asked for a page. */
export async function listStudents(db: Executor, query: StudentListQuery = {}) {
  const where = and(searchCondition(query.search), query.driveId ? eq(students.driveId, query.driveId) : undefined);
  const [totalRow] = await db.select({ total: count() }).from(students).where(where);
  const pageSize = query.pageSize ?? (query.page ? 50 : undefined);
  const base = db
    .select({
      id: students.id,
      name: students.name,
      email: students.email,
      phone: students.phone,
      usnNo: students.usnNo,
      college: students.college,
      course: students.course,
      group: students.group,
      year: students.year,
      timeMultiplier: students.timeMultiplier,
      attemptsAllowed: students.attemptsAllowed,
      createdAt: students.createdAt,
      driveId: students.driveId,
      driveName: drives.name,
      // Spelled out: inside a subquery Drizzle would leave the outer column unqualified.
      attemptsUsed: sql<number>`(select count(*)::int from attempts a where a.student_id = "students"."id")`,
    })
    .from(students)
    .innerJoin(drives, eq(drives.id, students.driveId))
    .where(where)
    .orderBy(desc(students.createdAt), desc(students.id))
    .$dynamic();
  const rows = pageSize ? await base.limit(pageSize).offset(((query.page ?? 1) - 1) * pageSize) : await base;
  return { students: rows, total: totalRow?.total ?? 0 };
}

export async function setTimeMultiplier(db: Executor, id: string, timeMultiplier: number) {
  const [row] = await db
    .update(students)
    .set({ timeMultiplier })
    .where(eq(students.id, id))
    .returning({ id: students.id });
  return row;
}

/** Lets the student start one more attempt than they have used. */
export async function allowAnotherAttempt(db: Executor, id: string) {
  const [row] = await db
    .update(students)
    .set({
      attemptsAllowed: sql`(select count(*)::int from ${attempts} where ${attempts.studentId} = ${id}) + 1`,
      // A session left open on a shared computer must not start the new attempt: the student comes back with
      // their resume code (or an admin lets them resume).
      sessionsValidFrom: new Date(),
    })
    .where(eq(students.id, id))
    .returning({ id: students.id, attemptsAllowed: students.attemptsAllowed });
  return row;
}
