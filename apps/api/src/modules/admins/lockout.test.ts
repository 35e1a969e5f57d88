// An attacker cannot lock an admin out: over real sockets, one client bound to 127.0.0.2 guesses the admin's
// password while the admin signs in from 127.0.0.1, both against a listening server.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { createAdmin } from "./repository.ts";

const { app, database } = await createTestApp();
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
const port = typeof address === "object" && address ? address.port : 0;
await createAdmin(database.db, "principal", "the principal password");

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: { error?: string; token?: string };
}

/** POST /api/auth/admin/login from the given local address, on a fresh connection. */
function loginFrom(localAddress: string, password: string): Promise<Answer> {
  const payload = JSON.stringify({ username: "principal", password });
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        localAddress,
        method: "POST",
        path: "/api/auth/admin/login",
        agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: response.headers["retry-after"],
            body: JSON.parse(text),
          }),
        );
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

describe("admin lockout over real sockets", () => {
  it("an attacker on 127.0.0.2 cannot lock out the admin on 127.0.0.1, and good logins do not count", async () => {
    const attacker: number[] = [];
    for (let guess = 0; guess < 12; guess++) attacker.push((await loginFrom("127.0.0.2", `guess ${guess}`)).status);
    expect(attacker).toEqual([401, 401, 401, 401, 401, ...Array(7).fill(429)]);
    const refused = await loginFrom("127.0.0.2", "the principal password");
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);

    const admin: Answer[] = [];
    for (let login = 0; login < 12; login++) admin.push(await loginFrom("127.0.0.1", "the principal password"));
    expect(admin.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    expect(admin.every((answer) => typeof answer.body.token === "string")).toBe(true);
  });
});
