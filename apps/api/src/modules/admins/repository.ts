// Admin accounts: look-up by username (case-insensitive), creation and password changes.
import { eq, sql } from "drizzle-orm";
import { hashPassword } from "../../auth/passwords.ts";
import type { Executor } from "../../db/client.ts";
import { admins, revokedTokens } from "../../db/schema.ts";

export function findAdminByUsername(db: Executor, username: string) {
  return db.query.admins.findFirst({ where: sql`lower(${admins.username}) = lower(${username})` });
}

export async function createAdmin(db: Executor, username: string, password: string) {
  const [admin] = await db
    .insert(admins)
    .values({ username, passwordHash: await hashPassword(password) })
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

/** Refuses the token from now on (logout); kept until it would have expired anyway. */
export async function revokeToken(db: Executor, jti: string, expiresAt: Date) {
  await db.insert(revokedTokens).values({ jti, expiresAt }).onConflictDoNothing();
}
