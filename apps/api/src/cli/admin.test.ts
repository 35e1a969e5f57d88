import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { verifyPassword } from "../auth/passwords.ts";
import { findAdminByUsername } from "../modules/admins/repository.ts";
import { createTestDatabase } from "../test/database.ts";

const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), "admin.ts");

describe("npm run admin", async () => {
  const database = await createTestDatabase();
  const run = (args: string[], input = "") =>
    spawnSync(process.execPath, [cli, ...args], {
      input,
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: database.url },
    });

  it("creates an admin with a piped password", async () => {
    const result = run(["create", "ana"], "a piped password\n");
    expect(result.stdout).toContain('Created admin "ana".');
    expect(result.stdout).not.toContain("Password");
    expect(result.status).toBe(0);
    const admin = await findAdminByUsername(database.db, "ana");
    expect(await verifyPassword(admin?.passwordHash ?? "", "a piped password")).toBe(true);
    expect(admin?.role).toBe("owner");
    const audit = await database.pool.query(
      "select action, admin_id, admin_username, entity_id, after, client_address from audit_log where entity_id = $1",
      [admin?.id],
    );
    expect(audit.rows).toEqual([
      {
        action: "admin.create",
        admin_id: null,
        admin_username: expect.stringMatching(/^command line \(.+\)$/),
        entity_id: admin?.id,
        after: { username: "ana", role: "owner" },
        client_address: null,
      },
    ]);
  });

  it("creates an admin with the role given by --role, and refuses an unknown role", async () => {
    const result = run(["create", "vi-admin", "--role", "viewer"], "a piped password\n");
    expect(result.stdout).toContain('Created admin "vi-admin" as viewer.');
    expect((await findAdminByUsername(database.db, "vi-admin"))?.role).toBe("viewer");
    const bad = run(["create", "xo-admin", "--role", "superuser"], "a piped password\n");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("The role must be one of: owner, examiner, viewer.");
  });

  it("generates and prints a password once when none is piped", async () => {
    const result = run(["reset-password", "ANA"]);
    expect(result.status).toBe(0);
    const printed = result.stdout.match(/Password \(shown only now\): (\S+)/)?.[1] ?? "";
    expect(printed.length).toBeGreaterThanOrEqual(20);
    const admin = await findAdminByUsername(database.db, "ana");
    expect(await verifyPassword(admin?.passwordHash ?? "", printed)).toBe(true);
    expect(await verifyPassword(admin?.passwordHash ?? "", "a piped password")).toBe(false);
    const reset = await database.pool.query("select action from audit_log where entity_id = $1 order by at", [
      admin?.id,
    ]);
    expect(reset.rows.map((row) => row.action)).toEqual(["admin.create", "admin.password-reset"]);
  });

  it("refuses a duplicate, an unknown admin, a short password and a bad command", () => {
    expect(run(["create", "Ana"]).stderr).toContain('An admin named "ana" already exists');
    expect(run(["reset-password", "nobody"]).stderr).toContain('There is no admin named "nobody"');
    const short = run(["create", "bo-admin"], "short\n");
    expect(short.status).toBe(1);
    expect(short.stderr).toContain("at least 12 characters");
    const control = run(["create", "cy-admin"], "a tab\tin the password\n");
    expect(control.status).toBe(1);
    expect(control.stderr).toContain("The password must not contain control or invisible characters.");
    expect(run(["delete", "ana"]).status).toBe(2);
  });
});
