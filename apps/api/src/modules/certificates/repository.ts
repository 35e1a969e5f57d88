// Certificates of passing attempts (the code that verifies one, and what a verification may show), and what a
// scorecard says of any submitted attempt.
import { randomInt } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { wallClockSql } from "../../db/wall-clock.ts";
import { releasedSql } from "../drives/key-release.ts";
import { rosterAdmitsSql, rosterGivesUsnSql } from "../drives/repository.ts";

// No 0/O or 1/I: the code is typed from paper.
const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A new code such as 7KQM-29XD-PLH4: 60 bits, not guessable. */
export function newCertificateCode(): string {
  const characters = Array.from({ length: 12 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join("");
  return `${characters.slice(0, 4)}-${characters.slice(4, 8)}-${characters.slice(8)}`;
}

type CertificateRow = {
  code: string;
  studentName: string;
  testName: string;
  organisation: string;
  marks: number;
  totalQuestions: number;
  passedOn: string | Date;
  /** The student's USN when a roster line gives it; null when the roster vouches by email only. */
  usnNo: string | null;
  /** The organisation, or the drive's name when it has none: whose candidate list admitted the student. */
  listedBy: string;
  /** The roster did not vouch, the e-mailed code did: the address is theirs. */
  emailVerified: boolean;
};

/**
 * Who the certificate names, from the student `s` and the drive `d`: the name as registered, and the USN when the
 * drive's roster gives it (rosterGivesUsnSql).
 */
const IDENTITY_COLUMNS = (student: string, drive: string) =>
  sql.raw(`${student}.name as "studentName",
  coalesce(nullif(${drive}.organisation, ''), ${drive}.name) as "listedBy",
  (not ${drive}.roster_only and ${student}.email_verified_at is not null) as "emailVerified"`);

/**
 * Whether the drive `d` checked that the student `s` is who they registered as: its roster still admits them (a
 * roster-only drive), or they typed the code e-mailed to their address (a drive that verifies e-mail).
 */
function identityCheckedSql(s: SQL, d: SQL): SQL {
  return sql`((${d}.roster_only and ${rosterAdmitsSql(sql`${d}.id`, sql`${s}.email`, sql`${s}.usn_no`)})
    or (${d}.verify_email and ${s}.email_verified_at is not null))`;
}

/**
 * Gives the student's submitted, passed and released attempt its certificate code (once) and returns what the
 * certificate says. Only a roster-only drive whose roster still admits the student gives one: elsewhere the name
 * is whatever was typed at registration, and a certificate would vouch for a name nobody checked (issue 21).
 */
export async function issueCertificate(db: Executor, studentId: string, attemptId: string, code: string) {
  const { rows } = await db.execute<CertificateRow>(sql`
    with issued as (
      update attempts set certificate_code = coalesce(certificate_code, ${code})
      where id = ${attemptId} and student_id = ${studentId} and submitted_at is not null and passed
        -- A secure test's pass is news only once its drive releases results (decision 024).
        and (not secure or exists (select 1 from drives d where d.id = attempts.drive_id and ${sql.raw(releasedSql("d"))}))
        and exists (select 1 from students s join drives d on d.id = s.drive_id
          where s.id = attempts.student_id and ${identityCheckedSql(sql`s`, sql`d`)})
      returning certificate_code, drive_id, student_id, marks, total_questions, submitted_at
    )
    select i.certificate_code as code, ${IDENTITY_COLUMNS("s", "d")}, t.name as "testName",
           d.organisation, i.marks, i.total_questions as "totalQuestions", i.submitted_at as "passedOn",
           case when ${rosterGivesUsnSql(sql`d.id`, sql`s.usn_no`)} then s.usn_no end as "usnNo"
    from issued i join students s on s.id = i.student_id join drives d on d.id = i.drive_id
    join tests t on t.id = d.test_id`);
  const row = rows[0];
  return row ? { ...row, passedOn: new Date(row.passedOn) } : undefined;
}

/** The certificate with this code, as anyone may see it. */
export async function findCertificate(db: Executor, code: string) {
  const { rows } = await db.execute<{
    studentName: string;
    listedBy: string;
    emailVerified: boolean;
    usnNo: string | null;
    testName: string;
    passedOn: string | Date;
  }>(sql`
    select ${IDENTITY_COLUMNS("s", "d")}, t.name as "testName", a.submitted_at as "passedOn",
           case when ${rosterGivesUsnSql(sql`d.id`, sql`s.usn_no`)} then s.usn_no end as "usnNo"
    from attempts a join students s on s.id = a.student_id join drives d on d.id = a.drive_id
    join tests t on t.id = d.test_id
    where a.certificate_code = ${code}`);
  const row = rows[0];
  return row ? { ...row, passedOn: new Date(row.passedOn) } : undefined;
}

/**
 * What a scorecard says of the student's submitted attempt, besides its score: who (and whether the drive checked
 * it), where from, which test and drive, when, and how many questions were answered. Undefined for an attempt that
 * is not the student's or not submitted.
 */
export async function scorecardRecord(db: Executor, studentId: string, attemptId: string) {
  const { rows } = await db.execute<{
    studentName: string;
    listedBy: string;
    emailVerified: boolean;
    identityChecked: boolean;
    rosterUsn: string | null;
    email: string;
    usnNo: string;
    college: string;
    course: string;
    testName: string;
    driveId: string;
    driveName: string;
    organisation: string;
    submitted: string;
    answered: number;
  }>(sql`
    select ${IDENTITY_COLUMNS("s", "d")}, ${identityCheckedSql(sql`s`, sql`d`)} as "identityChecked",
           case when ${rosterGivesUsnSql(sql`d.id`, sql`s.usn_no`)} then s.usn_no end as "rosterUsn",
           s.email, s.usn_no as "usnNo", s.college, s.course, t.name as "testName", d.id as "driveId", d.name as "driveName",
           d.organisation, ${wallClockSql("a.submitted_at", "d.time_zone")} || ' (' || d.time_zone || ')' as submitted,
           (select count(*)::int from attempt_questions aq where aq.attempt_id = a.id
              and (aq.selected_option_id is not null or cardinality(aq.selected_option_ids) > 0)) as answered
    from attempts a join students s on s.id = a.student_id join drives d on d.id = a.drive_id
    join tests t on t.id = d.test_id
    where a.id = ${attemptId} and a.student_id = ${studentId} and a.submitted_at is not null`);
  return rows[0];
}
