import { describe, expect, it } from "vitest";
import { verifyPassword } from "../../auth/passwords.ts";
import { admins } from "../../db/schema.ts";
import { createTestDatabase } from "../../test/database.ts";
import { ensureFirstAdmin } from "./first-admin.ts";
import { findAdminByUsername } from "./repository.ts";

describe("ensureFirstAdmin", () => {
  it("creates 'admin' with a random password that works, once", async () => {
    const database = await createTestDatabase();
    const first = await ensureFirstAdmin(database.db, undefined);
    if (!first.created || !first.generatedPassword) throw new Error("expected a generated admin");
    expect(first.username).toBe("admin");
    expect(first.generatedPassword.length).toBeGreaterThanOrEqual(20);
    const stored = await findAdminByUsername(database.db, "ADMIN");
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored?.passwordHash ?? "", first.generatedPassword)).toBe(true);
    expect(await verifyPassword(stored?.passwordHash ?? "", "admin")).toBe(false);
    expect(await ensureFirstAdmin(database.db, undefined)).toEqual({ created: false });
  });

  it("takes ADMIN_USERNAME and ADMIN_PASSWORD, and creates one admin when instances race", async () => {
    const database = await createTestDatabase();
    const configured = { username: "principal", password: "a long enough password" };
    const outcomes = await Promise.all([
      ensureFirstAdmin(database.db, configured),
      ensureFirstAdmin(database.db, configured),
    ]);
    expect(outcomes.filter((outcome) => outcome.created)).toHaveLength(1);
    const rows = await database.db.select().from(admins);
    expect(rows.map((row) => row.username)).toEqual(["principal"]);
    expect(await verifyPassword(rows[0]?.passwordHash ?? "", configured.password)).toBe(true);
  });
});
