import { describe, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { loadConfig } from "../../config.ts";
import { connectDatabase } from "../../db/client.ts";
import { createTestApp } from "../../test/app.ts";

describe("GET /api/health, /api/health/ready and /api/health/live", async () => {
  const { app } = await createTestApp();

  it("answers 200 when the database answers", async () => {
    const response = await app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok", database: "up" });
  });

  it("answers liveness with 200 and readiness at its own path like /api/health", async () => {
    const live = await app.inject({ method: "GET", url: "/api/health/live" });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: "ok" });
    const ready = await app.inject({ method: "GET", url: "/api/health/ready" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ok", database: "up" });
  });

  it("turns not-ready while draining, stays live, and closes each connection after its response", async () => {
    app.lifecycle.draining = true;
    try {
      for (const url of ["/api/health/ready", "/api/health"]) {
        const response = await app.inject({ method: "GET", url });
        expect(response.statusCode).toBe(503);
        expect(response.json()).toMatchObject({ statusCode: 503, error: "This instance is shutting down." });
        expect(response.headers.connection).toBe("close");
      }
      const live = await app.inject({ method: "GET", url: "/api/health/live" });
      expect(live.statusCode).toBe(200);
      expect(live.headers.connection).toBe("close");
    } finally {
      app.lifecycle.draining = false;
    }
    expect((await app.inject({ method: "GET", url: "/api/health" })).headers.connection).not.toBe("close");
  });

  it("answers an unknown API path with the JSON error format", async () => {
    const response = await app.inject({ method: "GET", url: "/api/no-such-thing" });
    expect(response.statusCode).toBe(404);
    expect(response.headers["content-type"]).toContain("application/json");
    expect(response.json()).toEqual({
      statusCode: 404,
      error: "No API route GET /api/no-such-thing.",
      message: "No API route GET /api/no-such-thing.",
    });
  });

  it("describes the API in OpenAPI with a docs page", async () => {
    const openApi = await app.inject({ method: "GET", url: "/api/docs/json" });
    expect(openApi.statusCode).toBe(200);
    expect(openApi.json().paths).toHaveProperty("/api/health");
    const page = await app.inject({ method: "GET", url: "/api/docs/" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("swagger");
  });
});

describe("without a database", () => {
  it("answers 503 in the JSON error format, on the health check and on routes that need the database", async () => {
    // Port 1 on loopback refuses connections at once: a database that is down.
    const unreachable = connectDatabase("postgres://nobody@127.0.0.1:1/none", { max: 1 });
    const app = await buildApp({
      config: loadConfig({ JWT_SECRET: "a-test-signing-key-of-at-least-32-chars" }),
      db: unreachable.db,
      logger: false,
    });
    const response = await app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ statusCode: 503, error: "The database is not reachable." });
    expect((await app.inject({ method: "GET", url: "/api/health/live" })).statusCode).toBe(200);
    // Any other route that needs the database says so in a way a client can act on: try again shortly.
    const enquiry = await app.inject({
      method: "POST",
      url: "/api/contact",
      payload: { name: "Ravi", email: "ravi@example.com", subject: "Hello", phone: "9876543210", message: "Hi" },
    });
    expect(enquiry.statusCode).toBe(503);
    expect(enquiry.headers["retry-after"]).toBe("5");
    expect(enquiry.json()).toMatchObject({
      error: "The service is briefly unavailable. Please try again in a moment.",
    });
    await app.close();
    await unreachable.close();
  });
});
