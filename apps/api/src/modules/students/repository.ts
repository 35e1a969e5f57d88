// Students and their registration details.

import type { studentTableQuerySchema } from "@trainwise/contract/admin-tables";
import type { StudentDetails } from "@trainwise/contract/auth";
import type { StudentAdmin, StudentListQuery, studentCorrectionSchema } from "@trainwise/contract/students";
import { and, eq, gt, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database, Executor } from "../../db/client.ts";
import {
  containsPattern,
  keysetBatches,
  limitOffset,
  listWindow,
  orderBy,
  TOTAL_OVER_ALL,
  toPage,
} from "../../db/paging.ts";
import { attempts, students } from "../../db/schema.ts";
import { isoInstantSql, wallClockSql } from "../../db/wall-clock.ts";
import { recordKeyShownBy, rosterListsSql } from "../drives/repository.ts";

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

/**
 * The registrations a resume code was given for, with this email (any case): found by the code's hash, so the
 * email alone, which classmates know, finds nothing (decision 026).
 */
export function studentsByResumeCode(db: Executor, email: string, resumeCodeHash: string) {
  return db
    .select({ id: students.id, name: students.name })
    .from(students)
    .where(
      and(
        eq(students.resumeCodeHash, resumeCodeHash),
        sql`lower(${students.email}) = lower(${email})`,
        // An invigilator's one-time code works only within its time, here as at registration.
        sql`(${students.resumeAllowedUntil} is null or ${students.resumeAllowedUntil} > now())`,
      ),
    );
}

/**
 * The student's drive and the details that must stay unique in it (what a correction checks); undefined when there is
 * no such student.
 */
export async function findStudent(db: Executor, id: string) {
  const [row] = await db
    .select({ id: students.id, driveId: students.driveId, email: students.email, usnNo: students.usnNo })
    .from(students)
    .where(eq(students.id, id));
  return row;
}

/** Writes an admin's corrections (only the details given); undefined when the student is gone. */
export async function updateStudentDetails(
  db: Executor,
  id: string,
  details: z.output<typeof studentCorrectionSchema>,
) {
  // Another address is no longer the one the student proved is theirs.
  const emailVerifiedAt =
    details.email === undefined
      ? {}
      : {
          emailVerifiedAt: sql`case when lower(${students.email}) = lower(${details.email}) then ${students.emailVerifiedAt} end`,
        };
  const [row] = await db
    .update(students)
    .set({ ...details, ...emailVerifiedAt })
    .where(eq(students.id, id))
    .returning({ id: students.id, name: students.name });
  return row;
}

/** A student as stored: the registration details, the drive, and the hashes of the resume code and client key. */
export type NewStudent = StudentDetails & {
  driveId: string;
  resumeCodeHash: string;
  registrationKeyHash: string | null;
  /** Set when the student typed the code e-mailed to their address (a drive that verifies e-mail). */
  emailVerifiedAt?: Date | null;
};

function studentValues(input: NewStudent) {
  const { name, email, phone, usnNo, college, course, group, year, driveId } = input;
  const { resumeCodeHash, registrationKeyHash, emailVerifiedAt } = input;
  return {
    ...{ name, email, phone, usnNo, college, course, group, year, driveId },
    ...{ resumeCodeHash, registrationKeyHash, emailVerifiedAt },
  };
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
 * Uses up the resume code an admin made with "let resume", if `resumeCodeHash` is still its hash and its time has not
 * run out: the student gets a code of their own for next time (`nextResumeCodeHash`) and their earlier sessions end,
 * so the attempt continues on this device only. False when the code was used already (two tries racing) or is late.
 */
export async function takeResumeAllowance(
  db: Executor,
  id: string,
  resumeCodeHash: string,
  nextResumeCodeHash: string,
): Promise<boolean> {
  const now = new Date();
  const rows = await db
    .update(students)
    .set({ resumeCodeHash: nextResumeCodeHash, resumeAllowedUntil: null, sessionsValidFrom: now })
    .where(and(eq(students.id, id), eq(students.resumeCodeHash, resumeCodeHash), gt(students.resumeAllowedUntil, now)))
    .returning({ id: students.id });
  return rows.length > 0;
}

/** Gives the student a new resume code (its hash is stored): the one made before never reached them. */
export async function replaceResumeCode(db: Executor, id: string, resumeCodeHash: string) {
  await db.update(students).set({ resumeCodeHash, resumeAllowedUntil: null }).where(eq(students.id, id));
}

/**
 * An admin's "let resume": the student's resume code becomes one the admin hands over (its hash is stored), usable
 * once for the next `minutes`. The code the student had stops working at once: it was lost, or someone saw it.
 */
export async function allowResume(db: Executor, id: string, minutes: number, resumeCodeHash: string) {
  const [row] = await db
    .update(students)
    .set({ resumeCodeHash, resumeAllowedUntil: new Date(Date.now() + minutes * 60_000) })
    .where(eq(students.id, id))
    .returning({ id: students.id, resumeAllowedUntil: students.resumeAllowedUntil });
  return row;
}

/** Deletes the student's registration; their attempts and answers go with it (the schema's cascade). */
export async function removeStudent(db: Database, id: string) {
  return db.transaction(async (tx) => {
    // The personal link the registration used goes with it: "links for lines without one" makes the line a new one,
    // for its student to come in by (the old link, which someone else may hold, stays spent).
    const line = { email: sql`r.email`, usnNo: sql`r.usn_no` };
    await tx.execute(sql`
      update drive_roster r
      set link_token_hash = null, link_made_at = null, link_emailed_at = null, link_used_at = null
      from students s
      where s.id = ${id} and r.drive_id = s.drive_id and r.link_used_at is not null
        and ${rosterListsSql(line, sql`s.email`, sql`s.usn_no`)}`);
    await recordKeyShownBy(tx, id);
    const [row] = await tx.delete(students).where(eq(students.id, id)).returning({ id: students.id });
    return row;
  });
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

/** The spec's list searches name, e-mail, USN, college and course (contains), and filters by drive. */
function studentListFilters(query: StudentListQuery): SQL {
  const conditions: SQL[] = [sql`true`];
  if (query.search) {
    const pattern = containsPattern(query.search);
    conditions.push(sql`(s.name ilike ${pattern} or s.email ilike ${pattern} or s.usn_no ilike ${pattern}
      or s.college ilike ${pattern} or s.course ilike ${pattern})`);
  }
  if (query.driveId) conditions.push(sql`s.drive_id = ${query.driveId}`);
  return sql.join(conditions, sql` and `);
}

/**
 * Students, newest first, with their drive and how many attempts each has used; paged when asked for a page.
 * PostgreSQL writes each row as the contract names it (createdAt already in ISO 8601), so a list of 1,000 rows is
 * not mapped again here: mapping it (Drizzle's row decoding, a Date per row, the route's copy of each row) held the
 * event loop longest of this route's request, and read 21 ms of a budget of 20 in a CI run (cost.test.ts).
 */
export async function listStudents(db: Executor, query: StudentListQuery = {}) {
  const where = studentListFilters(query);
  const { limit, offset } = listWindow(query);
  const [{ rows: counted }, { rows }] = await Promise.all([
    db.execute<{ total: number }>(sql`select count(*)::int as total from students s where ${where}`),
    db.execute<StudentAdmin>(sql`
      select s.id as "_id", s.name, s.email, s.phone, s.usn_no as "usnNo", s.college, s.course, s."group", s.year,
             ${isoInstantSql("s.created_at")} as "createdAt", s.drive_id as "driveId", d.name as "driveName",
             d.time_zone as "timeZone", s.time_multiplier as "timeMultiplier", s.attempts_allowed as "attemptsAllowed",
             (select count(*)::int from attempts a where a.student_id = s.id) as "attemptsUsed"
      from students s
      join drives d on d.id = s.drive_id
      where ${where}
      order by s.created_at desc, s.id desc
      limit ${limit} offset ${offset}`),
  ]);
  return { students: rows, total: counted[0]?.total ?? 0 };
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

type StudentTableQuery = z.output<typeof studentTableQuerySchema>;
/** The filters of the students table (and its export), without paging or sorting. */
export type StudentFilters = Pick<StudentTableQuery, "search" | "driveId" | "college">;

/** The students table searches name, USN and e-mail; filters by drive and college (contains). */
function studentFilters(filters: StudentFilters): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filters.search) {
    const pattern = containsPattern(filters.search);
    conditions.push(sql`(s.name ilike ${pattern} or s.usn_no ilike ${pattern} or s.email ilike ${pattern})`);
  }
  if (filters.driveId) conditions.push(sql`s.drive_id = ${filters.driveId}`);
  if (filters.college) conditions.push(sql`s.college ilike ${containsPattern(filters.college)}`);
  return sql.join(conditions, sql` and `);
}

type StudentTableRow = {
  id: string;
  name: string;
  email: string;
  phone: string;
  usn_no: string;
  college: string;
  course: string;
  group: string;
  year: string;
  time_multiplier: number;
  attempts_allowed: number;
  attempts_used: number;
  created_at: Date | string;
  drive_id: string;
  drive_name: string;
  time_zone: string;
  total: string;
};

const STUDENT_SORTS = { date: sql`s.created_at`, name: sql`s.name` } as const;

/**
 * One page of the students table in one query: the page's ids with `count(*) over ()` first, then the page's
 * rows with their drive and attempts used, so the per-row lookups run for the page only.
 */
export async function studentTable(db: Executor, query: StudentTableQuery) {
  const order = orderBy(STUDENT_SORTS[query.sort], sql`s.id`, query.order);
  const { rows } = await db.execute<StudentTableRow>(sql`
    with matched as (
      select s.id, ${TOTAL_OVER_ALL} as total
      from students s
      where ${studentFilters(query)}
      order by ${order}
      ${limitOffset(query)}
    )
    select s.id, s.name, s.email, s.phone, s.usn_no, s.college, s.course, s."group", s.year, s.time_multiplier,
           s.attempts_allowed, s.created_at, s.drive_id, d.name as drive_name, d.time_zone, m.total,
           (select count(*)::int from attempts a where a.student_id = s.id) as attempts_used
    from matched m
    join students s on s.id = m.id
    join drives d on d.id = s.drive_id
    order by ${order}`);
  return toPage(rows, query, studentOut, async () => {
    const { rows: counted } = await db.execute<{ total: number }>(
      sql`select count(*)::int as total from students s where ${studentFilters(query)}`,
    );
    return counted[0]?.total ?? 0;
  });
}

function studentOut(row: StudentTableRow) {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    usnNo: row.usn_no,
    college: row.college,
    course: row.course,
    group: row.group,
    year: row.year,
    timeMultiplier: row.time_multiplier,
    attemptsAllowed: row.attempts_allowed,
    attemptsUsed: row.attempts_used,
    createdAt: new Date(row.created_at).toISOString(),
    driveId: row.drive_id,
    driveName: row.drive_name,
    timeZone: row.time_zone,
  };
}

/** Every student matching the filters, newest first, in keyset batches: the export streams these. */
export function studentBatches(db: Executor, filters: StudentFilters) {
  return keysetBatches<StudentTableRow & { created_local: string }, { createdAt: string; id: string }>(
    async (after, size) => {
      const { rows } = await db.execute<StudentTableRow & { created_local: string }>(sql`
        select s.id, s.name, s.email, s.phone, s.usn_no, s.college, s.course, s."group", s.year, s.time_multiplier,
               s.attempts_allowed, s.created_at::text as created_at, s.drive_id, d.name as drive_name, 0 as total,
               d.time_zone, ${wallClockSql("s.created_at", "d.time_zone")} as created_local,
               (select count(*)::int from attempts a where a.student_id = s.id) as attempts_used
        from students s
        join drives d on d.id = s.drive_id
        where ${studentFilters(filters)}
          ${after ? sql`and (s.created_at, s.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql``}
        order by s.created_at desc, s.id desc
        limit ${size}`);
      return rows;
    },
    (row) => ({ createdAt: String(row.created_at), id: row.id }),
  );
}
