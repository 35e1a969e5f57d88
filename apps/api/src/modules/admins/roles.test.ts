// Admin roles, invitations, disabling and the last owner, against the real API and database.
import type { AdminRole } from "@trainwise/contract/admin-roles";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSecondInstance, createTestApp } from "../../test/app.ts";
import { bearer, registerStudent, seedQuestions } from "../../test/fixtures.ts";
import { createAdmin } from "./repository.ts";

const PASSWORD = "a long enough password";
const SOME_ID = "00000000-0000-4000-8000-000000000000";

describe("admin roles", async () => {
  const testApp = await createTestApp();
  const { app, database } = testApp;
  await seedQuestions(database.db, 3);
  let counter = 0;

  async function signIn(role: AdminRole, username = `${role}-${++counter}`) {
    const { id } = await createAdmin(database.db, username, PASSWORD, role);
    const response = await app.inject({
      method: "POST",
      url: "/api/auth/admin/login",
      payload: { username, password: PASSWORD },
    });
    expect(response.statusCode, response.body).toBe(200);
    return { id, username, token: response.json().token as string, headers: bearer(response.json().token) };
  }

  const owner = await signIn("owner", "the-owner");
  const examiner = await signIn("examiner");
  const viewer = await signIn("viewer");
  const call = (headers: Record<string, string>, method: string, url: string, payload?: unknown) =>
    app.inject({ method: method as "GET", url, headers, payload: payload as object });
  const questionInput = {
    text: "Which planet is largest?",
    category: "Science",
    difficulty: "easy",
    options: [
      { text: "Jupiter", isCorrect: true },
      { text: "Mars", isCorrect: false },
    ],
  };

  afterEach(() => {
    vi.useRealTimers();
  });

  it("tells the web app each admin's role", async () => {
    for (const [who, role] of [
      [owner, "owner"],
      [examiner, "examiner"],
      [viewer, "viewer"],
    ] as const) {
      const session = await call(who.headers, "GET", "/api/auth/admin/session");
      expect(session.json()).toEqual({ username: who.username, role });
    }
  });

  it("keeps a viewer to results and exports, with a readable 403 for everything else", async () => {
    const { _id: questionId } = (await call(owner.headers, "POST", "/api/questions", questionInput)).json();
    const student = await registerStudent(app);
    const studentId = (await database.pool.query("select id from students limit 1")).rows[0].id as string;
    const driveId = (await database.pool.query("select id from drives where is_default")).rows[0].id as string;
    expect(student.token).toBeTruthy();

    const refused: [string, string, unknown?][] = [
      ["POST", "/api/questions", questionInput],
      ["PUT", `/api/questions/${questionId}`, questionInput],
      ["DELETE", `/api/questions/${questionId}`],
      ["GET", "/api/questions/table"],
      ["PUT", `/api/students/${studentId}/time-multiplier`, { timeMultiplier: 1.5 }],
      ["POST", `/api/students/${studentId}/end-sessions`],
      ["POST", "/api/tests", {}],
      ["POST", `/api/drives/${driveId}/close`],
      ["PUT", `/api/drives/${driveId}`, {}],
      ["GET", "/api/admins"],
      ["GET", "/api/audit"],
    ];
    for (const [method, url, payload] of refused) {
      const response = await call(viewer.headers, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error, `${method} ${url}`).toMatch(/^Your role \(Viewer\) does not allow this\./);
    }
    expect((await call(viewer.headers, "POST", "/api/questions", questionInput)).json().message).toBe(
      "Your role (Viewer) does not allow this. It needs: Owner or Examiner.",
    );

    for (const url of [
      "/api/dashboard",
      "/api/students/results/table",
      "/api/students/results/export.csv",
      "/api/students/export.csv",
      `/api/drives/${driveId}/results.csv`,
      "/api/tests",
      "/api/drives",
    ]) {
      expect((await call(viewer.headers, "GET", url)).statusCode, url).toBe(200);
    }
    // Nothing changed behind the refusals.
    const stored = await database.pool.query("select text from questions where id = $1", [questionId]);
    expect(stored.rows[0].text).toBe(questionInput.text);
    expect((await database.pool.query("select closed_at from drives where id = $1", [driveId])).rows[0].closed_at).toBe(
      null,
    );
  });

  it("lets an examiner manage questions but not admins or the audit log", async () => {
    expect((await call(examiner.headers, "POST", "/api/questions", questionInput)).statusCode).toBe(201);
    for (const [method, url, payload] of [
      ["GET", "/api/admins"],
      ["POST", "/api/admins", { username: "sneaky", role: "owner", method: "password" }],
      ["PUT", `/api/admins/${examiner.id}/role`, { role: "owner" }],
      ["POST", `/api/admins/${owner.id}/disable`],
      ["GET", "/api/audit"],
    ] as const) {
      const response = await call(examiner.headers, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().message).toBe("Your role (Examiner) does not allow this. It needs: Owner.");
    }
    const roles = await database.pool.query("select role from admins where id = $1", [examiner.id]);
    expect(roles.rows[0].role).toBe("examiner");
    expect((await database.pool.query("select 1 from admins where username = 'sneaky'")).rowCount).toBe(0);
  });

  it("refuses the new routes to anonymous callers (401) and students (403)", async () => {
    const student = await registerStudent(app);
    for (const [method, url] of [
      ["GET", "/api/admins"],
      ["POST", "/api/admins"],
      ["PUT", `/api/admins/${SOME_ID}/role`],
      ["POST", `/api/admins/${SOME_ID}/disable`],
      ["POST", `/api/admins/${SOME_ID}/enable`],
      ["GET", "/api/audit"],
    ] as const) {
      expect((await call({}, method, url, {})).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(bearer(student.token), method, url, {})).statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it("invites by a one-time link that sets the password once and expires after 72 hours", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-24T09:00:00Z") });
    const invited = await call(owner.headers, "POST", "/api/admins", {
      username: "new-viewer",
      role: "viewer",
      method: "link",
    });
    expect(invited.statusCode, invited.body).toBe(200);
    const { admin, invitePath, expiresAt, password } = invited.json();
    expect(admin).toMatchObject({ username: "new-viewer", role: "viewer", status: "invited", lastSignInAt: null });
    expect(password).toBeUndefined();
    expect(expiresAt).toBe("2026-11-27T09:00:00.000Z");
    const token = (invitePath as string).replace("/admin/invite/", "");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only a hash of the token is stored.
    const stored = await database.pool.query("select token_hash from admin_invites where admin_id = $1", [admin.id]);
    expect(stored.rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.rows[0].token_hash).not.toContain(token);
    // Before setting a password nobody can sign in as the invitee.
    const early = await call({}, "POST", "/api/auth/admin/login", { username: "new-viewer", password: "" });
    expect(early.statusCode).toBe(400);

    expect((await call({}, "GET", `/api/admins/invites/${token}`)).json()).toEqual({
      username: "new-viewer",
      role: "viewer",
      expiresAt: "2026-11-27T09:00:00.000Z",
    });
    const short = await call({}, "POST", `/api/admins/invites/${token}`, { password: "too short" });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields.password).toBe("Password must be at least 12 characters");

    const accepted = await call({}, "POST", `/api/admins/invites/${token}`, { password: "the invitee's password" });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().message).toBe("Your password is set. Log in as new-viewer.");
    const again = await call({}, "POST", `/api/admins/invites/${token}`, { password: "someone else's password" });
    expect(again.statusCode).toBe(410);
    expect(again.json().message).toBe(
      "This invitation link has expired or has already been used. Ask an owner for a new one.",
    );
    expect((await call({}, "GET", `/api/admins/invites/${token}`)).statusCode).toBe(410);
    const login = await call({}, "POST", "/api/auth/admin/login", {
      username: "new-viewer",
      password: "the invitee's password",
    });
    expect(login.statusCode).toBe(200);
    const second = await call({}, "POST", "/api/auth/admin/login", {
      username: "new-viewer",
      password: "someone else's password",
    });
    expect(second.statusCode).toBe(401);
    const listed = (await call(owner.headers, "GET", "/api/admins")).json();
    expect(listed.find((row: { username: string }) => row.username === "new-viewer")).toMatchObject({
      status: "active",
      lastSignInAt: "2026-11-24T09:00:00.000Z",
    });

    // A second invitation, used a minute too late.
    const late = (
      await call(owner.headers, "POST", "/api/admins", { username: "late-one", role: "examiner", method: "link" })
    ).json();
    const lateToken = (late.invitePath as string).replace("/admin/invite/", "");
    vi.setSystemTime(new Date("2026-11-27T08:59:00Z"));
    expect((await call({}, "GET", `/api/admins/invites/${lateToken}`)).statusCode).toBe(200);
    vi.setSystemTime(new Date("2026-11-27T09:01:00Z"));
    expect((await call({}, "GET", `/api/admins/invites/${lateToken}`)).statusCode).toBe(410);
    const tooLate = await call({}, "POST", `/api/admins/invites/${lateToken}`, { password: "the invitee's password" });
    expect(tooLate.statusCode).toBe(410);
    expect((await database.pool.query("select password_hash from admins where username = 'late-one'")).rows[0]).toEqual(
      { password_hash: null },
    );
  });

  it("invites with a generated password that is shown once and works", async () => {
    const invited = await call(owner.headers, "POST", "/api/admins", {
      username: "Gen.Examiner",
      role: "examiner",
      method: "password",
    });
    expect(invited.statusCode).toBe(200);
    const { admin, password, invitePath } = invited.json();
    expect(admin).toMatchObject({ username: "Gen.Examiner", role: "examiner", status: "active" });
    expect(invitePath).toBeUndefined();
    expect(password.length).toBeGreaterThanOrEqual(20);
    const login = await call({}, "POST", "/api/auth/admin/login", { username: "gen.examiner", password });
    expect(login.statusCode).toBe(200);
    const session = await call(bearer(login.json().token), "GET", "/api/auth/admin/session");
    expect(session.json().role).toBe("examiner");
    const taken = await call(owner.headers, "POST", "/api/admins", {
      username: "gen.EXAMINER",
      role: "viewer",
      method: "password",
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe("An admin with this username already exists.");
  });

  it("answers 409, not 500, when two owners invite the same username at once", async () => {
    // The other owner's invitation is inserted but not yet committed: this one's look-up cannot see it, so only
    // the unique index stops the second account, once the first commits.
    let pending: ReturnType<typeof call> | undefined;
    await database.db.transaction(async (tx) => {
      await createAdmin(tx, "Racing.Name", null, "viewer");
      pending = call(owner.headers, "POST", "/api/admins", {
        username: "racing.name",
        role: "examiner",
        method: "password",
      });
      // Long enough for the request to pass its look-up and wait on the index.
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    const invited = await pending;
    expect(invited?.statusCode, invited?.body).toBe(409);
    expect(invited?.json().message).toBe("An admin with this username already exists.");
  });

  it("renews an invitation: the new link works, every earlier one stops, and an accepted account has none", async () => {
    const invited = (
      await call(owner.headers, "POST", "/api/admins", { username: "astray", role: "viewer", method: "link" })
    ).json();
    const firstToken = (invited.invitePath as string).replace("/admin/invite/", "");
    const renewed = await call(owner.headers, "POST", `/api/admins/${invited.admin.id}/invitation`);
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(renewed.json().admin).toMatchObject({ username: "astray", status: "invited" });
    const secondToken = (renewed.json().invitePath as string).replace("/admin/invite/", "");
    expect(secondToken).not.toBe(firstToken);
    // The leaked first link is dead at once.
    expect((await call({}, "GET", `/api/admins/invites/${firstToken}`)).statusCode).toBe(410);
    expect((await call({}, "GET", `/api/admins/invites/${secondToken}`)).statusCode).toBe(200);
    // Disabling voids every link the account had: enabling it again brings none of them back, so a link that went
    // astray before the owner disabled the account stays dead; the owner sends a new one.
    await call(owner.headers, "POST", `/api/admins/${invited.admin.id}/disable`);
    // Nor can a new link be made while it is disabled, to start working unseen when it is enabled.
    const whileDisabled = await call(owner.headers, "POST", `/api/admins/${invited.admin.id}/invitation`);
    expect(whileDisabled.statusCode).toBe(409);
    expect(whileDisabled.json().message).toBe(
      "This admin is disabled: enable the account first, then send a new link.",
    );
    await call(owner.headers, "POST", `/api/admins/${invited.admin.id}/enable`);
    for (const token of [firstToken, secondToken]) {
      expect((await call({}, "GET", `/api/admins/invites/${token}`)).statusCode).toBe(410);
      const refused = await call({}, "POST", `/api/admins/invites/${token}`, { password: "the astray password" });
      expect(refused.statusCode).toBe(410);
    }
    const thirdToken = (
      (await call(owner.headers, "POST", `/api/admins/${invited.admin.id}/invitation`)).json().invitePath as string
    ).replace("/admin/invite/", "");
    const accepted = await call({}, "POST", `/api/admins/invites/${thirdToken}`, { password: "the astray password" });
    expect(accepted.statusCode).toBe(200);

    const again = await call(owner.headers, "POST", `/api/admins/${invited.admin.id}/invitation`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("This admin has already set a password; an invitation has nothing left to do.");
    const nobody = await call(owner.headers, "POST", "/api/admins/00000000-0000-4000-8000-000000000000/invitation");
    expect(nobody.statusCode).toBe(404);
    const examiner = await signIn("examiner");
    expect((await call(examiner.headers, "POST", `/api/admins/${invited.admin.id}/invitation`)).statusCode).toBe(403);
    const audit = await database.pool.query("select count(*)::int as n from audit_log where action = 'admin.reinvite'");
    expect(audit.rows[0].n).toBe(2);
  });

  it("changes a role, which takes effect at the admin's next request", async () => {
    const someone = await signIn("viewer");
    expect((await call(someone.headers, "GET", "/api/questions/table")).statusCode).toBe(403);
    const changed = await call(owner.headers, "PUT", `/api/admins/${someone.id}/role`, { role: "examiner" });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ id: someone.id, role: "examiner" });
    expect((await call(someone.headers, "GET", "/api/questions/table")).statusCode).toBe(200);
  });

  it("disabling ends the admin's sessions at once on every instance, and refuses their login", async () => {
    const second = await createSecondInstance(testApp);
    // Tokens carry whole seconds: start 0.4 s into a second that is still to come, so the database's own clock
    // (which stamps the account and its sessions) is never ahead of the faked one.
    const start = Math.ceil(Date.now() / 1000) * 1000 + 1400;
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    const someone = await signIn("examiner");
    // The other instance has served this session already.
    expect(
      (await second.app.inject({ method: "GET", url: "/api/dashboard", headers: someone.headers })).statusCode,
    ).toBe(200);
    const disabled = await call(owner.headers, "POST", `/api/admins/${someone.id}/disable`);
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().status).toBe("disabled");
    for (const instance of [app, second.app]) {
      const refused = await instance.inject({ method: "GET", url: "/api/dashboard", headers: someone.headers });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toBe("Your session has expired or is not valid. Please log in again.");
    }
    const login = await call({}, "POST", "/api/auth/admin/login", { username: someone.username, password: PASSWORD });
    expect(login.statusCode).toBe(403);
    expect(login.json().message).toBe("This admin account is disabled. Ask an owner to enable it.");

    expect((await call(owner.headers, "POST", `/api/admins/${someone.id}/enable`)).json().status).toBe("active");
    // The session that disabling ended stays ended; a new sign-in (in a later second) works.
    expect((await call(someone.headers, "GET", "/api/dashboard")).statusCode).toBe(401);
    vi.setSystemTime(start + 800);
    const back = await call({}, "POST", "/api/auth/admin/login", { username: someone.username, password: PASSWORD });
    expect(back.statusCode).toBe(200);
    expect((await call(bearer(back.json().token), "GET", "/api/dashboard")).statusCode).toBe(200);
  });

  it("refuses with 409 to demote or disable the last active owner", async () => {
    // The fixtures above made one other owner; demote it so the-owner is the last one.
    const others = await database.pool.query(
      "select id from admins where role = 'owner' and disabled_at is null and id <> $1",
      [owner.id],
    );
    for (const { id } of others.rows) {
      expect((await call(owner.headers, "PUT", `/api/admins/${id}/role`, { role: "viewer" })).statusCode).toBe(200);
    }
    const demote = await call(owner.headers, "PUT", `/api/admins/${owner.id}/role`, { role: "examiner" });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toBe(
      "This is the last active owner: make another admin an owner first, so someone can still manage admins.",
    );
    const disable = await call(owner.headers, "POST", `/api/admins/${owner.id}/disable`);
    expect(disable.statusCode).toBe(409);
    const stored = await database.pool.query("select role, disabled_at from admins where id = $1", [owner.id]);
    expect(stored.rows[0]).toEqual({ role: "owner", disabled_at: null });
    expect((await call(owner.headers, "GET", "/api/admins")).statusCode).toBe(200);

    // With a second owner, the first may step down.
    const deputy = await signIn("examiner");
    await call(owner.headers, "PUT", `/api/admins/${deputy.id}/role`, { role: "owner" });
    expect((await call(owner.headers, "PUT", `/api/admins/${owner.id}/role`, { role: "owner" })).statusCode).toBe(200);
    expect((await call(owner.headers, "POST", `/api/admins/${SOME_ID}/disable`)).statusCode).toBe(404);
  });

  it("answers hostile input with 400 and a message", async () => {
    const cases: [string, string, unknown, string][] = [
      ["POST", "/api/admins", { username: "nul\u0000admin", role: "viewer", method: "link" }, "username"],
      ["POST", "/api/admins", { username: "bell\u0007", role: "viewer", method: "link" }, "username"],
      ["POST", "/api/admins", { username: "fine-name", role: "root", method: "link" }, "role"],
      ["POST", "/api/admins", { username: "fine-name", role: "viewer", method: "carrier-pigeon" }, "method"],
      ["PUT", `/api/admins/${viewer.id}/role`, { role: "superuser" }, "role"],
    ];
    for (const [method, url, payload, field] of cases) {
      const response = await call(owner.headers, method, url, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().fields[field]).toBeTruthy();
    }
    const nul = await call(owner.headers, "POST", "/api/admins", {
      username: "nul\u0000admin",
      role: "viewer",
      method: "link",
    });
    expect(nul.json().fields.username).toBe("Username must not contain control characters");
    expect(
      (await call(owner.headers, "PUT", `/api/admins/${viewer.id}/role`, { role: "root" })).json().fields.role,
    ).toBe("Role must be owner, examiner or viewer");
    for (const query of ["page=1e400", "page=99999999999999999999", "pageSize=100000", "page=-1", "action=rm-rf"]) {
      const response = await call(owner.headers, "GET", `/api/audit?${query}`);
      expect(response.statusCode, query).toBe(400);
    }
    expect((await call(owner.headers, "GET", "/api/audit?adminId=not-a-uuid")).statusCode).toBe(400);
    const badToken = await call({}, "POST", "/api/admins/invites/short", { password: "long enough password" });
    expect(badToken.statusCode).toBe(400);
    const nulPassword = await call({}, "POST", `/api/admins/invites/${"a".repeat(43)}`, {
      password: "twelve chars\u0000!",
    });
    expect(nulPassword.statusCode).toBe(400);
    expect(nulPassword.json().fields.password).toBe("Password must not contain control characters");
    expect((await database.pool.query("select 1 from admins where username like 'fine-name%'")).rowCount).toBe(0);
  });
});
