import { describe, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { loadConfig } from "../../config.ts";
import { connectDatabase } from "../../db/client.ts";
import { createTestApp } from "../../test/app.ts";

describe("GET /api/health", async () => {
  const { app } = await createTestApp();

  it("answers 200 when the database answers", async () => {
    const response = await app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok", database: "up" });
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
    const spec = await app.inject({ method: "GET", url: "/api/docs/json" });
    expect(spec.statusCode).toBe(200);
    expect(spec.json().paths).toHaveProperty("/api/health");
    const page = await app.inject({ method: "GET", url: "/api/docs/" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("swagger");
  });
});

describe("GET /api/health without a database", () => {
  it("answers 503 in the JSON error format", async () => {
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
    await app.close();
    await unreachable.close();
  });
});
