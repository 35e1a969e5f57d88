// Download tickets (decision 022): an admin's browser fetches an export by an address that works once, within a
// minute, for that export and that admin's session; another instance on the same database honours it; the
// admin's token never appears in it.
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, seedQuestions } from "../../test/fixtures.ts";
import { createFeedback } from "../feedback/repository.ts";

describe("download tickets", async () => {
  const { app, database, config } = await createTestApp();
  const token = await adminToken(app, database.db);
  const auth = bearer(token);
  await seedQuestions(database.db, 3);
  for (const name of ["Asha Rao", "Ravi Kumar"]) {
    await createFeedback(
      database.db,
      { name, usnNumber: "1TW24CS001", emailId: "a@example.com", section: "A", batch: "2025", feedback: "Good." },
      null,
    );
  }
  const other = await buildApp({ config, db: database.db, logger: false });
  await other.ready();
  afterAll(() => other.close());

  const ticketFor = async (payload: object, headers: Record<string, string> = auth) =>
    app.inject({ method: "POST", url: "/api/downloads", headers, payload });

  it("answers an address that downloads the export once, without the token", async () => {
    const issued = await ticketFor({ export: "feedbackExport", query: "search=Asha" });
    expect(issued.statusCode, issued.body).toBe(200);
    const { url, expiresAt } = issued.json();
    expect(url).toMatch(/^\/api\/feedback\/export\.csv\?search=Asha&ticket=[\w-]{43}$/);
    expect(url).not.toContain(token);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);

    const first = await app.inject({ method: "GET", url });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers["content-disposition"]).toBe('attachment; filename="feedback.csv"');
    const rows = parse(first.body, { columns: true }) as { name: string }[];
    expect(rows.map((row) => row.name)).toEqual(["Asha Rao"]);

    const again = await app.inject({ method: "GET", url });
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toMatch(/expired or has been used already/);
  });

  it("is redeemed by another instance sharing the database", async () => {
    const { url } = (await ticketFor({ export: "questionExport" })).json();
    const response = await other.inject({ method: "GET", url });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body.split("\n")[0]).toBe(
      "text,category,difficulty,type,scoring,correct,weights,option1,option2,option3,option4,option5,option6,option7,option8,option9,option10",
    );
    expect((await app.inject({ method: "GET", url })).statusCode).toBe(401);
  });

  it("opens only the address it was issued for", async () => {
    const { url } = (await ticketFor({ export: "feedbackExport", query: "search=Asha" })).json();
    const changed = url.replace("search=Asha", "search=Ravi");
    expect((await app.inject({ method: "GET", url: changed })).statusCode).toBe(401);
    const elsewhere = url.replace("/api/feedback/export.csv", "/api/contact/export.csv");
    expect((await app.inject({ method: "GET", url: elsewhere })).statusCode).toBe(401);
    // A refused address does not use the ticket up.
    expect((await app.inject({ method: "GET", url })).statusCode).toBe(200);
  });

  it("expires after a minute", async () => {
    const { url } = (await ticketFor({ export: "studentExport" })).json();
    await database.pool.query("update download_tickets set expires_at = now() - interval '1 second'");
    expect((await app.inject({ method: "GET", url })).statusCode).toBe(401);
  });

  it("ends with the session that asked for it", async () => {
    const session = await adminToken(app, database.db);
    const { url } = (await ticketFor({ export: "studentExport" }, bearer(session))).json();
    await app.inject({ method: "POST", url: "/api/auth/admin/logout", headers: bearer(session) });
    expect((await app.inject({ method: "GET", url })).statusCode).toBe(401);
  });

  it("needs the role the download needs, and a query the download accepts", async () => {
    const viewer = bearer(await adminToken(app, database.db, "ticket-viewer", "viewer"));
    expect((await ticketFor({ export: "questionExport" }, viewer)).statusCode).toBe(403);
    expect((await ticketFor({ export: "resultExport", query: "outcome=pass" }, viewer)).statusCode).toBe(200);

    for (const payload of [
      { export: "resultExport", query: "outcome=maybe" },
      { export: "resultExport", query: "ticket=abc" },
      { export: "driveResultsExport" },
      { export: "driveResultsExport", id: "00000000-0000-4000-8000-000000000000", query: "x=1" },
      { export: "dashboard" },
    ]) {
      const refused = await ticketFor(payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await ticketFor({ export: "studentExport" }, {})).statusCode).toBe(401);
  });

  it("refuses a query at once that the download would refuse, a name given twice included", async () => {
    const tickets = async () => (await database.pool.query("select 1 from download_tickets")).rowCount;
    const before = await tickets();
    for (const [name, path, query] of [
      ["resultExport", "/api/students/results/export.csv", "search=a&search=b"],
      ["resultExport", "/api/students/results/export.csv", "outcome=pass&outcome=fail"],
      ["feedbackExport", "/api/feedback/export.csv", "search=Asha&search=Ravi"],
    ] as const) {
      const direct = await app.inject({ method: "GET", url: `${path}?${query}`, headers: auth });
      expect(direct.statusCode, query).toBe(400);
      const refused = await ticketFor({ export: name, query });
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().message, query).toBe(direct.json().message);
    }
    expect(await tickets()).toBe(before);
    // The same name with one value is the download's to take.
    const { url } = (await ticketFor({ export: "resultExport", query: "search=a" })).json();
    expect((await app.inject({ method: "GET", url })).statusCode).toBe(200);
  });

  it("is not spent by a HEAD request, which is refused: the GET that follows downloads", async () => {
    const { url } = (await ticketFor({ export: "feedbackExport", query: "search=Asha" })).json();
    const head = await app.inject({ method: "HEAD", url });
    expect(head.statusCode).toBe(405);
    expect(head.headers.allow).toBe("GET");
    const get = await app.inject({ method: "GET", url });
    expect(get.statusCode, get.body).toBe(200);
    expect(parse(get.body, { columns: true })).toEqual([expect.objectContaining({ name: "Asha Rao" })]);
    // With the admin's own token too: a HEAD would run the export (and record it in the audit log) for headers.
    const withToken = await app.inject({ method: "HEAD", url: "/api/feedback/export.csv", headers: auth });
    expect(withToken.statusCode).toBe(405);
    expect(withToken.headers.allow).toBe("GET");
  });

  it("is not taken from the address of a request that has a bearer token, nor by a made-up ticket", async () => {
    expect((await app.inject({ method: "GET", url: "/api/students/export.csv?ticket=made-up" })).statusCode).toBe(401);
    const withToken = await app.inject({
      method: "GET",
      url: "/api/students/export.csv?ticket=made-up",
      headers: auth,
    });
    expect(withToken.statusCode).toBe(200);
  });
});
