// Security headers on every kind of response, and error bodies that give nothing away.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { connectDatabase } from "../db/client.ts";
import { createTestApp } from "../test/app.ts";
import { createTestDatabase } from "../test/database.ts";
import { watchedLog } from "../test/log-watch.ts";

const webClientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../web/build/client");

describe("security headers", async () => {
  const { app } = await createTestApp({ logStream: watchedLog(), webClientDir });

  it.each(["/", "/quiz", "/no/such/page", "/api/health", "/api/no-such-route", "/robots.txt"])(
    "%s has a strict policy, nosniff, a referrer policy, HSTS and no framing",
    async (url) => {
      const response = await app.inject({ method: "GET", url });
      const policy = String(response.headers["content-security-policy"]);
      const scripts = policy.split("; ").find((directive) => directive.startsWith("script-src")) ?? "";
      expect(scripts).not.toContain("unsafe-inline");
      expect(scripts).not.toContain("unsafe-eval");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("object-src 'none'");
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["x-frame-options"]).toBe("DENY");
      expect(response.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(response.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
      expect(response.headers["x-powered-by"]).toBeUndefined();
    },
  );

  it("marks the quiz's answers no-store so no browser or proxy cache keeps them", async () => {
    const response = await app.inject({
      method: "GET",
      url: "/api/quiz/attempt",
      headers: { authorization: "Bearer x" },
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers["cache-control"]).toBe("no-store");
  });
});

describe("errors", () => {
  it("answers a failure inside a route with a generic 500 and no stack trace", async () => {
    // A database without the product's tables: every query fails with an error that is nobody's input.
    const tableless = await createTestDatabase({ empty: true });
    const app = await buildApp({
      config: loadConfig({ JWT_SECRET: "a-test-signing-key-of-at-least-32-chars" }),
      db: tableless.db,
      logger: false,
    });
    const response = await app.inject({ method: "GET", url: "/api/feedback" });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      statusCode: 500,
      error: "Something went wrong on our side. Please try again.",
      message: "Something went wrong on our side. Please try again.",
    });
    expect(response.body).not.toMatch(/relation|feedback"|node_modules|\.ts:\d+/);
    await app.close();
  });

  it("answers a database that cannot be reached with 503 and Retry-After, and no detail", async () => {
    const unreachable = connectDatabase("postgres://nobody@127.0.0.1:1/none", { max: 1 });
    const app = await buildApp({
      config: loadConfig({ JWT_SECRET: "a-test-signing-key-of-at-least-32-chars" }),
      db: unreachable.db,
      logger: false,
    });
    const response = await app.inject({ method: "GET", url: "/api/feedback" });
    expect(response.statusCode).toBe(503);
    expect(response.headers["retry-after"]).toBe("5");
    expect(response.json()).toEqual({
      statusCode: 503,
      error: "The service is briefly unavailable. Please try again in a moment.",
      message: "The service is briefly unavailable. Please try again in a moment.",
    });
    expect(response.body).not.toMatch(/ECONNREFUSED|node_modules|\.ts:\d+/);
    await app.close();
    await unreachable.close();
  });

  it("answers malformed JSON, a wrong content type and an oversized body with clear 4xx", async () => {
    const { app } = await createTestApp({ logStream: watchedLog() });
    const broken = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      headers: { "content-type": "application/json" },
      payload: '{"name": ',
    });
    expect(broken.statusCode).toBe(400);
    const notJson =
      "The request body is not valid JSON, or holds a key the server does not read (__proto__, constructor).";
    expect(broken.json().error).toBe(notJson);
    // Valid JSON the parser will not read, a missing body, and bodies that are not one object: each said plainly,
    // never in the schema's words ("Invalid input: expected object, received null").
    for (const [payload, type, message] of [
      ['{"name":"Asha","__proto__":{"admin":true}}', "application/json", notJson],
      ['{"constructor":{"prototype":{"admin":true}}}', "application/json", notJson],
      ["", undefined, "The request body is empty; send a JSON object."],
      ["null", "application/json", "The request body is empty; send a JSON object."],
      ["Asha", "text/plain", "Send the request body as one JSON object, as application/json."],
      ['[{"name":"Asha"}]', "application/json", "Send the request body as one JSON object, as application/json."],
    ] as const) {
      const refused = await app.inject({
        method: "POST",
        url: "/api/auth/student/register",
        headers: type ? { "content-type": type } : {},
        payload,
      });
      expect(refused.statusCode, payload).toBe(400);
      expect(refused.json().message, payload).toBe(message);
    }
    const xml = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      headers: { "content-type": "application/xml" },
      payload: "<a/>",
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().error).toBe("Send the request body as application/json.");
    const huge = await app.inject({
      method: "POST",
      url: "/api/contact",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ message: "x".repeat(300_000) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toBe("The request body is too large.");
  });
});
