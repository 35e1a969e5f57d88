// Admin accounts: look-up by username (case-insensitive), creation, passwords, roles, invitations and disabling.
import { hash, randomBytes } from "node:crypto";
import { type AdminAccount, type AdminRole, INVITE_LIFETIME_HOURS } from "@trainwise/contract/admin-roles";
import { LIST_CAP } from "@trainwise/contract/common";
import { and, asc, count, eq, gt, isNull, sql } from "drizzle-orm";
import { hashPassword } from "../../auth/passwords.ts";
import type { Database, Executor } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { lockUntilCommit } from "../../db/locks.ts";
import { adminInvites, admins, revokedTokens } from "../../db/schema.ts";

export type AdminRow = typeof admins.$inferSelect;

export function findAdminByUsername(db: Executor, username: string): Promise<AdminRow | undefined> {
  return db.query.admins.findFirst({ where: sql`lower(${admins.username}) = lower(${username})` });
}

export async function createAdmin(db: Executor, username: string, password: string | null, role: AdminRole = "owner") {
  const [admin] = await db
    .insert(admins)
    .values({ username, role, passwordHash: password === null ? null : await hashPassword(password) })
    .returning({ id: admins.id, username: admins.username });
  if (!admin) throw new Error("The admin was not created.");
  return admin;
}

export async function setAdminPassword(db: Executor, id: string, password: string): Promise<void> {
  await db
    .update(admins)
    .set({ passwordHash: await hashPassword(password), passwordChangedAt: new Date() })
    .where(eq(admins.id, id));
}

export async function recordSignIn(db: Executor, id: string, at: Date): Promise<void> {
  await db.update(admins).set({ lastSignInAt: at }).where(eq(admins.id, id));
}

/** Refuses the token from now on (logout); kept until it would have expired anyway. */
export async function revokeToken(db: Executor, jti: string, expiresAt: Date) {
  await db.insert(revokedTokens).values({ jti, expiresAt }).onConflictDoNothing();
}

const accountColumns = {
  id: admins.id,
  username: admins.username,
  role: admins.role,
  passwordHash: admins.passwordHash,
  disabledAt: admins.disabledAt,
  lastSignInAt: admins.lastSignInAt,
  createdAt: admins.createdAt,
};

function toAccount(row: {
  id: string;
  username: string;
  role: AdminRole;
  passwordHash: string | null;
  disabledAt: Date | null;
  lastSignInAt: Date | null;
  createdAt: Date;
}): AdminAccount {
  return {
    id: row.id,
    username: row.username,
    role: row.role,
    status: row.disabledAt ? "disabled" : row.passwordHash === null ? "invited" : "active",
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Every admin account, by username (a company has a handful; no paging). */
export async function listAdmins(db: Executor): Promise<AdminAccount[]> {
  const rows = await db
    .select(accountColumns)
    .from(admins)
    .orderBy(asc(sql`lower(${admins.username})`))
    .limit(LIST_CAP);
  return rows.map(toAccount);
}

export async function findAccount(db: Executor, id: string): Promise<AdminAccount | undefined> {
  const [row] = await db.select(accountColumns).from(admins).where(eq(admins.id, id));
  return row ? toAccount(row) : undefined;
}

export class UsernameTakenError extends Error {}

/** The database refused a second admin with the same username (case-insensitive unique index). */
function isUsernameTaken(error: unknown): boolean {
  return isUniqueViolation(error, "admins_username_unique");
}
/** The account has set its password: an invitation has nothing left to do for it. */
export class InvitationAcceptedError extends Error {}
export class LastOwnerError extends Error {}
/** The account is disabled: enable it before sending it a new invitation link. */
export class AccountDisabledError extends Error {}

function tokenHashOf(token: string): string {
  return hash("sha256", token);
}

/**
 * A new admin: with `link`, no password yet and a one-time token (only its hash is stored) that expires after
 * INVITE_LIFETIME_HOURS; with `password`, a generated password. Either secret is returned once and kept nowhere.
 */
export async function inviteAdmin(
  db: Database,
  input: { username: string; role: AdminRole; method: "link" | "password" },
  now: Date,
) {
  return db.transaction(async (tx) => {
    if (await findAdminByUsername(tx, input.username)) throw new UsernameTakenError();
    const password = input.method === "password" ? randomBytes(18).toString("base64url") : null;
    let id: string;
    try {
      ({ id } = await createAdmin(tx, input.username, password, input.role));
    } catch (error) {
      // Two owners inviting the same name at once both pass the look-up above; the unique index decides.
      if (isUsernameTaken(error)) throw new UsernameTakenError();
      throw error;
    }
    if (password !== null) return { id, password };
    return { id, ...(await issueInvitation(tx, id, now)) };
  });
}

async function issueInvitation(tx: Executor, adminId: string, now: Date) {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + INVITE_LIFETIME_HOURS * 3_600_000);
  await tx.insert(adminInvites).values({ adminId, tokenHash: tokenHashOf(token), expiresAt });
  return { token, expiresAt };
}

/**
 * A new link for an admin who has not set a password yet (the first expired, or went astray): every earlier
 * link of theirs stops working at once. Undefined when there is no such admin.
 */
export async function renewInvitation(db: Database, adminId: string, now: Date) {
  return db.transaction(async (tx) => {
    const [admin] = await tx
      .select({ passwordHash: admins.passwordHash, disabledAt: admins.disabledAt })
      .from(admins)
      .where(eq(admins.id, adminId))
      .for("update");
    if (!admin) return undefined;
    if (admin.passwordHash !== null) throw new InvitationAcceptedError();
    // A link made while the account is disabled would start working the moment it is enabled, unseen.
    if (admin.disabledAt !== null) throw new AccountDisabledError();
    await tx
      .update(adminInvites)
      .set({ usedAt: now })
      .where(and(eq(adminInvites.adminId, adminId), isNull(adminInvites.usedAt)));
    return issueInvitation(tx, adminId, now);
  });
}

const usableInvite = (token: string, now: Date) =>
  and(
    eq(adminInvites.tokenHash, tokenHashOf(token)),
    isNull(adminInvites.usedAt),
    gt(adminInvites.expiresAt, now),
    isNull(admins.disabledAt),
  );

/** The invitation a token opens, while it is unused, unexpired and its account not disabled. */
export async function findInvitation(db: Executor, token: string, now: Date) {
  const [row] = await db
    .select({ username: admins.username, role: admins.role, expiresAt: adminInvites.expiresAt })
    .from(adminInvites)
    .innerJoin(admins, eq(admins.id, adminInvites.adminId))
    .where(usableInvite(token, now));
  return row;
}

/** Uses the invitation once: the first caller sets the password, any later one (or a late one) gets undefined. */
export async function acceptInvitation(db: Database, token: string, password: string, now: Date) {
  return db.transaction(async (tx) => {
    const [invite] = await tx
      .select({ id: adminInvites.id, adminId: adminInvites.adminId, username: admins.username })
      .from(adminInvites)
      .innerJoin(admins, eq(admins.id, adminInvites.adminId))
      .where(usableInvite(token, now))
      .for("update", { of: adminInvites });
    if (!invite) return undefined;
    await tx.update(adminInvites).set({ usedAt: now }).where(eq(adminInvites.id, invite.id));
    await setAdminPassword(tx, invite.adminId, password);
    return { id: invite.adminId, username: invite.username };
  });
}

/**
 * Runs a change of role or status that might leave no one able to manage admins, refusing it when `id` is the
 * last active owner. The lock makes two owners demoting each other at once take turns, so one of them is refused.
 */
async function keepingAnOwner(
  db: Database,
  id: string,
  change: (tx: Executor) => Promise<void>,
): Promise<AdminAccount | undefined> {
  return db.transaction(async (tx) => {
    await lockUntilCommit(tx, "owners");
    const target = await findAccount(tx, id);
    if (!target) return undefined;
    await change(tx);
    const [{ owners } = { owners: 0 }] = await tx
      .select({ owners: sql<number>`count(*)::int` })
      .from(admins)
      .where(and(eq(admins.role, "owner"), isNull(admins.disabledAt), sql`${admins.passwordHash} is not null`));
    if (owners === 0 && target.role === "owner" && target.status === "active") throw new LastOwnerError();
    return findAccount(tx, id);
  });
}

export function changeAdminRole(db: Database, id: string, role: AdminRole) {
  return keepingAnOwner(db, id, async (tx) => {
    await tx.update(admins).set({ role }).where(eq(admins.id, id));
  });
}

/**
 * Disables the account and ends its sessions: tokens issued up to `now` are refused from the next request on, and
 * its unused invitation links are spent, so enabling the account again brings none of them back.
 */
export function disableAdmin(db: Database, id: string, now: Date) {
  return keepingAnOwner(db, id, async (tx) => {
    await tx.update(admins).set({ disabledAt: now, sessionsValidFrom: now }).where(eq(admins.id, id));
    await tx
      .update(adminInvites)
      .set({ usedAt: now })
      .where(and(eq(adminInvites.adminId, id), isNull(adminInvites.usedAt)));
  });
}

/** Lets the admin sign in again; the sessions and the invitation links that disabling ended stay ended. */
export function enableAdmin(db: Database, id: string) {
  return keepingAnOwner(db, id, async (tx) => {
    await tx.update(admins).set({ disabledAt: null }).where(eq(admins.id, id));
  });
}

/**
 * Creates the first admin unless one exists, answering whether it did. Instances starting together on one database
 * take turns, so only one of them creates an admin.
 */
export async function createFirstAdmin(db: Database, username: string, password: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockUntilCommit(tx, "firstAdmin");
    const [row] = await tx.select({ total: count() }).from(admins);
    if ((row?.total ?? 0) > 0) return false;
    await createAdmin(tx, username, password);
    return true;
  });
}
