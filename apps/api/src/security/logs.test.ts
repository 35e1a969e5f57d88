// The log carries no personal data and no secrets: a request that fails in the database with a visitor's
// details in it is logged without them, and credentials are redacted from whatever is logged. Beyond these cases,
// every app of the security suite logs to a watched log (test/log-watch.ts), searched after the suite for every
// value a test marked secret or personal.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";
import { adminToken, bearer } from "../test/fixtures.ts";
import { markSensitive, watchedLog } from "../test/log-watch.ts";

const log = watchedLog();
let logged = "";
log.on("data", (chunk) => (logged += chunk));
const { app, database } = await createTestApp({ logStream: log });

const visitor = {
  name: "Priya Lognova",
  email: "priya.lognova@example.com",
  subject: "Fees for the data course",
  phone: "+91 98450 12345",
  message: "Please call me at home, 14 Lake Road",
};

describe("the log", () => {
  it("keeps a failed query's values out of the log, and says which rule failed", async () => {
    // A rule every row breaks, so the insert fails in PostgreSQL with the visitor's details as its values.
    await database.pool.query("alter table contact_enquiries add constraint refuse_every_row check (false) not valid");
    const response = await app.inject({
      method: "POST",
      url: "/api/contact",
      payload: visitor,
      headers: { authorization: "Bearer not-a-real-token-but-secret" },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json().error).toBe("Something went wrong on our side. Please try again.");

    for (const value of [...Object.values(visitor), "priya", "98450", "not-a-real-token-but-secret"])
      expect(logged.toLowerCase()).not.toContain(value.toLowerCase());
    const failure = logged
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === "request failed");
    expect(failure?.err).toMatchObject({ cause: { code: "23514", constraint: "refuse_every_row" } });
    expect(failure?.err.message).toContain('insert into "contact_enquiries"');
  });

  it("redacts credentials wherever a log line carries them", () => {
    const secrets = {
      headers: { authorization: "Bearer eyJhbGciOi.secret.signature", cookie: "session=secret-cookie" },
      body: { username: "principal", password: "the admin password", newPassword: "the next admin password" },
      token: "a-signed-token-value",
    };
    app.log.warn(secrets, "a line with credentials");
    const line = logged.split("\n").find((entry) => entry.includes("a line with credentials")) ?? "";
    expect(line).toContain('"username":"principal"');
    for (const secret of ["eyJhbGciOi", "secret-cookie", "the admin password", "the next admin password", "a-signed"])
      expect(line).not.toContain(secret);
    expect(line.match(/\[redacted\]/g)).toHaveLength(5);
  });
});

describe("the request log", () => {
  it("names each request by its route, so tokens, tickets, codes and searched e-mail addresses stay out of it", async () => {
    const admin = bearer(await adminToken(app, database.db));
    const secrets: string[] = [];
    const call = (method: "GET" | "POST", url: string, headers: Record<string, string> = {}, payload?: object) =>
      app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

    // An invitation's one-time token travels in its address; whoever read the log could accept it.
    const invited = await call("POST", "/api/admins", admin, { username: "log-reader", role: "owner", method: "link" });
    const inviteToken = (invited.json().invitePath as string).replace("/admin/invite/", "");
    secrets.push(inviteToken);
    expect((await call("GET", `/api/admins/invites/${inviteToken}`)).statusCode).toBe(200);
    const password = "the invitee's chosen password";
    secrets.push(password);
    expect((await call("POST", `/api/admins/invites/${inviteToken}`, {}, { password })).statusCode).toBe(200);

    // A download ticket is a credential for one export, in the address the browser follows.
    const ticket = await call("POST", "/api/downloads", admin, { export: "studentExport", query: "search=ana" });
    const ticketUrl = ticket.json().url as string;
    secrets.push(new URL(ticketUrl, "http://localhost").searchParams.get("ticket") ?? "no ticket");
    expect((await call("GET", ticketUrl)).statusCode).toBe(200);

    // A search for a student by e-mail puts personal data in the query string.
    const email = "meera.logsearch@example.com";
    secrets.push(email, "meera.logsearch");
    expect((await call("GET", `/api/students/table?search=${encodeURIComponent(email)}`, admin)).statusCode).toBe(200);

    // A certificate's code is in its verification address; an unknown one too, and a path no route serves.
    const code = "ZXCV-BNMA-SDFG";
    secrets.push(code, "ZXCVBNMASDFG");
    expect((await call("GET", `/api/certificates/verify/${code}`)).statusCode).toBe(404);
    secrets.push("no-such-route-secret");
    expect((await call("GET", "/api/no-such-route-secret?token=no-such-route-secret")).statusCode).toBe(404);

    for (const secret of secrets) markSensitive(secret, "secret", "a value of an address");
    const lines = logged.split("\n").filter(Boolean);
    for (const secret of secrets) {
      expect(
        lines.filter((line) => line.toLowerCase().includes(secret.toLowerCase())),
        secret,
      ).toEqual([]);
    }
    const requests = lines.map((line) => JSON.parse(line)).filter((line) => line.req);
    expect(requests.map((line) => line.req)).toContainEqual({ method: "GET", route: "/api/admins/invites/:token" });
    expect(requests.map((line) => line.req)).toContainEqual({ method: "GET", route: "(no route)" });
    // Nor where the client is: the limits and the audit log keep addresses, the app log does not.
    expect(lines.filter((line) => line.includes("127.0.0.1"))).toEqual([]);
  });
});

describe("the security suite's logs", () => {
  it("are all watched: every app the suite builds logs where its log is searched for marked values", () => {
    const folder = import.meta.dirname;
    const files = fs.readdirSync(folder).filter((file) => file.endsWith(".test.ts"));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const source = fs.readFileSync(path.join(folder, file), "utf8");
      for (const call of source.match(/createTestApp\((\{[^}]*\})?\)/g) ?? []) {
        expect(call, file).toMatch(/logStream: (watchedLog\(\)|log\b)/);
      }
    }
    expect(fs.readFileSync(path.join(folder, "logs.test.ts"), "utf8")).toContain("const log = watchedLog();");
  });
});
