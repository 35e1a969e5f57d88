import { createSigner } from "fast-jwt";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, registerStudent } from "../../test/fixtures.ts";
import { createAdmin } from "./repository.ts";

const ADMIN_ROUTES = [
  { method: "GET", url: "/api/questions" },
  { method: "GET", url: "/api/questions/categories" },
  { method: "PUT", url: "/api/questions/00000000-0000-4000-8000-000000000000" },
  { method: "GET", url: "/api/questions/export.csv" },
  { method: "GET", url: "/api/questions/template.csv" },
  { method: "POST", url: "/api/questions/import" },
  { method: "GET", url: "/api/students/export.csv" },
  { method: "PUT", url: "/api/students/00000000-0000-4000-8000-000000000000/time-multiplier" },
  { method: "POST", url: "/api/students/00000000-0000-4000-8000-000000000000/extra-attempt" },
  { method: "GET", url: "/api/students/results/summary" },
  { method: "GET", url: "/api/students/results/export.csv" },
  { method: "GET", url: "/api/students/results/00000000-0000-4000-8000-000000000000" },
  { method: "GET", url: "/api/feedback/all" },
  { method: "PATCH", url: "/api/feedback/00000000-0000-4000-8000-000000000000" },
  { method: "DELETE", url: "/api/feedback/00000000-0000-4000-8000-000000000000" },
  { method: "POST", url: "/api/questions" },
  { method: "DELETE", url: "/api/questions/00000000-0000-4000-8000-000000000000" },
  { method: "GET", url: "/api/students" },
  { method: "GET", url: "/api/students/results/all" },
  { method: "POST", url: "/api/feedback" },
  { method: "GET", url: "/api/contact" },
  { method: "POST", url: "/api/auth/admin/logout" },
  { method: "POST", url: "/api/auth/admin/password" },
] as const;

describe("admin accounts", async () => {
  const { app, database, config } = await createTestApp();
  await createAdmin(database.db, "principal", "the right password");
  const login = (username: string, password: string, remoteAddress = "10.1.1.1") =>
    app.inject({ method: "POST", url: "/api/auth/admin/login", payload: { username, password }, remoteAddress });

  it("logs in with the right password and the token opens admin routes", async () => {
    const response = await login("Principal", "the right password");
    expect(response.statusCode).toBe(200);
    const { token } = response.json();
    expect((await app.inject({ method: "GET", url: "/api/questions", headers: bearer(token) })).statusCode).toBe(200);
  });

  it("answers an unknown user and a wrong password the same way", async () => {
    const unknown = await login("nobody", "the right password", "10.1.1.2");
    const wrong = await login("principal", "a wrong password", "10.1.1.3");
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json().error).toBe("Invalid username or password.");
  });

  it("slows down wrong passwords from one address with Retry-After, never the same admin elsewhere", async () => {
    await createAdmin(database.db, "target", "the target password");
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++)
      statuses.push((await login("target", "guess", "10.2.0.1")).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const limited = await login("TARGET", "the target password", "10.2.0.1");
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBe("30");
    expect(limited.json().error).toBe("Too many wrong passwords from this address. Try again in 30 seconds.");
    expect((await login("target", "the target password", "10.2.0.2")).statusCode).toBe(200);
  });

  it("does not count successful logins: a right password never uses up a budget", async () => {
    await createAdmin(database.db, "frequent", "the frequent password");
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 40; attempt++)
      statuses.push((await login("frequent", "the frequent password", "10.5.0.1")).statusCode);
    expect(statuses).toEqual(Array(40).fill(200));
  });

  it("forgets the failures of an address once the right password comes from it", async () => {
    await createAdmin(database.db, "typist", "the typist password");
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (let attempt = 0; attempt < 4; attempt++)
        statuses.push((await login("typist", "a typo", "10.5.0.2")).statusCode);
      statuses.push((await login("typist", "the typist password", "10.5.0.2")).statusCode);
    }
    expect(statuses.filter((status) => status === 429)).toEqual([]);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
  });

  it("lets an admin sign in from a browser they used before, however much junk others typed at the same address", async () => {
    // A campus lab behind one address. The admin signed in from this browser before: it keeps a device cookie.
    await createAdmin(database.db, "lab-admin", "the lab admin password");
    const first = await login("lab-admin", "the lab admin password", "10.3.0.1");
    expect(first.statusCode).toBe(200);
    const cookie = String(first.headers["set-cookie"]).split(";")[0] ?? "";
    expect(first.headers["set-cookie"]).toMatch(
      /^trainwise_admin_device=[^;]+; Path=\/api\/auth\/admin; Max-Age=2592000; HttpOnly; SameSite=Strict$/,
    );
    // Someone types junk for other usernames: 30 failures, then the address's passwords are not checked for a while.
    const junk: number[] = [];
    for (let attempt = 0; attempt < 35; attempt++)
      junk.push((await login(`user${attempt}`, "guess", "10.3.0.1")).statusCode);
    expect(junk.filter((status) => status === 401)).toHaveLength(30);
    expect(junk.slice(30)).toEqual(Array(5).fill(429));
    // A browser without the cookie is refused like the junk; the admin's own browser is not.
    expect((await login("lab-admin", "the lab admin password", "10.3.0.1")).statusCode).toBe(429);
    const withDevice = (password: string) =>
      app.inject({
        method: "POST",
        url: "/api/auth/admin/login",
        payload: { username: "lab-admin", password },
        remoteAddress: "10.3.0.1",
        headers: { cookie },
      });
    expect((await withDevice("the lab admin password")).statusCode).toBe(200);
    // The cookie names its admin: it opens nothing for another username, and a stolen one is held to five failures.
    const otherUser = await app.inject({
      method: "POST",
      url: "/api/auth/admin/login",
      payload: { username: "principal", password: "the right password" },
      remoteAddress: "10.3.0.1",
      headers: { cookie },
    });
    expect(otherUser.statusCode).toBe(429);
    const guesses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) guesses.push((await withDevice(`guess ${attempt}`)).statusCode);
    expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("hashes nothing more for an address past its failures, and answers every username the same", async () => {
    for (let attempt = 0; attempt < 30; attempt++) await login(`spray${attempt}`, "guess", "10.3.1.1");
    const started = process.cpuUsage();
    const refused: Awaited<ReturnType<typeof login>>[] = [];
    for (let attempt = 0; attempt < 20; attempt++) {
      refused.push(await login(attempt % 2 ? `fresh${attempt}` : "principal", "guess", "10.3.1.1"));
    }
    const cpu = process.cpuUsage(started);
    expect(refused.map((response) => response.statusCode)).toEqual(Array(20).fill(429));
    expect(new Set(refused.map((response) => response.body)).size).toBe(1);
    // Twenty argon2id verifications take about a second of CPU (the hashing runs on libuv's threads, so the
    // process's CPU is measured, not this thread's); refused before hashing, they take a small part of it.
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(400);
  });

  it("checks at most three passwords from one address at once", async () => {
    await createAdmin(database.db, "parallel", "the parallel password");
    const statuses = (
      await Promise.all(Array.from({ length: 10 }, () => login("parallel", "a guess", "10.3.2.1")))
    ).map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(3);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(7);
    expect((await login("parallel", "the parallel password", "10.3.2.1")).statusCode).toBe(200);
  });

  it("logs out by revoking the token on the server", async () => {
    const token = await adminToken(app, database.db);
    const logout = await app.inject({ method: "POST", url: "/api/auth/admin/logout", headers: bearer(token) });
    expect(logout.statusCode).toBe(200);
    const after = await app.inject({ method: "GET", url: "/api/questions", headers: bearer(token) });
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe("Your session has expired or is not valid. Please log in again.");
  });

  it("changes the own password, which ends the other sessions", async () => {
    await createAdmin(database.db, "changer", "the first password");
    const other = (await login("changer", "the first password", "10.4.0.1")).json().token;
    const mine = (await login("changer", "the first password", "10.4.0.2")).json().token;
    const wrong = await app.inject({
      method: "POST",
      url: "/api/auth/admin/password",
      headers: bearer(mine),
      payload: { currentPassword: "not it", newPassword: "the second password" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ currentPassword: "The current password is not correct." });
    const short = await app.inject({
      method: "POST",
      url: "/api/auth/admin/password",
      headers: bearer(mine),
      payload: { currentPassword: "the first password", newPassword: "short" },
    });
    expect(short.json().fields).toEqual({ newPassword: "New password must be at least 12 characters" });

    await new Promise((resolve) => setTimeout(resolve, 1100));
    const changed = await app.inject({
      method: "POST",
      url: "/api/auth/admin/password",
      headers: bearer(mine),
      payload: { currentPassword: "the first password", newPassword: "the second password" },
    });
    expect(changed.statusCode).toBe(200);
    const fresh = changed.json().token;
    expect((await app.inject({ method: "GET", url: "/api/students", headers: bearer(other) })).statusCode).toBe(401);
    expect((await app.inject({ method: "GET", url: "/api/students", headers: bearer(fresh) })).statusCode).toBe(200);
    expect((await login("changer", "the first password", "10.4.0.3")).statusCode).toBe(401);
    expect((await login("changer", "the second password", "10.4.0.4")).statusCode).toBe(200);
  });

  it("limits wrong current passwords like login, per admin and address, on the same counters", async () => {
    await createAdmin(database.db, "guarded", "the guarded password");
    const token = (await login("guarded", "the guarded password", "10.6.0.1")).json().token;
    const change = (currentPassword: string, remoteAddress: string) =>
      app.inject({
        method: "POST",
        url: "/api/auth/admin/password",
        headers: bearer(token),
        payload: { currentPassword, newPassword: "the next guarded password" },
        remoteAddress,
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) statuses.push((await change("a guess", "10.6.0.1")).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    const limited = await change("the guarded password", "10.6.0.1");
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBe("30");
    expect(limited.json().error).toBe("Too many wrong passwords from this address. Try again in 30 seconds.");
    expect((await login("guarded", "the guarded password", "10.6.0.1")).statusCode).toBe(429);
    expect((await change("the guarded password", "10.6.0.2")).statusCode).toBe(200);
  });

  describe("every admin route", async () => {
    const { token: studentToken } = await registerStudent(app);
    const adminId = (await database.pool.query("select id from admins limit 1")).rows[0].id as string;
    const realKey = Buffer.from(config.jwtSecret ?? "");
    const claims = { role: "admin", sub: adminId, jti: "crafted-token" };
    const expired = createSigner({
      key: realKey,
      algorithm: "HS256",
      iss: "trainwise",
      expiresIn: 3_600_000,
      clockTimestamp: Date.now() - 7_200_000,
    })(claims);
    const forged = createSigner({
      key: "another-key-that-is-long-enough-for-hs256",
      algorithm: "HS256",
      iss: "trainwise",
      expiresIn: 3_600_000,
    })(claims);
    const unsigned = createSigner({ algorithm: "none", iss: "trainwise", expiresIn: 3_600_000 })(claims);

    it.each(ADMIN_ROUTES)(
      "$method $url refuses no token, a student, an expired, forged or unsigned token",
      async (route) => {
        const call = (headers: Record<string, string>) =>
          app.inject({ method: route.method, url: route.url, headers, payload: {} });
        expect((await call({})).statusCode).toBe(401);
        expect((await call(bearer(studentToken))).statusCode).toBe(403);
        expect((await call(bearer(expired))).statusCode).toBe(401);
        expect((await call(bearer(forged))).statusCode).toBe(401);
        expect((await call(bearer(unsigned))).statusCode).toBe(401);
        expect((await call({ authorization: "Basic YWRtaW46YWRtaW4=" })).statusCode).toBe(401);
      },
    );
  });
});

describe("admin login behind a proxy", async () => {
  const { app, database } = await createTestApp({ trustProxy: "10.9.9.9" });
  await createAdmin(database.db, "principal", "the right password");
  const login = (password: string, remoteAddress: string, forwardedFor: string) =>
    app.inject({
      method: "POST",
      url: "/api/auth/admin/login",
      payload: { username: "principal", password },
      remoteAddress,
      headers: { "x-forwarded-for": forwardedFor },
    });

  it("counts each client by the address the trusted proxy forwards, so one cannot lock out another", async () => {
    const statuses: number[] = [];
    for (let guess = 0; guess < 6; guess++) statuses.push((await login("guess", "10.9.9.9", "203.0.113.7")).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await login("the right password", "10.9.9.9", "198.51.100.4")).statusCode).toBe(200);
  });

  it("ignores X-Forwarded-For from anyone else, so a client cannot pick a fresh address for each guess", async () => {
    const statuses: number[] = [];
    for (let guess = 0; guess < 6; guess++)
      statuses.push((await login("guess", "10.7.7.7", `192.0.2.${guess + 1}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});
