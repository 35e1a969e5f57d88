// Drives in the database: the admin's lists and edits, what registration needs to know about a drive, its
// roster, its results, and what its live board reads.
import { randomInt } from "node:crypto";
import type { driveTableQuerySchema } from "@trainwise/contract/admin-tables";
import type { AnswerTimingSignals } from "@trainwise/contract/answer-timing";
import { LIST_CAP } from "@trainwise/contract/common";
import type {
  AttemptEnding,
  DriveSettings,
  ReviewPolicy,
  SectionMarks,
  ServedSection,
} from "@trainwise/contract/drives";
import { and, count, desc, eq, ilike, isNull, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { type Database, type Executor, type NamedStatement, runNamed } from "../../db/client.ts";
import {
  containsPattern,
  keysetBatches,
  type ListQuery,
  listWindow,
  orderBy,
  TOTAL_OVER_ALL,
  toPage,
} from "../../db/paging.ts";
import { attemptQuestions, attempts, driveRoster, drives, students, tests } from "../../db/schema.ts";
import { answeredSql } from "../quiz/repository/attempt-rows.ts";
import { autoSubmittedSql, clockColumns, positionNowSql, runsOutAtSql } from "../quiz/repository/clock-sql.ts";
import { heldUntilSql, silenceHoldsSql } from "../quiz/repository/silence-sql.ts";
import {
  BURST_ANSWERS_SQL,
  lateAnswersSql,
  PACED_SECONDS_OF_ATTEMPT,
  withBurstsSql,
} from "../results/answer-timing-sql.ts";
import { RESULT_LINE_ANSWERS, RESULT_LINE_SQL, type ResultLineRecord } from "../results/export-lines.ts";
import { releaseAtSql, releasedSql, settledAtSql, settledSql } from "./key-release.ts";

export type DriveRow = typeof drives.$inferSelect;

/** Whether a drive may be given this test: it exists and is not archived. */
/** A current (not archived) test's section names in order; undefined when no current test has the id. */
export async function currentTestSections(db: Executor, testId: string): Promise<string[] | undefined> {
  const [row] = await db
    .select({ sections: tests.sections })
    .from(tests)
    .where(and(eq(tests.id, testId), isNull(tests.archivedAt)));
  return row?.sections.map((section) => section.name);
}

// No 0/O or 1/I: students copy the code from a projector or a printout.
const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/**
 * A made-up drive code: 8 characters, 40 bits. With guessing slowed per address (drive-code-guesses.ts), an
 * address tries a few thousand codes a day; among even ten thousand drives, one guess finds one about once in a
 * hundred million tries. Still short enough to read off a projector.
 */
export function newDriveCode(): string {
  return Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join("");
}

/**
 * A drive's attempts counted in one pass (submitted, passed, failed, and running now: what closing it would
 * interrupt), joined laterally beside its row: a subquery per count read a campus drive's ten thousand attempts
 * once each, and the drives table filtered to that test took 26 ms a page (bench:admin).
 */
function attemptCounts(db: Executor) {
  return db
    .select({
      submitted: sql<number>`count(*) filter (where ${attempts.submittedAt} is not null)::int`.as("submitted"),
      passed: sql<number>`count(*) filter (where ${attempts.passed})::int`.as("passed"),
      failed: sql<number>`count(*) filter (where not ${attempts.passed})::int`.as("failed"),
      sitting:
        sql<number>`count(*) filter (where ${attempts.submittedAt} is null and ${attempts.deadlineAt} > now())::int`.as(
          "sitting",
        ),
    })
    .from(attempts)
    .where(eq(attempts.driveId, drives.id))
    .as("attempt_counts");
}

function driveColumns(counts: ReturnType<typeof attemptCounts>) {
  return {
    drive: drives,
    testName: tests.name,
    rosterSize: sql<number>`(select count(*)::int from drive_roster r where r.drive_id = "drives"."id")`,
    students: sql<number>`(select count(*)::int from students s where s.drive_id = "drives"."id")`,
    submitted: counts.submitted,
    passed: counts.passed,
    failed: counts.failed,
    sitting: counts.sitting,
  };
}

/** Drives, the default first, then the newest, with their test's name and counts. */
/** Drives, the default first, then newest: a window of them (`listWindow`) and how many there are in all. */
export async function listDrives(db: Executor, query: ListQuery & { includeArchived?: boolean }) {
  const { limit, offset } = listWindow(query);
  const where = query.includeArchived ? undefined : isNull(drives.archivedAt);
  const counts = attemptCounts(db);
  const [rows, [counted]] = await Promise.all([
    db
      .select(driveColumns(counts))
      .from(drives)
      .innerJoin(tests, eq(tests.id, drives.testId))
      .leftJoinLateral(counts, sql`true`)
      .where(where)
      .orderBy(desc(drives.isDefault), desc(drives.createdAt), desc(drives.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(drives).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

type DriveTableQuery = z.output<typeof driveTableQuerySchema>;

/**
 * A drive's state at the database's clock: the same rule as `driveStatus` (window.ts), written in SQL so that the
 * table can filter on it; a property test runs both on generated drives and compares them.
 */
export function driveStatusSql(now: SQL = sql`now()`): SQL<"scheduled" | "open" | "closed"> {
  return sql`case
    when ${drives.closedAt} is not null or ${drives.closesAt} <= ${now} then 'closed'
    when ${drives.opensAt} > ${now} then 'scheduled'
    else 'open' end`;
}

function driveFilters(query: Pick<DriveTableQuery, "search" | "state" | "testId">): SQL {
  const conditions: SQL[] = [isNull(drives.archivedAt) as SQL];
  if (query.search) {
    const pattern = containsPattern(query.search);
    conditions.push(or(ilike(drives.name, pattern), ilike(drives.organisation, pattern)) as SQL);
  }
  if (query.state) conditions.push(sql`${driveStatusSql()} = ${query.state}`);
  if (query.testId) conditions.push(eq(drives.testId, query.testId) as SQL);
  return and(...conditions) as SQL;
}

/**
 * One page of the current drives in one query: the page's ids with `count(*) over ()` first, then the page's
 * rows with their test's name and counts, so the per-drive counts run for the page only.
 */
export async function driveTable(db: Executor, query: DriveTableQuery) {
  const id = sql`${drives.id}`;
  const order =
    query.sort === "opens"
      ? orderBy(sql`${drives.opensAt}`, id, query.order, { nullsLast: true })
      : orderBy(query.sort === "name" ? sql`${drives.name}` : sql`${drives.createdAt}`, id, query.order);
  const matched = db.$with("matched").as(
    db
      .select({ id: sql<string>`${drives.id}`.as("matched_id"), total: sql<string>`${TOTAL_OVER_ALL}`.as("total") })
      .from(drives)
      .where(driveFilters(query))
      .orderBy(order)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
  );
  const counts = attemptCounts(db);
  const rows = await db
    .with(matched)
    .select({ ...driveColumns(counts), total: matched.total })
    .from(matched)
    .innerJoin(drives, eq(drives.id, matched.id))
    .innerJoin(tests, eq(tests.id, drives.testId))
    .leftJoinLateral(counts, sql`true`)
    .orderBy(order);
  return toPage(
    rows,
    query,
    ({ total: _total, ...row }) => row,
    async () => {
      const [counted] = await db.select({ total: sql<number>`count(*)::int` }).from(drives).where(driveFilters(query));
      return counted?.total ?? 0;
    },
  );
}

/** The current drives for a filter, the default first, then the newest: names only. */
export function driveChoices(db: Executor) {
  return db
    .select({ id: drives.id, name: drives.name })
    .from(drives)
    .where(isNull(drives.archivedAt))
    .orderBy(desc(drives.isDefault), desc(drives.createdAt), desc(drives.id))
    .limit(LIST_CAP);
}

/** One drive by its id, archived or not, with its test's name and its attempts counted. */
export async function findDrive(db: Executor, id: string) {
  const counts = attemptCounts(db);
  const [row] = await db
    .select(driveColumns(counts))
    .from(drives)
    .innerJoin(tests, eq(tests.id, drives.testId))
    .leftJoinLateral(counts, sql`true`)
    .where(eq(drives.id, id));
  return row;
}

type DriveValues = Omit<DriveSettings, "code" | "opensAt" | "closesAt"> & {
  code: string;
  opensAt: Date | null;
  closesAt: Date | null;
};

export async function insertDrive(db: Executor, values: DriveValues) {
  const [row] = await db.insert(drives).values(values).returning({ id: drives.id });
  if (!row) throw new Error("The drive was not stored.");
  return row.id;
}

export async function updateDrive(db: Executor, id: string, values: DriveValues) {
  const [row] = await db.update(drives).set(values).where(eq(drives.id, id)).returning({ id: drives.id });
  return row;
}

/** Closes the drive now: nobody new registers or starts, and "ticks after close" results show their ticks. */
export async function closeDrive(db: Executor, id: string) {
  const [row] = await db
    .update(drives)
    .set({ closedAt: sql`coalesce(${drives.closedAt}, now())` })
    .where(eq(drives.id, id))
    .returning({ id: drives.id });
  return row;
}

export async function reopenDrive(db: Executor, id: string) {
  const [row] = await db.update(drives).set({ closedAt: null }).where(eq(drives.id, id)).returning({ id: drives.id });
  return row;
}

/** The attempt `a` showed its student what gives the drive's key away once the drive closed: ticks, or a secure score. */
const revealingAttemptSql = (a: string) =>
  sql.raw(`${a}.submitted_at is not null and (${a}.review_policy = 'ticks_after_close' or ${a}.secure)`);

/**
 * Whether the drive's students have been shown its answers since it closed, so it must never take new attempts:
 * an attempt that shows them now, a registration removed after it did (`key_shown_at`), or published results (an
 * outside attack reopened a drive published before anyone submitted, and one whose revealing registrations it had
 * removed, and each new submit then read its score and ticks at once).
 */
export async function keyShownAfterClose(db: Executor, id: string): Promise<boolean> {
  const { rows } = await db.execute<{ shown: boolean }>(sql`
    select (${drives.keyShownAt} is not null or ${drives.resultsPublishedAt} is not null
      or (${driveStatusSql()} = 'closed'
        and exists (select 1 from ${attempts} a where a.drive_id = ${drives.id} and ${revealingAttemptSql("a")})))
      as shown
    from ${drives} where ${drives.id} = ${id}`);
  return rows[0]?.shown === true;
}

/** Before the student is removed: records on their drive that they had been shown its key, if they had. */
export async function recordKeyShownBy(db: Executor, studentId: string) {
  await db.execute(sql`
    update ${drives} set key_shown_at = now()
    where ${drives.keyShownAt} is null and ${driveStatusSql()} = 'closed'
      and ${drives.id} = (select s.drive_id from ${students} s where s.id = ${studentId})
      and exists (select 1 from ${attempts} a where a.student_id = ${studentId} and ${revealingAttemptSql("a")})`);
}

/** When what waits for the drive's close reaches its students, and when the drive settles (decision 024). */
export async function driveRelease(db: Executor, id: string) {
  const { rows } = await db.execute<{
    released: boolean;
    releaseAt: string | null;
    settlesAt: string | null;
    secure: boolean;
    reviewPolicy: ReviewPolicy;
  }>(sql`
    select ${sql.raw(releasedSql("d"))} as released, ${sql.raw(releaseAtSql("d"))}::text as "releaseAt",
      ${sql.raw(settledAtSql("d"))}::text as "settlesAt", t.secure, t.review_policy as "reviewPolicy"
    from drives d join tests t on t.id = d.test_id where d.id = ${id}`);
  const row = rows[0];
  if (!row) return undefined;
  const at = (text: string | null) => (text === null ? null : new Date(text));
  return { ...row, releaseAt: at(row.releaseAt), settlesAt: at(row.settlesAt) };
}

/**
 * Publishes the drive's held results, if it holds them and has settled (closed, and none of its attempts can still
 * take an answer): publishing earlier would show keys to students still answering. Answers whether it did.
 */
export async function publishResults(db: Executor, id: string): Promise<boolean> {
  const { rows } = await db.execute(sql`
    update drives d set results_published_at = coalesce(d.results_published_at, now())
    where d.id = ${id} and d.hold_results and ${sql.raw(settledSql("d"))}
    returning d.id`);
  return rows.length > 0;
}

/** Whether any student has started the drive's test: its results then belong to that test. */
export async function driveHasAttempts(db: Executor, id: string): Promise<boolean> {
  const rows = await db.select({ id: attempts.id }).from(attempts).where(eq(attempts.driveId, id)).limit(1);
  return rows.length > 0;
}

/** Archiving hides a drive from the lists and closes it; its students and results stay. */
export async function archiveDrive(db: Executor, id: string) {
  const [row] = await db
    .update(drives)
    .set({ archivedAt: new Date(), closedAt: sql`coalesce(${drives.closedAt}, now())` })
    .where(and(eq(drives.id, id), eq(drives.isDefault, false)))
    .returning({ id: drives.id });
  return row;
}

/** Replaces the drive's roster with `entries`, all or nothing. */
export async function replaceRoster(db: Database, driveId: string, entries: { email: string; usnNo: string }[]) {
  await db.transaction((tx) => replaceRosterIn(tx, driveId, entries));
}

/** A roster line's identity, its email and USN with case ignored: a line uploaded again keeps its personal link. */
const ROSTER_IDENTITY_SQL = `lower(coalesce(email, '')) || E'\\n' || lower(coalesce(usn_no, ''))`;

// The personal links the roster holds, by the identity their line gives: a line the new roster lists again keeps
// its link (sent already, perhaps used), the first of its duplicates only, since a token admits from one line.
const rosterLinksStatement: NamedStatement = {
  name: "drives.roster-links",
  text: `select distinct on (identity) identity, link_token_hash, link_made_at, link_emailed_at, link_used_at
    from (
      select ${ROSTER_IDENTITY_SQL} as identity, r.*
      from drive_roster r where drive_id = $1 and link_token_hash is not null
    ) linked
    order by identity, link_made_at desc`,
};

// The lines' emails and USNs as two texts, one entry per line (parseRoster refuses control characters, so no entry
// holds a line break), not a row of parameters per line: building 60,000 parameters for the largest roster held the
// event loop about 200 ms (the security suite's cost test), and the driver's quoting of two arrays of 20,000 strings
// still 12–35 ms. An empty text splits into no entries and unnest pads it with nulls, read as empty (coalesce).
// The kept links come as arrays, joined on the identity.
const insertRosterStatement: NamedStatement = {
  name: "drives.insert-roster",
  text: `insert into drive_roster (drive_id, email, usn_no, link_token_hash, link_made_at, link_emailed_at, link_used_at)
    select $1::uuid, nullif(line.email, ''), nullif(line.usn_no, ''),
      kept.token_hash, kept.made_at, kept.emailed_at, kept.used_at
    from (
      select email, usn_no, identity, row_number() over (partition by identity order by place) as copy
      from (
        select email, usn_no, place, ${ROSTER_IDENTITY_SQL} as identity
        from unnest(string_to_array($2::text, E'\\n'), string_to_array($3::text, E'\\n'))
          with ordinality as uploaded(email, usn_no, place)
      ) uploaded
    ) line
    left join unnest($4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[])
      as kept(identity, token_hash, made_at, emailed_at, used_at)
      on kept.identity = line.identity and line.copy = 1`,
};

interface KeptLink {
  identity: string;
  link_token_hash: string;
  link_made_at: Date;
  link_emailed_at: Date | null;
  link_used_at: Date | null;
}

// Two uploads for one drive at once (a double click, two admins) take turns: without the lock, each deleted only
// the lines committed before it began, and the drive kept the union of both rosters.
const lockDriveForRosterStatement: NamedStatement = {
  name: "drives.lock-for-roster",
  text: "select 1 from drives where id = $1 for no key update",
};

async function replaceRosterIn(db: Executor, driveId: string, entries: { email: string; usnNo: string }[]) {
  await runNamed(db, lockDriveForRosterStatement, [driveId]);
  const kept = await runNamed<KeptLink>(db, rosterLinksStatement, [driveId]);
  await db.delete(driveRoster).where(eq(driveRoster.driveId, driveId));
  if (entries.length === 0) return;
  await runNamed(db, insertRosterStatement, [
    driveId,
    entries.map((entry) => entry.email).join("\n"),
    entries.map((entry) => entry.usnNo).join("\n"),
    kept.map((link) => link.identity),
    kept.map((link) => link.link_token_hash),
    kept.map((link) => link.link_made_at),
    kept.map((link) => link.link_emailed_at),
    kept.map((link) => link.link_used_at),
  ]);
}

export interface DriveForRegistration {
  id: string;
  name: string;
  opensAt: Date | null;
  closesAt: Date | null;
  closedAt: Date | null;
  timeZone: string;
  lateEntryMinutes: number | null;
  rosterOnly: boolean;
  personalLinksOnly: boolean;
  verifyEmail: boolean;
}

/** The drive a code names (none: the default drive); archived drives take nobody. */
export async function findDriveForRegistration(
  db: Executor,
  code: string | undefined,
): Promise<DriveForRegistration | undefined> {
  const [drive] = await db
    .select({
      id: drives.id,
      name: drives.name,
      opensAt: drives.opensAt,
      closesAt: drives.closesAt,
      closedAt: drives.closedAt,
      timeZone: drives.timeZone,
      lateEntryMinutes: drives.lateEntryMinutes,
      rosterOnly: drives.rosterOnly,
      personalLinksOnly: drives.personalLinksOnly,
      verifyEmail: drives.verifyEmail,
    })
    .from(drives)
    .where(and(code ? eq(drives.code, code) : eq(drives.isDefault, true), isNull(drives.archivedAt)));
  return drive;
}

type RosterLineColumns = { email: SQL; usnNo: SQL };

/**
 * Whether a roster line lists a student with this email and USN, in any case: every identifier the line gives is
 * the student's own, so a line with both is not met by someone who knows one of them.
 */
export function rosterListsSql(line: RosterLineColumns, email: SQL, usnNo: SQL): SQL {
  return sql`((${line.email} is null or lower(${line.email}) = lower(${email}))
    and (${line.usnNo} is null or lower(${line.usnNo}) = lower(${usnNo})))`;
}

/** Whether a roster line gives this email or this USN: found on the roster's, or the students', two indexes. */
function mentionsSql(line: RosterLineColumns, email: SQL, usnNo: SQL): SQL {
  return sql`(lower(${line.email}) = lower(${email}) or lower(${line.usnNo}) = lower(${usnNo}))`;
}

/**
 * Whether the drive's roster admits the student: a line lists them (rosterListsSql), no line gives their email or
 * USN with someone else's other identifier — else a student on an email-only line could register with the USN of
 * another student's line, and that student would find their USN taken — and the lines that mention them are not
 * two halves: an email-only line and a USN-only line do not together make a pair that no line gives (an outside
 * attack took a USN-only line's place with an email-only line's address). A line giving both, or lines that all
 * give the same one of them, vouch.
 */
export async function isOnRoster(db: Executor, driveId: string, email: string, usnNo: string): Promise<boolean> {
  const { rows } = await db.execute<{ admitted: boolean }>(
    sql`select ${rosterAdmitsSql(sql`${driveId}::uuid`, sql`${email}`, sql`${usnNo}`)} as admitted`,
  );
  return rows[0]?.admitted === true;
}

/** isOnRoster as a SQL value, for a statement that checks the roster of the drive `driveId` itself. */
export function rosterAdmitsSql(driveId: SQL, email: SQL, usnNo: SQL): SQL<boolean> {
  const line = { email: sql`r.email`, usnNo: sql`r.usn_no` };
  return sql`(select coalesce(bool_and(lists) and bool_or(lists)
        and (bool_or(full_line) or count(distinct gives_email) = 1), false) from (
      select ${rosterListsSql(line, email, usnNo)} as lists, r.email is not null and r.usn_no is not null as full_line,
        r.email is not null as gives_email
      from ${driveRoster} r
      where r.drive_id = ${driveId} and ${mentionsSql(line, email, usnNo)}
    ) mentioned)`;
}

/** Whether a line of the drive's roster gives this USN: then the roster, not the student, vouches for it. */
export function rosterGivesUsnSql(driveId: SQL, usnNo: SQL): SQL<boolean> {
  return sql`exists (select 1 from ${driveRoster} r where r.drive_id = ${driveId} and lower(r.usn_no) = lower(${usnNo}))`;
}

type RosterLineRecord = {
  email: string | null;
  usn_no: string | null;
  student_id: string | null;
  name: string | null;
  link_made_at: string | Date | null;
  link_emailed_at: string | Date | null;
  link_used_at: string | Date | null;
};

/**
 * A window of the drive's roster (email, then USN), each line with the first student of the drive it lists, and
 * how many lines there are. The students are looked up for the window's lines only, on their indexes.
 */
export async function rosterLines(db: Executor, driveId: string, query: ListQuery) {
  const { limit, offset } = listWindow(query);
  const line = { email: sql`w.email`, usnNo: sql`w.usn_no` };
  const [lines, [counted]] = await Promise.all([
    db.execute<RosterLineRecord>(sql`
      with window_lines as (
        select r.drive_id, r.email, r.usn_no, r.id, r.link_made_at, r.link_emailed_at, r.link_used_at
        from ${driveRoster} r
        where r.drive_id = ${driveId}
        order by lower(r.email) nulls last, lower(r.usn_no) nulls last, r.id
        limit ${limit} offset ${offset}
      )
      select w.email, w.usn_no, s.id as student_id, s.name, w.link_made_at, w.link_emailed_at, w.link_used_at
      from window_lines w
      left join lateral (
        select s.id, s.name from ${students} s
        where s.drive_id = w.drive_id and ${mentionsSql(line, sql`s.email`, sql`s.usn_no`)}
          and ${rosterListsSql(line, sql`s.email`, sql`s.usn_no`)}
        order by s.created_at limit 1
      ) s on true
      order by lower(w.email) nulls last, lower(w.usn_no) nulls last, w.id`),
    db.select({ total: count() }).from(driveRoster).where(eq(driveRoster.driveId, driveId)),
  ]);
  const rows = lines.rows.map((line) => ({
    email: line.email,
    usnNo: line.usn_no,
    registered: line.student_id ? { studentId: line.student_id, name: line.name ?? "" } : null,
    link: line.link_made_at
      ? {
          madeAt: new Date(line.link_made_at).toISOString(),
          emailedAt: line.link_emailed_at ? new Date(line.link_emailed_at).toISOString() : null,
          usedAt: line.link_used_at ? new Date(line.link_used_at).toISOString() : null,
        }
      : null,
  }));
  return { rows, total: counted?.total ?? 0 };
}

/** A drive result as PostgreSQL answers it: its answers' times still to be read (answer-timing.ts). */
/**
 * The drive's submitted attempts, best first (marks, then who submitted first), read in keyset batches: the
 * drive's page and its CSV hold one batch at a time, whatever the drive's size. Each row is a results line
 * (results/export-lines.ts): its student, how often the quiz page lost focus, what the server saw of when its
 * answers came, and whether it was auto-submitted.
 */
export function driveResultBatches(db: Executor, driveId: string, size?: number) {
  return keysetBatches<ResultLineRecord, { marks: number; submittedAt: string; id: string }>(
    async (after, limit) => {
      const { rows } = await db.execute<ResultLineRecord>(sql`
        select ${RESULT_LINE_SQL}
        from ${attempts} a
        join ${students} s on s.id = a.student_id
        join ${drives} d on d.id = a.drive_id
        join ${tests} t on t.id = d.test_id
        ${RESULT_LINE_ANSWERS}
        where a.drive_id = ${driveId} and a.submitted_at is not null
          ${
            after
              ? sql`and (coalesce(a.marks, a.score, 0)::float8 < ${after.marks}
                  or (coalesce(a.marks, a.score, 0)::float8 = ${after.marks}
                    and (a.submitted_at, a.id) > (${after.submittedAt}::timestamptz, ${after.id}::uuid)))`
              : sql``
          }
        order by coalesce(a.marks, a.score, 0)::float8 desc, a.submitted_at, a.id
        limit ${limit}`);
      return rows;
    },
    (row) => ({ marks: row.marks, submittedAt: row.submitted_at, id: row.id }),
    size,
  );
}

/**
 * One row of the live board as it is read every second: a student of the drive with their latest attempt, or a
 * roster line nobody has registered by (then `studentId` and the attempt's fields are null).
 */
export interface LiveAttemptRow {
  studentId: string | null;
  /** The roster line's id when the row is a line nobody has registered by. */
  rosterLineId: string | null;
  /** The student's name; a no-show's email, or USN when the line gives none. */
  name: string;
  usnNo: string;
  attemptId: string | null;
  /**
   * The question open by the attempt's clock (0-based; at the submit once submitted), as the quiz reads it
   * (positionNowSql): a question whose time ran out has moved the student on though nothing was written.
   */
  currentPosition: number | null;
  /**
   * Whether the attempt is served a question at a time (false before the start): one that is not shows the student
   * the open section's questions from `sectionFirst` to before `sectionEnd` (null: every question, the attempt being
   * one section as far as its clock goes).
   */
  paced: boolean;
  sectionFirst: number;
  sectionEnd: number | null;
  submittedAt: Date | null;
  /** Submitted after its time was up (runOutSql without the grace): by the page's timer or the server's sweep. */
  autoSubmitted: boolean;
  score: number | null;
  marks: number | null;
  totalQuestions: number | null;
  /** The attempt's own copy of its test's sections and, once scored, each one's part (null without sections). */
  sections: ServedSection[] | null;
  sectionMarks: SectionMarks[] | null;
  /** The attempt's latest own time: its start, the opening of the question on screen, a reload, or a heartbeat. */
  movedAt: Date | null;
  /** Times the quiz was opened again on the attempt while it ran. */
  reloads: number;
  /** Who ended the attempt before its student or its time did (decision 035). */
  endedBy: AttemptEnding | null;
  /** Times the quiz page left full screen while the attempt ran. */
  fullScreenExits: number;
  /** Seconds invigilators added to the attempt (decision 037). */
  addedSeconds: number;
  /** Seconds lost connections gave back to the attempt (decision 040). */
  creditedSeconds: number;
  /** Until when the attempt, whose time is up, is held open for its lost connection (decision 040); else null. */
  heldUntil: Date | null;
}

/**
 * Every student of the drive with their latest attempt (the open one, else the newest), and every roster line that
 * lists none of them (rosterListsSql, the rule the drive's roster page uses): the live board's read once a second
 * while an admin watches, at `now` (the board's clock). Students and attempts are found by their drive's index, a
 * few hundred pages at 5,000 students, and each roster line's student by the students' email and USN indexes
 * (bench/live-board.ts). It reads only what the quiz writes anyway.
 */
export async function liveAttempts(db: Executor, driveId: string, now: Date): Promise<LiveAttemptRow[]> {
  const clock = clockColumns("l");
  // A paced attempt's open question by the quiz's clock, at its submit once submitted; never behind the question
  // recorded (readClock's rule where positionNowSql counts back, before the recorded window opened).
  const openAt = "coalesce(l.submitted_at, n.now)";
  const position = `case when l.paced then greatest(l.current_position,
      least(${positionNowSql(clock, openAt)}, ${clock.sectionEnd} - 1)) else l.current_position end`;
  const result = await db.execute<Record<string, unknown>>(sql`
    with latest as (
      select distinct on (a.student_id) a.id, a.student_id, a.current_position, a.current_started_at, a.started_at,
        a.submitted_at, a.score, a.marks, a.total_questions, a.paced, a.seconds_per_question, a.deadline_at,
        a.section_first, a.section_end, a.section_deadline_at, a.reloads, a.reloaded_at, a.sections, a.section_marks,
        a.ended_by, a.full_screen_exits, a.added_seconds, a.credited_seconds, a.last_contact_at
      from ${attempts} a
      where a.drive_id = ${driveId}::uuid
      order by a.student_id, a.submitted_at is null desc, a.started_at desc
    )
    select s.id as "studentId", null::uuid as "rosterLineId", s.name, s.usn_no as "usnNo", l.id as "attemptId",
      ${sql.raw(position)} as "currentPosition", coalesce(l.paced, false) as paced,
      coalesce(l.section_first, 0) as "sectionFirst", l.section_end as "sectionEnd",
      l.submitted_at as "submittedAt",
      ${sql.raw(autoSubmittedSql("l"))} as "autoSubmitted",
      l.score, l.marks, l.total_questions as "totalQuestions", l.sections, l.section_marks as "sectionMarks",
      -- A window that time added moved past now was not opened by the student: it says nothing of them (decision 037).
      -- A heartbeat (decision 040) says the page is there, as a move does.
      greatest(l.started_at, case when l.current_started_at <= n.now then l.current_started_at end, l.reloaded_at,
        l.last_contact_at) as "movedAt", coalesce(l.reloads, 0) as reloads,
      l.ended_by as "endedBy",
      coalesce(l.full_screen_exits, 0) as "fullScreenExits", coalesce(l.added_seconds, 0) as "addedSeconds",
      coalesce(l.credited_seconds, 0) as "creditedSeconds",
      case when l.submitted_at is null and ${sql.raw(runsOutAtSql(clockColumns("l")))} < n.now
        and ${sql.raw(silenceHoldsSql("l", "d", "n.now"))} then ${sql.raw(heldUntilSql("l", "d"))} end as "heldUntil"
    from ${students} s
    cross join (select ${now.toISOString()}::timestamptz as now) n
    join ${drives} d on d.id = s.drive_id
    left join latest l on l.student_id = s.id
    where s.drive_id = ${driveId}::uuid`);
  return result.rows.map(liveRow);
}

/**
 * The roster's lines that nobody has registered by, as board rows (not started). Half the board's read at 5,500
 * lines (bench:live), so the board reads them on the tallies' slower beat and whenever its students change.
 */
export async function rosterNoShows(db: Executor, driveId: string): Promise<LiveAttemptRow[]> {
  const line = { email: sql`r.email`, usnNo: sql`r.usn_no` };
  const result = await db.execute<Record<string, unknown>>(sql`
    select null as "studentId", r.id as "rosterLineId", coalesce(r.email, r.usn_no, '') as name,
      coalesce(r.usn_no, '') as "usnNo"
    from ${driveRoster} r
    where r.drive_id = ${driveId}::uuid
      -- A listed student shares the line's email or its USN (mentionsSql), looked for one at a time: each is a hash
      -- anti-join, where the two together (an "or") were a nested loop over the drive's students, 12 s at 5,000.
      and not exists (
        select 1 from ${students} s
        where s.drive_id = r.drive_id and lower(s.email) = lower(r.email)
          and ${rosterListsSql(line, sql`s.email`, sql`s.usn_no`)}
      )
      and not exists (
        select 1 from ${students} s
        where s.drive_id = r.drive_id and lower(s.usn_no) = lower(r.usn_no)
          and ${rosterListsSql(line, sql`s.email`, sql`s.usn_no`)}
      )`);
  return result.rows.map(liveRow);
}

function liveRow(row: Record<string, unknown>): LiveAttemptRow {
  return {
    studentId: (row.studentId as string | null) ?? null,
    rosterLineId: (row.rosterLineId as string | null) ?? null,
    name: row.name as string,
    usnNo: row.usnNo as string,
    attemptId: (row.attemptId as string | null) ?? null,
    currentPosition: (row.currentPosition as number | null) ?? null,
    paced: row.paced === true,
    sectionFirst: Number(row.sectionFirst ?? 0),
    sectionEnd: (row.sectionEnd as number | null) ?? null,
    submittedAt: row.submittedAt ? new Date(row.submittedAt as string) : null,
    autoSubmitted: row.autoSubmitted === true,
    score: (row.score as number | null) ?? null,
    marks: (row.marks as number | null) ?? null,
    totalQuestions: (row.totalQuestions as number | null) ?? null,
    sections: (row.sections as ServedSection[] | null) ?? null,
    sectionMarks: (row.sectionMarks as SectionMarks[] | null) ?? null,
    movedAt: row.movedAt ? new Date(row.movedAt as string) : null,
    reloads: Number(row.reloads ?? 0),
    endedBy: (row.endedBy as AttemptEnding | null) ?? null,
    fullScreenExits: Number(row.fullScreenExits ?? 0),
    addedSeconds: Number(row.addedSeconds ?? 0),
    creditedSeconds: Number(row.creditedSeconds ?? 0),
    heldUntil: row.heldUntil ? new Date(row.heldUntil as string) : null,
  };
}

/**
 * What an attempt's questions say about it: which are answered, the focus losses, the latest answer, and what the
 * answers' times show (answer-timing.ts).
 */
export interface AnswerTally extends AnswerTimingSignals {
  /** Positions (0-based) of the questions with an answer saved. */
  answeredPositions: number[];
  focusLosses: number;
  lastAnswerAt: Date | null;
}

/**
 * The answers and focus losses of these attempts, found by the questions' primary key (each attempt's rows).
 * This is the dear part of the live board (25 rows an attempt), so the board reads it for a submitted attempt
 * once and for open ones every few seconds (live-board.ts). No index is added for it: a new index on
 * attempt_questions would cost every answer its HOT update (decision 006).
 */
export async function answerTallies(db: Executor, attemptIds: string[]): Promise<Map<string, AnswerTally>> {
  const tallies = new Map<string, AnswerTally>();
  if (attemptIds.length === 0) return tallies;
  const result = await db.execute<Record<string, unknown>>(sql`
    select a.id as "attemptId", tally.answered, tally."focusLosses", tally."lastAnswerAt",
      tally."lateAnswers", tally."burstAnswers"
    from ${attempts} a
    cross join lateral (
      select coalesce(array_agg(position) filter (where ${sql.raw(answeredSql("timed_answers"))}), '{}') as answered,
        coalesce(sum(focus_losses), 0)::int as "focusLosses", max(answered_at) as "lastAnswerAt",
        ${lateAnswersSql(PACED_SECONDS_OF_ATTEMPT)} as "lateAnswers",
        ${BURST_ANSWERS_SQL} as "burstAnswers"
      from ${withBurstsSql(sql`(select aq.position, aq.selected_option_id, aq.selected_option_ids, aq.focus_losses,
        aq.answered_at, aq.ms_to_answer from ${attemptQuestions} aq where aq.attempt_id = a.id)`)} timed_answers
    ) tally
    where a.id = any(${`{${attemptIds.join(",")}}`}::uuid[])`);
  for (const row of result.rows) {
    tallies.set(row.attemptId as string, {
      answeredPositions: (row.answered as number[] | null) ?? [],
      focusLosses: Number(row.focusLosses ?? 0),
      lastAnswerAt: row.lastAnswerAt ? new Date(row.lastAnswerAt as string) : null,
      lateAnswers: row.lateAnswers as number | null,
      burstAnswers: row.burstAnswers as number,
    });
  }
  return tallies;
}

/** Whether the drive exists (archived ones too: their board still shows how they ended). */
export async function driveExists(db: Executor, driveId: string): Promise<boolean> {
  const rows = await db.select({ id: drives.id }).from(drives).where(eq(drives.id, driveId));
  return rows.length > 0;
}
