// There is never a default admin password (docs/product.md#no-default-admin-password). When no admin exists, the
// first one comes from ADMIN_USERNAME/ADMIN_PASSWORD, or gets a random password that is printed once and never
// stored in clear.
import { randomBytes } from "node:crypto";
import { count, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { admins } from "../../db/schema.ts";
import { createAdmin } from "./repository.ts";

const FIRST_ADMIN_LOCK_KEY = 727_002;

export type FirstAdmin =
  | { created: false }
  | { created: true; username: string; generatedPassword: string | undefined };

export async function ensureFirstAdmin(
  db: Database,
  configured: { username: string; password: string } | undefined,
): Promise<FirstAdmin> {
  // Instances starting together against one database must not each create an admin.
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ADMIN_LOCK_KEY})`);
    const [row] = await tx.select({ total: count() }).from(admins);
    if ((row?.total ?? 0) > 0) return { created: false };
    if (configured) {
      await createAdmin(tx, configured.username, configured.password);
      return { created: true, username: configured.username, generatedPassword: undefined };
    }
    const generatedPassword = randomBytes(18).toString("base64url");
    await createAdmin(tx, "admin", generatedPassword);
    return { created: true, username: "admin", generatedPassword };
  });
}
