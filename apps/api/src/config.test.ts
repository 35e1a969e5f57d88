import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("uses the documented defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: "0.0.0.0",
      databaseUrl: undefined,
      databasePoolSize: 10,
      dataDir: path.resolve("./data"),
      admin: undefined,
      jwtSecret: undefined,
      seedDemo: true,
      smtpUrl: undefined,
      siteUrl: "http://localhost:3000",
    });
  });

  it("takes SITE_URL without its trailing slash, and defaults it to this port on localhost", () => {
    expect(loadConfig({ SITE_URL: "https://www.trainwise.example/" }).siteUrl).toBe("https://www.trainwise.example");
    expect(loadConfig({ SITE_URL: "http://campus.example/trainwise" }).siteUrl).toBe("http://campus.example/trainwise");
    expect(loadConfig({ PORT: "8080" }).siteUrl).toBe("http://localhost:8080");
  });

  it("turns demo content off by default with an external database", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://u@db.internal:5432/app" }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: "postgres://u@db.internal:5432/app", SEED_DEMO: "true" }).seedDemo).toBe(true);
  });

  it.each([
    [{ PORT: "eighty" }, "PORT must be a port number"],
    [{ PORT: "70000" }, "PORT must be between 0 and 65535"],
    [{ DATABASE_URL: "mysql://localhost/app" }, "DATABASE_URL must be a postgres:// or postgresql:// URL"],
    [{ DATABASE_POOL_SIZE: "0" }, "DATABASE_POOL_SIZE must be a whole number from 1 to 100"],
    [{ DATABASE_POOL_SIZE: "lots" }, "DATABASE_POOL_SIZE must be a whole number from 1 to 100"],
    [{ SEED_DEMO: "maybe" }, "SEED_DEMO must be true or false"],
    [{ JWT_SECRET: "short" }, "JWT_SECRET must be at least 32 characters"],
    [{ ADMIN_USERNAME: "boss", ADMIN_PASSWORD: "tooshort" }, "ADMIN_PASSWORD must be at least 12 characters"],
    [{ ADMIN_PASSWORD: "a-long-enough-password" }, "ADMIN_USERNAME must be set when ADMIN_PASSWORD is"],
    [{ ADMIN_USERNAME: "boss", ADMIN_PASSWORD: "a long\tenough password" }, "ADMIN_PASSWORD must not contain control"],
    [{ SMTP_URL: "http://mail" }, "SMTP_URL must be an smtp:// or smtps:// URL"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL must be one of"],
    [{ SITE_URL: "www.trainwise.example" }, "SITE_URL must be an absolute http:// or https:// URL"],
    [{ SITE_URL: "/relative" }, "SITE_URL must be an absolute http:// or https:// URL"],
    [{ SITE_URL: "ftp://trainwise.example" }, "SITE_URL must be an absolute http:// or https:// URL"],
    [{ SITE_URL: "javascript:alert(1)" }, "SITE_URL must be an absolute http:// or https:// URL"],
    [{ SITE_URL: "https://trainwise.example/?a=1" }, "SITE_URL must not have a query (?…) or fragment (#…)"],
    [{ SITE_URL: "https://trainwise.example/#top" }, "SITE_URL must not have a query (?…) or fragment (#…)"],
    [{ SITE_URL: "https://user:pw@trainwise.example" }, "SITE_URL must not contain a user name or password"],
  ])("refuses %o naming the variable", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("never echoes a secret value in its message", () => {
    expect(() => loadConfig({ JWT_SECRET: "hunter2" })).toThrow(/^(?![\s\S]*hunter2)/);
  });

  it("takes the first admin from the environment", () => {
    expect(loadConfig({ ADMIN_USERNAME: "boss", ADMIN_PASSWORD: "correct horse battery" }).admin).toEqual({
      username: "boss",
      password: "correct horse battery",
    });
  });

  it("takes the proxies to believe X-Forwarded-For from, as hops or addresses, never everyone", () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 127.0.0.1" }).trustProxy).toBe("10.0.0.0/8,127.0.0.1");
    for (const value of ["true", "0", "lb.internal"])
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow("TRUST_PROXY must be a number of proxy hops (1-10)");
  });

  it("takes a rotation's previous signing key, which must be long and differ from the current one", () => {
    const current = "the current signing key, 32+ characters";
    const previous = "the previous signing key, 32+ characters";
    expect(loadConfig({ JWT_SECRET: current, JWT_PREVIOUS_SECRET: previous }).jwtPreviousSecret).toBe(previous);
    expect(() => loadConfig({ JWT_PREVIOUS_SECRET: "short" })).toThrow("JWT_PREVIOUS_SECRET must be at least 32");
    expect(() => loadConfig({ JWT_SECRET: current, JWT_PREVIOUS_SECRET: current })).toThrow(
      /JWT_PREVIOUS_SECRET must differ from JWT_SECRET$/,
    );
  });
});
