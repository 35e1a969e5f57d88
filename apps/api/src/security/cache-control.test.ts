// Every /api answer, errors included, is `Cache-Control: no-store` unless its route is deliberately public:
// tokens, the answer key in /api/questions, student lists and CSV exports must stay out of browser and proxy
// caches. The routes come from the app's route table, so a new route is checked without being listed here.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";
import { injectHeadOfStreams } from "../test/event-stream.ts";
import { adminToken, bearer, registerStudent, seedQuestions, studentInput } from "../test/fixtures.ts";
import { watchedLog } from "../test/log-watch.ts";

const webClientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../web/build/client");

/**
 * The only API answers a cache may keep: the same for everyone, nothing private in them. (Not the health checks:
 * a cached "ready" would hide an instance that drains.)
 */
const PUBLIC = new Set(["GET /api/feedback"]);
const SOME_ID = "00000000-0000-4000-8000-000000000000";

describe("Cache-Control on every API route", async () => {
  const { app, database } = await createTestApp({ logStream: watchedLog(), webClientDir });
  await seedQuestions(database.db, 3);
  const admin = bearer(await adminToken(app, database.db));
  const student = bearer((await registerStudent(app)).token);

  const routes = app.apiRoutes.map((route) => `${route.method} ${route.url}`);
  it("walks a route table that has the routes of every feature", () => {
    expect(routes.length).toBeGreaterThanOrEqual(30);
    for (const route of ["GET /api/questions", "GET /api/students/export.csv", "POST /api/auth/admin/login"]) {
      expect(routes).toContain(route);
    }
  });

  for (const route of app.apiRoutes) {
    const key = `${route.method} ${route.url}`;
    const expected = PUBLIC.has(key) ? "public" : "no-store";
    it(`${key} is ${expected} for every caller and every outcome`, async () => {
      // Logout as an admin would revoke the shared token, so it gets a token of its own.
      const callers = [
        {},
        student,
        key === "POST /api/auth/admin/logout" ? bearer(await adminToken(app, database.db)) : admin,
      ];
      for (const headers of callers) {
        const response = await injectHeadOfStreams(app, {
          method: route.method as "GET",
          url: route.url.replace(":id", SOME_ID),
          headers,
          ...(route.method === "GET" || route.method === "DELETE" ? {} : { payload: {} }),
        });
        const cacheControl = response.headers["cache-control"];
        if (expected === "no-store") expect(cacheControl, `${response.statusCode}`).toBe("no-store");
        else expect(cacheControl).toBeUndefined();
      }
    });
  }

  it("lets caches keep an uploaded image for ever, and nothing about a missing one", async () => {
    const gif = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
    const uploaded = await app.inject({
      method: "POST",
      url: "/api/media",
      headers: { ...admin, "content-type": "image/gif" },
      payload: gif,
    });
    expect(uploaded.statusCode).toBe(201);
    expect(uploaded.headers["cache-control"]).toBe("no-store");
    const image = await app.inject({ method: "GET", url: uploaded.json().url });
    expect(image.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const missing = await app.inject({ method: "GET", url: `/api/media/${"e".repeat(64)}.gif` });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers["cache-control"]).toBe("no-store");
  });

  it("marks the answers that carry tokens, the answer key and student data no-store", async () => {
    const login = await app.inject({
      method: "POST",
      url: "/api/auth/admin/login",
      payload: { username: "cache-admin", password: "admin test password" },
    });
    expect(login.statusCode).toBe(401);
    expect(login.headers["cache-control"]).toBe("no-store");
    const username = `cache${Date.now()}`;
    await adminToken(app, database.db, username);
    const loggedIn = await app.inject({
      method: "POST",
      url: "/api/auth/admin/login",
      payload: { username, password: "admin test password" },
    });
    expect(loggedIn.statusCode).toBe(200);
    expect(loggedIn.headers["cache-control"]).toBe("no-store");
    const registered = await app.inject({ method: "POST", url: "/api/auth/student/register", payload: studentInput() });
    expect(registered.statusCode).toBe(200);
    expect(registered.headers["cache-control"]).toBe("no-store");
    const contact = await app.inject({
      method: "POST",
      url: "/api/contact",
      payload: { name: "Ravi", email: "ravi@example.com", subject: "Hi", phone: "9876543210", message: "" },
    });
    expect(contact.statusCode).toBe(201);
    expect(contact.headers["cache-control"]).toBe("no-store");
    for (const url of ["/api/questions", "/api/questions/export.csv", "/api/students", "/api/students/results/all"]) {
      const response = await app.inject({ method: "GET", url, headers: admin });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["cache-control"], url).toBe("no-store");
    }
  });

  it("marks unknown API paths and refused requests no-store", async () => {
    for (const url of ["/api/no-such-route", "/api", "/api/questions?page=x", "/api/questions/%E0%A4%A", "/api/%"]) {
      const response = await app.inject({ method: "GET", url, headers: admin });
      expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(response.headers["cache-control"], url).toBe("no-store");
    }
  });

  it("leaves the public feedback, the OpenAPI docs and the web pages cacheable", async () => {
    for (const url of ["/api/feedback", "/api/docs/json"]) {
      const response = await app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["cache-control"], url).not.toBe("no-store");
    }
    expect((await app.inject({ method: "GET", url: "/" })).headers["cache-control"]).toBe("public, no-cache");
    expect((await app.inject({ method: "GET", url: "/apiary" })).headers["cache-control"]).toBe("public, no-cache");
  });
});
