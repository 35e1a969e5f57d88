// Personal links (decision 025): each roster line can get a link holding a one-time token, made by an admin and
// handed to the placement officer as a CSV, or e-mailed to the line's address. The link fills and locks the
// line's email and USN on the registration page, and on a drive set to "personal links only" it is the only way
// in for a new candidate: knowing a classmate's email and USN no longer admits anyone. Only the token's hash is
// stored; the token itself is shown once.
import { hash, randomBytes } from "node:crypto";
import type { PersonalLink, PersonalLinkScope } from "@trainwise/contract/drives";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { toCsv } from "../../csv/spreadsheet-csv.ts";
import { type Database, type Executor, type NamedStatement, runNamed } from "../../db/client.ts";
import { Turns } from "../../http/turns.ts";
import { loggableMailFailure, type Mailer } from "../../mail/mailer.ts";
import { rosterListsSql } from "./repository.ts";

/** Lines the links' CSV is written in at a time, letting other requests in between (the largest roster has 20,000). */
const CSV_LINES_PER_PART = 500;

function hashLinkToken(token: string): string {
  return hash("sha256", token);
}

/** The address of a personal link: the registration page with the drive's code and the token. */
export function personalLinkAddress(siteUrl: string, driveCode: string, token: string): string {
  return `${siteUrl}/student/register?drive=${encodeURIComponent(driveCode)}&link=${token}`;
}

export interface LinkedLine {
  id: string;
  email: string | null;
  usnNo: string | null;
  token: string;
}

// Locked while they get their tokens: two admins making links at once each give a line at most one token that
// works, the second skipping (for "unlinked") the lines the first has linked.
const linesToLinkStatement: NamedStatement = {
  name: "drives.lines-to-link",
  text: `select id, email, usn_no from drive_roster
    where drive_id = $1 and ($2 or link_token_hash is null)
    order by lower(email) nulls last, lower(usn_no) nulls last, id
    for update`,
};

const setLinksStatement: NamedStatement = {
  name: "drives.set-links",
  text: `update drive_roster r
    set link_token_hash = line.token_hash, link_made_at = now(), link_emailed_at = null, link_used_at = null
    from unnest($1::uuid[], $2::text[]) as line(id, token_hash)
    where r.id = line.id`,
};

/** Gives the chosen lines of the drive's roster new links; answers each with its token, in the roster's order. */
export async function makePersonalLinks(
  db: Database,
  driveId: string,
  scope: PersonalLinkScope,
): Promise<LinkedLine[]> {
  return db.transaction(async (tx) => {
    const lines = await runNamed<{ id: string; email: string | null; usn_no: string | null }>(
      tx,
      linesToLinkStatement,
      [driveId, scope === "all"],
    );
    const linked: LinkedLine[] = [];
    const hashes: string[] = [];
    // 128 random bits a line, 22 URL-safe characters, drawn for every line at once.
    const random = randomBytes(16 * lines.length);
    const turns = new Turns();
    for (const [place, line] of lines.entries()) {
      if (turns.due()) await turns.pass();
      const token = random.subarray(place * 16, place * 16 + 16).toString("base64url");
      linked.push({ id: line.id, email: line.email, usnNo: line.usn_no, token });
      hashes.push(hashLinkToken(token));
    }
    if (linked.length > 0) await runNamed(tx, setLinksStatement, [linked.map((line) => line.id), hashes]);
    return linked;
  });
}

/** The links as the placement officer's CSV: one row per line, its email, its USN and its address. */
export async function personalLinksCsv(linked: LinkedLine[], address: (token: string) => string): Promise<string> {
  const parts: string[] = [];
  const turns = new Turns();
  for (let start = 0; start === 0 || start < linked.length; start += CSV_LINES_PER_PART) {
    if (turns.due()) await turns.pass();
    const rows = linked
      .slice(start, start + CSV_LINES_PER_PART)
      .map((line) => ({ email: line.email ?? "", usn: line.usnNo ?? "", link: address(line.token) }));
    parts.push(toCsv(rows, ["email", "usn", "link"], { header: start === 0 }));
  }
  return parts.join("");
}

export interface DriveForLinks {
  id: string;
  name: string;
  organisation: string;
  code: string;
}

/** Consecutive failed sends after which a mailing stops: the mail server is down, and the roster shows who is left. */
const FAILURES_BEFORE_STOPPING = 5;

/** The mailing running on this instance for each drive: newer links stop the one before (their mails are stale). */
const mailings = new Map<string, AbortController>();

/**
 * E-mails each line that gives an address its link, one after another over the mailer's pool, skipping a line
 * whose link was replaced meanwhile (by this or another instance), and notes each one sent on its line. A failure
 * is logged without the address and the next line goes on; after a few failures in a row the mailing stops, and
 * the roster shows which lines were not e-mailed.
 */
export async function emailPersonalLinks(
  db: Executor,
  mailer: Mailer,
  drive: DriveForLinks,
  linked: LinkedLine[],
  address: (token: string) => string,
  log: FastifyBaseLogger,
): Promise<void> {
  mailings.get(drive.id)?.abort();
  const mailing = new AbortController();
  mailings.set(drive.id, mailing);
  const forWhom = drive.organisation ? `${drive.name} (${drive.organisation})` : drive.name;
  let failuresInARow = 0;
  try {
    for (const line of linked) {
      if (mailing.signal.aborted) return;
      if (!line.email) continue;
      const tokenHash = hashLinkToken(line.token);
      const { rows } = await db.execute(
        sql`select 1 from drive_roster where id = ${line.id} and link_token_hash = ${tokenHash}`,
      );
      if (rows.length === 0) continue;
      try {
        await mailer({
          to: line.email,
          subject: `Your personal link for ${drive.name}`,
          text: [
            `This is your personal link to register for ${forWhom}:`,
            "",
            address(line.token),
            "",
            "It fills in your email and USN and works for one registration, so keep it to yourself. After registering,",
            "keep the resume code you are shown: you need it to continue on another device.",
          ].join("\n"),
        });
        failuresInARow = 0;
        await db.execute(
          sql`update drive_roster set link_emailed_at = now() where id = ${line.id} and link_token_hash = ${tokenHash}`,
        );
      } catch (error) {
        log.error(loggableMailFailure(error), "e-mailing a personal link failed");
        if (++failuresInARow === FAILURES_BEFORE_STOPPING) {
          log.error("e-mailing personal links stopped: the mail server refused several in a row");
          return;
        }
      }
    }
  } finally {
    if (mailings.get(drive.id) === mailing) mailings.delete(drive.id);
  }
}

/**
 * What a personal link's page shows and locks before the candidate types, less the drive's panel
 * (registration-drive.ts); undefined for a token no current drive knows.
 */
export async function personalLinkFor(db: Executor, token: string): Promise<Omit<PersonalLink, "drive"> | undefined> {
  const { rows } = await db.execute<{
    code: string;
    name: string;
    organisation: string;
    email: string | null;
    usn_no: string | null;
    used: boolean;
  }>(sql`
    select d.code, d.name, d.organisation, r.email, r.usn_no, r.link_used_at is not null as used
    from drive_roster r join drives d on d.id = r.drive_id
    where r.link_token_hash = ${hashLinkToken(token)} and d.archived_at is null`);
  const [line] = rows;
  if (!line) return undefined;
  return {
    driveCode: line.code,
    driveName: line.name,
    organisation: line.organisation,
    email: line.email,
    usnNo: line.usn_no,
    used: line.used,
  };
}

export interface LinkUsed {
  lineId: string;
  /** The line lists this email and USN (every identifier it gives matches). */
  lists: boolean;
  /** A registration has used the link already: it admits nobody new. */
  used: boolean;
}

/** The line of the drive's roster whose link holds this token, checked against the email and USN typed. */
export async function findPersonalLink(
  db: Executor,
  driveId: string,
  token: string,
  email: string,
  usnNo: string,
): Promise<LinkUsed | undefined> {
  const line = { email: sql`r.email`, usnNo: sql`r.usn_no` };
  const { rows } = await db.execute<{ id: string; lists: boolean; used: boolean }>(sql`
    select r.id, ${rosterListsSql(line, sql`${email}`, sql`${usnNo}`)} as lists, r.link_used_at is not null as used
    from drive_roster r
    where r.drive_id = ${driveId} and r.link_token_hash = ${hashLinkToken(token)}`);
  const [found] = rows;
  return found ? { lineId: found.id, lists: found.lists, used: found.used } : undefined;
}

/** Notes the link used by a registration: from now on it admits nobody new. */
export async function markPersonalLinkUsed(db: Executor, lineId: string): Promise<void> {
  await db.execute(sql`update drive_roster set link_used_at = now() where id = ${lineId} and link_used_at is null`);
}

/**
 * The students a personal link stands for: the registration in its line's drive that the line lists (at most one,
 * emails and USNs being unique in a drive). What the results page reads with a link (decision 026); an unknown or
 * replaced token stands for nobody.
 */
export async function studentsOfPersonalLink(db: Executor, token: string): Promise<{ id: string; name: string }[]> {
  const line = { email: sql`r.email`, usnNo: sql`r.usn_no` };
  const { rows } = await db.execute<{ id: string; name: string }>(sql`
    select s.id, s.name from drive_roster r
    join students s on s.drive_id = r.drive_id and ${rosterListsSql(line, sql`s.email`, sql`s.usn_no`)}
    where r.link_token_hash = ${hashLinkToken(token)}`);
  return rows.map(({ id, name }) => ({ id, name }));
}
