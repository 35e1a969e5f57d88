// There is never a default admin password (docs/product.md#no-default-admin-password). When no admin exists, the
// first one comes from ADMIN_USERNAME/ADMIN_PASSWORD, or gets a random password that is printed once and never
// stored in clear.
import { randomBytes } from "node:crypto";
import type { Database } from "../../db/client.ts";
import { createFirstAdmin } from "./repository.ts";

export type FirstAdmin =
  | { created: false }
  | { created: true; username: string; generatedPassword: string | undefined };

export async function ensureFirstAdmin(
  db: Database,
  configured: { username: string; password: string } | undefined,
): Promise<FirstAdmin> {
  const generatedPassword = configured ? undefined : randomBytes(18).toString("base64url");
  const username = configured?.username ?? "admin";
  const created = await createFirstAdmin(db, username, configured?.password ?? (generatedPassword as string));
  return created ? { created: true, username, generatedPassword } : { created: false };
}
