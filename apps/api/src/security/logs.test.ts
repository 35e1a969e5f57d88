// The log carries no personal data and no secrets: a request that fails in the database with a visitor's
// details in it is logged without them, and credentials are redacted from whatever is logged.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";

const log = new PassThrough();
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
