import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it, onTestFinished } from "vitest";
import { appSettings } from "../db/schema.ts";
import { createTestDatabase } from "../test/database.ts";
import { resolveSigningKeys } from "./signing-key.ts";

describe("resolveSigningKeys", async () => {
  const database = await createTestDatabase();
  const freshDataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-key-test-"));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  const noSecrets = { secret: undefined, previousSecret: undefined };
  const legacyRows = () => database.db.select().from(appSettings).where(eq(appSettings.key, "token_signing_key"));

  it("generates one key into DATA_DIR, owner-only, and keeps it; none goes into the database", async () => {
    const dataDir = freshDataDir();
    const first = await resolveSigningKeys(database.db, { ...noSecrets, dataDir });
    expect(first.current.length).toBeGreaterThanOrEqual(32);
    expect(first.previous).toBeUndefined();
    const file = path.join(dataDir, "token-signing-key");
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe("600");
    expect(fs.readFileSync(file, "utf8")).toBe(Buffer.from(first.current).toString());
    const again = await resolveSigningKeys(database.db, { ...noSecrets, dataDir });
    expect(Buffer.from(again.current)).toEqual(Buffer.from(first.current));
    expect(await legacyRows()).toEqual([]);
  });

  it("moves a key an older version kept in the database into the file, once", async () => {
    const legacyKey = randomBytes(48).toString("base64url");
    await database.db.insert(appSettings).values({ key: "token_signing_key", value: legacyKey });
    const dataDir = freshDataDir();
    const keys = await resolveSigningKeys(database.db, { ...noSecrets, dataDir });
    expect(Buffer.from(keys.current).toString()).toBe(legacyKey);
    expect(fs.readFileSync(path.join(dataDir, "token-signing-key"), "utf8")).toBe(legacyKey);
    expect(await legacyRows()).toEqual([]);
  });

  it("prefers JWT_SECRET, passes JWT_PREVIOUS_SECRET on, and then writes no file", async () => {
    const secret = randomBytes(32).toString("hex");
    const previousSecret = randomBytes(32).toString("hex");
    const dataDir = freshDataDir();
    const keys = await resolveSigningKeys(database.db, { secret, previousSecret, dataDir });
    expect(Buffer.from(keys.current).toString()).toBe(secret);
    expect(Buffer.from(keys.previous ?? []).toString()).toBe(previousSecret);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});
