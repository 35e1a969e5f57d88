// Every API route × every kind of caller → the status the route's access demands. Who may call each route is
// declared once, in the contract's table of endpoints; this suite holds the app to it: every served route is in
// the table and every entry is served, and each answers every kind of caller as its entry says.
import { endpoints } from "@trainwise/contract/endpoints";
import type { Endpoint } from "@trainwise/contract/endpoints/definition";
import { createSigner } from "fast-jwt";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";
import { injectHeadOfStreams } from "../test/event-stream.ts";
import { adminToken, bearer, registerStudent, seedQuestions } from "../test/fixtures.ts";
import { watchedLog } from "../test/log-watch.ts";

type Access = Endpoint["access"]["who"];

const ACCESS: Record<string, Access> = Object.fromEntries(
  Object.values(endpoints as Record<string, Endpoint>).map((endpoint) => [
    `${endpoint.method} /api${endpoint.path}`,
    endpoint.access.who,
  ]),
);

const SOME_ID = "00000000-0000-4000-8000-000000000000";

describe("access matrix", async () => {
  const { app, database, config } = await createTestApp({ logStream: watchedLog() });
  await seedQuestions(database.db, 3);
  await adminToken(app, database.db);
  const student = (await registerStudent(app)).token;
  const key = Buffer.from(config.jwtSecret ?? "");
  const adminId = (await database.pool.query("select id from admins limit 1")).rows[0].id as string;
  // A fresh valid admin token for each call: the matrix also calls logout, which revokes the token it is given.
  const signAdmin = createSigner({ key, iss: "trainwise", expiresIn: 60_000 });
  let sequence = 0;
  const freshAdmin = () => bearer(signAdmin({ role: "admin", sub: adminId, jti: `matrix-admin-${++sequence}` }));
  const claims = { role: "admin", sub: adminId, jti: "matrix" };
  const expired = createSigner({ key, iss: "trainwise", expiresIn: 1000, clockTimestamp: Date.now() - 60_000 })(claims);
  const otherKey = createSigner({
    key: "some-other-signing-key-of-enough-length",
    iss: "trainwise",
    expiresIn: 60_000,
  })(claims);
  const unsigned = createSigner({ algorithm: "none", iss: "trainwise", expiresIn: 60_000 })(claims);
  const revoked = await adminToken(app, database.db);
  await app.inject({ method: "POST", url: "/api/auth/admin/logout", headers: bearer(revoked) });

  const callers: [string, () => Record<string, string>, Record<Access, number[]>][] = [
    ["anonymous", () => ({}), { public: [], student: [401], admin: [401] }],
    ["a student", () => bearer(student), { public: [], student: [], admin: [403] }],
    ["an admin", freshAdmin, { public: [], student: [403], admin: [] }],
    ["an expired token", () => bearer(expired), { public: [], student: [401], admin: [401] }],
    ["a token signed with another key", () => bearer(otherKey), { public: [], student: [401], admin: [401] }],
    ["an alg:none token", () => bearer(unsigned), { public: [], student: [401], admin: [401] }],
    ["a revoked token", () => bearer(revoked), { public: [], student: [403], admin: [401] }],
  ];

  it("serves every endpoint of the contract's table and no route outside it", () => {
    const served = app.apiRoutes.map((route) => `${route.method} ${route.url}`);
    expect(
      served.filter((route) => !(route in ACCESS)),
      "served routes the contract does not declare",
    ).toEqual([]);
    expect(
      Object.keys(ACCESS).filter((route) => !served.includes(route)),
      "endpoints the app does not serve",
    ).toEqual([]);
  });

  for (const [name, headers, expected] of callers) {
    it(`answers ${name} as each route's rule demands`, async () => {
      for (const route of app.apiRoutes) {
        const access = ACCESS[`${route.method} ${route.url}`] as Access;
        const url = route.url.replace(":id", SOME_ID);
        const response = await injectHeadOfStreams(app, {
          method: route.method as "GET",
          url,
          headers: headers(),
          payload: {},
        });
        const wanted = expected[access];
        const where = `${route.method} ${route.url} as ${name}`;
        if (wanted.length > 0) expect(wanted, where).toContain(response.statusCode);
        else expect([401, 403], where).not.toContain(response.statusCode);
        expect(response.statusCode, where).toBeLessThan(500);
      }
    });
  }

  it("keeps one student out of another student's result", async () => {
    const other = (await registerStudent(app)).token;
    await app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(other) });
    const { resultId } = (
      await app.inject({ method: "POST", url: "/api/quiz/submit", headers: bearer(other), payload: { answers: [] } })
    ).json();
    const peek = await app.inject({ method: "GET", url: `/api/quiz/result/${resultId}`, headers: bearer(student) });
    expect(peek.statusCode).toBe(404);
  });
});
