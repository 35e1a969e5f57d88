// The authentication layer's one door to the database: the state of an admin's or a student's sessions, read on
// every request that carries a token, and the single-use download tickets.

import type { AdminRole } from "@trainwise/contract/admin-roles";
import { lt } from "drizzle-orm";
import { type Executor, type NamedStatement, runNamed } from "../db/client.ts";
import { downloadTickets } from "../db/schema.ts";

/** What an admin request must know about the caller's account and this session, read in one statement. */
export interface AdminSessionState {
  id: string;
  username: string;
  role: AdminRole;
  passwordChangedAt: Date;
  sessionsValidFrom: Date | null;
  disabledAt: Date | null;
  /** This session's token was signed out (logout) and has not expired yet. */
  revoked: boolean;
}

const adminSessionStatement: NamedStatement = {
  name: "auth.admin-session",
  text: `select a.id, a.username, a.role, a.password_changed_at as "passwordChangedAt",
      a.sessions_valid_from as "sessionsValidFrom", a.disabled_at as "disabledAt",
      exists (select 1 from revoked_tokens r where r.jti = $2 and r.expires_at > now()) as revoked
    from admins a where a.id = $1::uuid`,
};

/** The admin's account and whether this session's token is revoked: one round trip per admin request. */
export async function adminSessionState(
  db: Executor,
  adminId: string,
  tokenId: string,
): Promise<AdminSessionState | undefined> {
  type Row = Omit<AdminSessionState, "passwordChangedAt" | "sessionsValidFrom" | "disabledAt"> & {
    passwordChangedAt: string;
    sessionsValidFrom: string | null;
    disabledAt: string | null;
  };
  const [row] = await runNamed<Row>(db, adminSessionStatement, [adminId, tokenId]);
  if (!row) return undefined;
  return {
    ...row,
    passwordChangedAt: new Date(row.passwordChangedAt),
    sessionsValidFrom: row.sessionsValidFrom === null ? null : new Date(row.sessionsValidFrom),
    disabledAt: row.disabledAt === null ? null : new Date(row.disabledAt),
  };
}

const studentSessionStatement: NamedStatement = {
  name: "auth.student-session",
  text: `select s.sessions_valid_from as "validFrom", d.allowed_addresses as "allowedAddresses",
           d.disconnect_grace_seconds is not null as "givesTimeBack"
         from students s join drives d on d.id = s.drive_id where s.id = $1::uuid`,
};

/** What every request of a student's session is checked against. */
export interface StudentSession {
  /** When the student's sessions became valid: null when they were never ended. */
  validFrom: Date | null;
  /** The student's drive's exam room: addresses and ranges the test may be sat from; empty: anywhere. */
  allowedAddresses: string[];
  /** The drive gives lost connections their time back (decision 040): every request while sitting is heard. */
  givesTimeBack: boolean;
}

/** The student's session rules, or undefined when there is no such student. */
export async function studentSession(db: Executor, studentId: string): Promise<StudentSession | undefined> {
  const [row] = await runNamed<{ validFrom: string | null; allowedAddresses: string[]; givesTimeBack: boolean }>(
    db,
    studentSessionStatement,
    [studentId],
  );
  if (!row) return undefined;
  return { ...row, validFrom: row.validFrom === null ? null : new Date(row.validFrom) };
}

/** Stores a download ticket (by its hash), clearing the tickets nobody followed (an index on the expiry). */
export async function storeDownloadTicket(
  db: Executor,
  ticket: { tokenHash: string; adminId: string; sessionId: string; path: string; expiresAt: Date },
): Promise<void> {
  await db.delete(downloadTickets).where(lt(downloadTickets.expiresAt, new Date()));
  await db.insert(downloadTickets).values(ticket);
}

const takeDownloadTicketStatement: NamedStatement = {
  name: "auth.take-download-ticket",
  text: `delete from download_tickets where token_hash = $1 and path = $2 and expires_at > now()
    returning admin_id as "adminId", session_id as "sessionId", created_at as "issuedAt"`,
};

/**
 * Takes a ticket for the address it was issued for: deleted in the same statement that reads it, so of two
 * requests with one ticket (two instances, a replayed link) only one gets it. Undefined when the ticket is
 * unknown, used, expired or bound to another address.
 */
export async function takeDownloadTicket(db: Executor, tokenHash: string, address: string) {
  const [row] = await runNamed<{ adminId: string; sessionId: string; issuedAt: string }>(
    db,
    takeDownloadTicketStatement,
    [tokenHash, address],
  );
  return row && { adminId: row.adminId, sessionId: row.sessionId, issuedAt: new Date(row.issuedAt) };
}
