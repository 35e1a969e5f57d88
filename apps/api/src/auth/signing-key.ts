// The key that signs tokens. JWT_SECRET wins; otherwise a random key is generated once and kept in the database,
// so every app instance on the same database signs and accepts the same tokens, and restarts keep sessions.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { appSettings } from "../db/schema.ts";

const SETTING = "token_signing_key";

export async function resolveSigningKey(db: Database, configured: string | undefined): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db
    .insert(appSettings)
    .values({ key: SETTING, value: randomBytes(48).toString("base64url") })
    .onConflictDoNothing();
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, SETTING));
  if (!row) throw new Error("The token signing key could not be stored.");
  return new TextEncoder().encode(row.value);
}
