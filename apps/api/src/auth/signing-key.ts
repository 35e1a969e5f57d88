// The keys that sign and verify tokens (decision 008). JWT_SECRET, when set, is the key; every instance of a
// deployment with several must have the same. Otherwise a random key is generated once into
// DATA_DIR/token-signing-key, readable by the owner only, which serves one machine. JWT_PREVIOUS_SECRET is the key
// of a rotation's previous period: tokens it signed are still accepted (none are signed with it) until they expire.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { appSettings } from "../db/schema.ts";
import { readOrCreateSecretFile } from "../secret-file.ts";

export interface SigningKeys {
  /** Signs new tokens and verifies them. */
  current: Uint8Array;
  /** Only verifies, during a rotation. */
  previous: Uint8Array | undefined;
}

export const SIGNING_KEY_FILE = "token-signing-key";

/** Where versions before decision 008 kept the generated key: in the database, so in every backup of it. */
const LEGACY_SETTING = "token_signing_key";

export async function resolveSigningKeys(
  db: Database,
  options: { secret: string | undefined; previousSecret: string | undefined; dataDir: string },
): Promise<SigningKeys> {
  const encode = (key: string) => new TextEncoder().encode(key);
  const previous = options.previousSecret ? encode(options.previousSecret) : undefined;
  const dropLegacy = () => db.delete(appSettings).where(eq(appSettings.key, LEGACY_SETTING));
  if (options.secret) {
    // JWT_SECRET overrode the old generated key then too, so that key signs nothing any more; only drop it from
    // the database. Dropping it is tidying, which must not stop a start (nor the app's tests without a database).
    await dropLegacy().catch(() => {});
    return { current: encode(options.secret), previous };
  }
  const [legacy] = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, LEGACY_SETTING));
  // An older version's key is moved into the file, so sessions survive the upgrade.
  const current = readOrCreateSecretFile(
    path.join(options.dataDir, SIGNING_KEY_FILE),
    () => legacy?.value ?? randomBytes(48).toString("base64url"),
  );
  if (legacy) await dropLegacy();
  return { current: encode(current), previous };
}
