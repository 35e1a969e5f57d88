// Every API route × every kind of caller → the status the route's access rule demands. The table below is the
// rule book: a route added to the app without an entry here fails the suite.
import { createSigner } from "fast-jwt";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";
import { adminToken, bearer, registerStudent, seedQuestions } from "../test/fixtures.ts";

type Access = "public" | "student" | "admin";

const ACCESS: Record<string, Access> = {
  "GET /api/health": "public",
  "GET /api/health/ready": "public",
  "GET /api/health/live": "public",
  "POST /api/auth/admin/login": "public",
  "POST /api/auth/admin/logout": "admin",
  "POST /api/auth/admin/password": "admin",
  "GET /api/auth/admin/session": "admin",
  "POST /api/auth/student/register": "public",
  "GET /api/questions": "admin",
  "GET /api/questions/categories": "admin",
  "GET /api/questions/table": "admin",
  "POST /api/questions": "admin",
  "PUT /api/questions/:id": "admin",
  "DELETE /api/questions/:id": "admin",
  "GET /api/questions/export.csv": "admin",
  "GET /api/questions/template.csv": "admin",
  "POST /api/questions/import": "admin",
  "POST /api/questions/import/preview": "admin",
  "POST /api/questions/render": "admin",
  "POST /api/media": "admin",
  "GET /api/media/:file": "public",
  "GET /api/questions/export": "admin",
  "GET /api/students": "admin",
  "GET /api/students/table": "admin",
  "GET /api/students/export.csv": "admin",
  "PUT /api/students/:id/accommodation": "admin",
  "POST /api/students/:id/extra-attempt": "admin",
  "POST /api/students/:id/let-resume": "admin",
  "POST /api/students/:id/end-sessions": "admin",
  "GET /api/students/results/all": "admin",
  "GET /api/students/results/summary": "admin",
  "GET /api/students/results/table": "admin",
  "GET /api/students/results/export.csv": "admin",
  "GET /api/students/results/:id": "admin",
  "GET /api/quiz/questions": "student",
  "GET /api/quiz/attempt": "student",
  "POST /api/quiz/start": "student",
  "POST /api/quiz/focus": "student",
  "PUT /api/quiz/answers": "student",
  "POST /api/quiz/next": "student",
  "POST /api/quiz/submit": "student",
  "GET /api/quiz/result/:id": "student",
  "GET /api/tests": "admin",
  "GET /api/tests/table": "admin",
  "GET /api/tests/choices": "admin",
  "POST /api/tests": "admin",
  "GET /api/tests/:id": "admin",
  "PUT /api/tests/:id": "admin",
  "POST /api/tests/:id/archive": "admin",
  "GET /api/drives": "admin",
  "GET /api/drives/table": "admin",
  "GET /api/drives/choices": "admin",
  "POST /api/drives": "admin",
  "GET /api/drives/:id": "admin",
  "PUT /api/drives/:id": "admin",
  "POST /api/drives/:id/close": "admin",
  "POST /api/drives/:id/reopen": "admin",
  "POST /api/drives/:id/archive": "admin",
  "PUT /api/drives/:id/roster": "admin",
  "GET /api/drives/:id/results": "admin",
  "GET /api/drives/:id/results.csv": "admin",
  "GET /api/drives/:id/live": "admin",
  "GET /api/drives/:id/live/stream": "admin",
  "GET /api/drives/:id/analysis": "admin",
  "GET /api/drives/:id/analysis.csv": "admin",
  "GET /api/tests/:id/analysis": "admin",
  "GET /api/tests/:id/analysis.csv": "admin",
  "PUT /api/analysis/questions/:id/retirement": "admin",
  "GET /api/certificates/:id": "student",
  "GET /api/certificates/verify/:code": "public",
  "GET /api/feedback": "public",
  "POST /api/feedback": "admin",
  "GET /api/feedback/all": "admin",
  "GET /api/feedback/table": "admin",
  "GET /api/feedback/export.csv": "admin",
  "PATCH /api/feedback/:id": "admin",
  "DELETE /api/feedback/:id": "admin",
  "POST /api/contact": "public",
  "GET /api/contact": "admin",
  "GET /api/contact/table": "admin",
  "GET /api/contact/export.csv": "admin",
  "GET /api/dashboard": "admin",
  "GET /api/admins": "admin",
  "POST /api/admins": "admin",
  "PUT /api/admins/:id/role": "admin",
  "POST /api/admins/:id/invitation": "admin",
  "POST /api/admins/:id/disable": "admin",
  "POST /api/admins/:id/enable": "admin",
  "GET /api/admins/invites/:token": "public",
  "POST /api/admins/invites/:token": "public",
  "GET /api/audit": "admin",
  "POST /api/downloads": "admin",
};

const SOME_ID = "00000000-0000-4000-8000-000000000000";

describe("access matrix", async () => {
  const { app, database, config } = await createTestApp();
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

  it("has a rule for every route the app serves, and no rule without a route", () => {
    const served = app.apiRoutes.map((route) => `${route.method} ${route.url}`);
    expect(
      served.filter((route) => !(route in ACCESS)),
      "routes without an access rule",
    ).toEqual([]);
    expect(
      Object.keys(ACCESS).filter((route) => !served.includes(route)),
      "rules without a route",
    ).toEqual([]);
  });

  for (const [name, headers, expected] of callers) {
    it(`answers ${name} as each route's rule demands`, async () => {
      for (const route of app.apiRoutes) {
        const access = ACCESS[`${route.method} ${route.url}`] as Access;
        const url = route.url.replace(":id", SOME_ID);
        const response = await app.inject({ method: route.method as "GET", url, headers: headers(), payload: {} });
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
