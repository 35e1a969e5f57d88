// The audit log: what the hook records for admin changes, what it keeps out, and the owners' paged table.
import { describe, expect, it } from "vitest";
import { ADMIN_ROUTE_RULES } from "../../auth/admin-access.ts";
import { createTestApp } from "../../test/app.ts";
import { bearer, registerStudent } from "../../test/fixtures.ts";
import { createAdmin } from "../admins/repository.ts";

const PASSWORD = "a long enough password";

describe("audit log", async () => {
  const { app, database } = await createTestApp();
  async function signIn(username: string, role: "owner" | "examiner" | "viewer") {
    await createAdmin(database.db, username, PASSWORD, role);
    const response = await app.inject({
      method: "POST",
      url: "/api/auth/admin/login",
      payload: { username, password: PASSWORD },
    });
    return bearer(response.json().token);
  }
  const owner = await signIn("boss", "owner");
  const examiner = await signIn("exa", "examiner");
  const examinerId = (await database.pool.query("select id from admins where username = 'exa'")).rows[0].id;
  const call = (headers: Record<string, string>, method: string, url: string, payload?: object) =>
    app.inject({ method: method as "GET", url, headers, payload });
  const logRows = async () =>
    (await database.pool.query("select * from audit_log order by at desc, id desc")).rows as {
      admin_id: string;
      admin_username: string;
      action: string;
      entity: string;
      entity_id: string | null;
      before: Record<string, unknown> | null;
      after: Record<string, unknown> | null;
    }[];

  it("records who created, edited and deleted a question, with before and after", async () => {
    const input = {
      text: "Two plus two?",
      category: "Maths",
      difficulty: "easy",
      options: [
        { text: "4", isCorrect: true },
        { text: "5", isCorrect: false },
      ],
    };
    const created = (await call(examiner, "POST", "/api/questions", input)).json();
    const edited = await call(examiner, "PUT", `/api/questions/${created._id}`, { ...input, text: "Two plus three?" });
    expect(edited.statusCode).toBe(200);
    await call(examiner, "DELETE", `/api/questions/${created._id}`);
    const [deleted, update, create] = await logRows();
    expect(create).toMatchObject({
      admin_id: examinerId,
      admin_username: "exa",
      action: "question.create",
      entity: "question",
      entity_id: created._id,
      before: null,
      after: {
        text: "Two plus two?",
        category: "Maths",
        // A weight decides marks as correctness does: a change to one is in the log too.
        options: [
          { text: "4", isCorrect: true, weight: 100 },
          { text: "5", weight: 0 },
        ],
      },
    });
    expect(update).toMatchObject({
      action: "question.update",
      entity_id: created._id,
      before: { text: "Two plus two?" },
      after: { text: "Two plus three?" },
    });
    expect(deleted?.action).toBe("question.delete");
    expect(deleted?.before).toMatchObject({ text: "Two plus three?" });
  });

  it("records nothing for a refused or failed change, nor for reads", async () => {
    const viewer = await signIn("look", "viewer");
    const before = (await logRows()).length;
    await call(viewer, "POST", "/api/questions", {});
    await call(examiner, "POST", "/api/questions", { text: "" });
    await call(examiner, "PUT", "/api/questions/00000000-0000-4000-8000-000000000000", {
      text: "Nothing here?",
      category: "None",
      options: [
        { text: "a", isCorrect: true },
        { text: "b", isCorrect: false },
      ],
    });
    await call(examiner, "GET", "/api/questions/table");
    expect((await logRows()).length).toBe(before);
  });

  it("records students, drives and admin changes without passwords, tokens or hashes", async () => {
    await registerStudent(app);
    const studentId = (await database.pool.query("select id from students limit 1")).rows[0].id;
    await call(examiner, "PUT", `/api/students/${studentId}/time-multiplier`, { timeMultiplier: 1.5 });
    const driveId = (await database.pool.query("select id from drives where is_default")).rows[0].id;
    await call(examiner, "POST", `/api/drives/${driveId}/close`);
    const invited = (
      await call(owner, "POST", "/api/admins", { username: "newbie", role: "viewer", method: "password" })
    ).json();
    const linked = (
      await call(owner, "POST", "/api/admins", { username: "linked", role: "viewer", method: "link" })
    ).json();
    await call(owner, "PUT", `/api/admins/${invited.admin.id}/role`, { role: "examiner" });
    await call(owner, "POST", `/api/admins/${invited.admin.id}/disable`);
    await call(examiner, "POST", "/api/auth/admin/password", {
      currentPassword: PASSWORD,
      newPassword: "another long password",
    });

    const rows = await logRows();
    const byAction = (action: string) => rows.find((row) => row.action === action);
    expect(byAction("student.time-multiplier")).toMatchObject({
      entity: "student",
      entity_id: studentId,
      before: { time_multiplier: 1 },
      after: { time_multiplier: 1.5 },
    });
    expect(byAction("drive.close")?.before?.closed_at).toBe(null);
    expect(byAction("drive.close")?.after?.closed_at).toBeTruthy();
    expect(byAction("admin.role-change")).toMatchObject({
      admin_username: "boss",
      entity_id: invited.admin.id,
      before: { role: "viewer" },
      after: { role: "examiner" },
    });
    expect(byAction("admin.disable")?.after?.disabled_at).toBeTruthy();
    const passwordChange = byAction("admin.password-change");
    expect(passwordChange).toMatchObject({ entity: "admin", entity_id: examinerId, after: { username: "exa" } });
    expect(passwordChange?.after?.password_changed_at).not.toEqual(passwordChange?.before?.password_changed_at);
    const everything = JSON.stringify(rows);
    expect(everything).not.toContain(invited.password);
    expect(everything).not.toContain(linked.invitePath.replace("/admin/invite/", ""));
    expect(everything).not.toMatch(/password_hash|resume_code_hash|registration_key_hash|token_hash|\$argon|\$scrypt/);
    expect(everything).not.toContain("another long password");
  });

  it("pages the log for owners, newest first, filtered by admin and action", async () => {
    const all = await call(owner, "GET", "/api/audit?pageSize=2");
    expect(all.statusCode).toBe(200);
    const total = (await database.pool.query("select count(*)::int as n from audit_log")).rows[0].n;
    expect(all.json()).toMatchObject({ total, page: 1, pageSize: 2 });
    expect(all.json().rows).toHaveLength(2);
    const newest = (await logRows())[0];
    expect(all.json().rows[0]).toMatchObject({ action: newest?.action, adminUsername: newest?.admin_username });

    const mine = (await call(owner, "GET", `/api/audit?adminId=${examinerId}&pageSize=100`)).json();
    expect(mine.rows.length).toBeGreaterThan(0);
    expect(mine.rows.every((row: { adminUsername: string }) => row.adminUsername === "exa")).toBe(true);
    const updates = (await call(owner, "GET", "/api/audit?action=question.update")).json();
    expect(updates.total).toBe(1);
    expect(updates.rows[0]).toMatchObject({ action: "question.update", before: { text: "Two plus two?" } });
    const past = (await call(owner, "GET", "/api/audit?page=500")).json();
    expect(past).toMatchObject({ rows: [], total });
  });

  it("records sign-ins, right and wrong, an accepted invitation and every export, with where they came from", async () => {
    await createAdmin(database.db, "signer", PASSWORD, "examiner");
    const signerId = (await database.pool.query("select id from admins where username = 'signer'")).rows[0].id;
    const at = "10.8.0.1";
    const login = (username: string, password: string) =>
      app.inject({ method: "POST", url: "/api/auth/admin/login", payload: { username, password }, remoteAddress: at });
    expect((await login("signer", PASSWORD)).statusCode).toBe(200);
    expect((await login("SIGNER", "a wrong password")).statusCode).toBe(401);
    expect((await login("nobody-at-all", "a wrong password")).statusCode).toBe(401);
    const signIns = (
      await database.pool.query(
        "select admin_id, admin_username, action, after, client_address from audit_log where action like 'admin.sign-in%' and client_address = $1 order by at, id",
        [at],
      )
    ).rows;
    expect(signIns).toEqual([
      { admin_id: signerId, admin_username: "signer", action: "admin.sign-in", after: null, client_address: at },
      {
        admin_id: signerId,
        admin_username: "signer",
        action: "admin.sign-in-failed",
        after: { refused: "wrong password" },
        client_address: at,
      },
    ]);
    // A username no account has is not recorded: what is typed there is sometimes a password.
    expect(
      (await database.pool.query("select count(*)::int as n from audit_log where admin_username = 'nobody-at-all'"))
        .rows[0].n,
    ).toBe(0);

    const invited = (
      await call(owner, "POST", "/api/admins", { username: "joiner", role: "viewer", method: "link" })
    ).json();
    const token = (invited.invitePath as string).replace("/admin/invite/", "");
    const accept = await app.inject({
      method: "POST",
      url: `/api/admins/invites/${token}`,
      payload: { password: "the joiner's password" },
      remoteAddress: "10.8.0.2",
    });
    expect(accept.statusCode).toBe(200);
    const [accepted] = (await database.pool.query("select * from audit_log where action = 'admin.invitation-accept'"))
      .rows;
    expect(accepted).toMatchObject({
      admin_id: invited.admin.id,
      admin_username: "joiner",
      client_address: "10.8.0.2",
    });

    // An export through a download ticket: who took which rows out, by their filters, and never the ticket.
    const exporter = await signIn("exporter", "examiner");
    const ticket = (
      await call(exporter, "POST", "/api/downloads", { export: "studentExport", query: "search=asha" })
    ).json();
    expect((await app.inject({ method: "GET", url: ticket.url, remoteAddress: "10.8.0.3" })).statusCode).toBe(200);
    expect((await call(exporter, "GET", "/api/feedback/export.csv?batch=2025")).statusCode).toBe(200);
    const exports = (await database.pool.query("select * from audit_log where action like 'export.%' order by at, id"))
      .rows;
    expect(exports.map((row) => [row.action, row.admin_username, row.after])).toEqual([
      ["export.students", "exporter", { filters: { search: "asha" } }],
      ["export.feedback", "exporter", { filters: { batch: "2025" } }],
    ]);
    expect(exports[0].client_address).toBe("10.8.0.3");
    expect(JSON.stringify(exports)).not.toContain(new URL(ticket.url, "http://x").searchParams.get("ticket"));
  });

  it("is append-only for the app's own database role: no update, delete or truncate", async () => {
    const before = (await database.pool.query("select count(*)::int as n from audit_log")).rows[0].n;
    expect(before).toBeGreaterThan(0);
    for (const statement of [
      "update audit_log set action = 'question.create', admin_username = 'someone else'",
      "delete from audit_log",
      "truncate audit_log",
    ]) {
      await expect(database.pool.query(statement), statement).rejects.toThrow(/the audit log is append-only/);
    }
    expect((await database.pool.query("select count(*)::int as n from audit_log")).rows[0].n).toBe(before);
    expect(
      (await database.pool.query("select count(*)::int as n from audit_log where admin_username = 'someone else'"))
        .rows[0].n,
    ).toBe(0);
  });

  it("has an action for every change route in the rule book", () => {
    // POSTs that change nothing the log keeps: ending one's own session, an import's preview and a question's
    // rendered preview (they write nothing), and a download ticket (it only lets the admin's browser fetch a
    // file the admin may read anyway).
    const notChanges = new Set([
      "POST /api/auth/admin/logout",
      "POST /api/questions/import/preview",
      "POST /api/questions/render",
      "POST /api/downloads",
    ]);
    const changes = [...ADMIN_ROUTE_RULES].filter(([route]) => !route.startsWith("GET ") && !notChanges.has(route));
    expect(changes.filter(([, rule]) => !rule.audit).map(([route]) => route)).toEqual([]);
  });
});
