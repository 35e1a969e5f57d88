// How many of one admin's downloads and reports an instance prepares at once (http/download-slots.ts): three, the
// fourth refused with a plain 429, on the download itself and already on its ticket; a browser that leaves gives
// its slot back, even while its session is still being checked; another admin is not held back.
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { DOWNLOADS_AT_ONCE, DOWNLOADS_BUSY } from "../../http/download-slots.ts";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, seedQuestions } from "../../test/fixtures.ts";

describe("one admin's downloads at once", async () => {
  const { app, database } = await createTestApp();
  await seedQuestions(database.db, 3);
  await app.listen({ host: "127.0.0.1", port: 0 });
  afterAll(() => app.close());
  const port = (app.server.address() as net.AddressInfo).port;

  /** Holds `table` locked until the answer is called: requests that read it wait in flight meanwhile. */
  async function holdLock(table: string) {
    const blocker = await database.pool.connect();
    await blocker.query("begin");
    await blocker.query(`lock table ${table} in access exclusive mode`);
    return async () => {
      await blocker.query("rollback");
      blocker.release();
    };
  }
  const waitingOn = async (table: string) =>
    (
      await database.pool.query<{ n: number }>(
        "select count(*)::int as n from pg_locks where relation = $1::regclass and not granted",
        [table],
      )
    ).rows[0]?.n;
  const bankExport = (token: string) =>
    app.inject({ method: "GET", url: "/api/questions/export.csv", headers: bearer(token) });

  it("writes three at once; the fourth download, its ticket and an item analysis are refused until one ends", async () => {
    const token = await adminToken(app, database.db);
    const tests = (await app.inject({ method: "GET", url: "/api/tests", headers: bearer(token) })).json();
    const testId = (tests as { _id: string }[])[0]?._id;
    const release = await holdLock("questions");
    const waiting = Array.from({ length: DOWNLOADS_AT_ONCE }, () => bankExport(token));
    await expect.poll(() => waitingOn("questions")).toBe(DOWNLOADS_AT_ONCE);
    const refused = await bankExport(token);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(DOWNLOADS_BUSY);
    // The ticket is refused too, where the admin's page shows the message (a refused download spends its ticket).
    const ticket = await app.inject({
      method: "POST",
      url: "/api/downloads",
      headers: bearer(token),
      payload: { export: "feedbackExport" },
    });
    expect(ticket.statusCode).toBe(429);
    expect(ticket.json().message).toBe(DOWNLOADS_BUSY);
    // A test's item analysis does a whole test's work as JSON, which a viewer may read: it counts the same.
    const analysis = await app.inject({ method: "GET", url: `/api/tests/${testId}/analysis`, headers: bearer(token) });
    expect(analysis.statusCode).toBe(429);
    // Another admin's downloads are not held back by this one's.
    const theirs = bankExport(await adminToken(app, database.db));
    await release();
    for (const response of [...(await Promise.all(waiting)), await theirs]) {
      expect(response.statusCode, response.body).toBe(200);
    }
    // The slots are free again once the answers are written.
    expect((await bankExport(token)).statusCode).toBe(200);
  });

  it("gives the slot back when the browser leaves while its session is still being checked", async () => {
    const token = await adminToken(app, database.db);
    // Session checks read the revoked tokens: held there, the downloads wait before they take a slot.
    const release = await holdLock("revoked_tokens");
    const sockets = Array.from({ length: DOWNLOADS_AT_ONCE }, () => {
      const socket = net.connect(port, "127.0.0.1");
      socket.on("error", () => {});
      socket.write(`GET /api/questions/export.csv HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`);
      return socket;
    });
    await expect.poll(() => waitingOn("revoked_tokens")).toBe(DOWNLOADS_AT_ONCE);
    for (const socket of sockets) socket.destroy();
    await release();
    // An outside attack left this admin refused with 429 for good: each slot was counted after its "close".
    await expect.poll(async () => (await bankExport(token)).statusCode).toBe(200);
    const again = await Promise.all(Array.from({ length: DOWNLOADS_AT_ONCE }, () => bankExport(token)));
    expect(again.map((response) => response.statusCode)).toEqual(Array(DOWNLOADS_AT_ONCE).fill(200));
  });
});
