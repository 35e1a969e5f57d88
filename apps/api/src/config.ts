// The one place that reads the environment. Every variable of the operating interface is parsed and validated
// here, once, at start; a bad value stops the server with a message that names the variable.
import { isIP } from "node:net";
import path from "node:path";
import { isPlainText } from "@trainwise/contract/common";
import { z } from "zod";

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off"], {
    error: "must be true or false",
  })
  .transform((value) => ["true", "1", "yes", "on"].includes(value));

const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);

/**
 * Which proxies' X-Forwarded-For to believe: the number of proxy hops in front, or their addresses (CIDR allowed).
 * Believing any sender would let a client pick its own address and slip past per-address limits, so there is
 * no "true".
 */
const trustedProxies = z.union(
  [
    z.stringFormat("hops", /^([1-9]|10)$/).transform(Number),
    z
      .string()
      .transform((list) => list.split(",").map((entry) => entry.trim()))
      .refine((entries) => entries.every((entry) => isIP(entry.replace(/\/\d{1,3}$/, "")) !== 0), {
        error: "must list proxy addresses or CIDR ranges",
      })
      .transform((entries) => entries.join(",")),
  ],
  { error: "must be a number of proxy hops (1-10) or a comma-separated list of proxy addresses or CIDR ranges" },
);

const envSchema = z
  .object({
    PORT: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: "must be a port number" })
        .int({ error: "must be a whole number" })
        .min(0, { error: "must be between 0 and 65535" })
        .max(65535, { error: "must be between 0 and 65535" })
        .default(3000),
    ),
    HOST: z.preprocess(emptyAsUndefined, z.string().min(1).default("0.0.0.0")),
    DATABASE_URL: z.preprocess(
      emptyAsUndefined,
      z
        .url({ error: "must be a postgres:// or postgresql:// URL" })
        .refine((url) => /^postgres(ql)?:\/\//.test(url), {
          error: "must be a postgres:// or postgresql:// URL",
        })
        .optional(),
    ),
    DATABASE_POOL_SIZE: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: "must be a whole number from 1 to 100" })
        .int({ error: "must be a whole number from 1 to 100" })
        .min(1, { error: "must be a whole number from 1 to 100" })
        .max(100, { error: "must be a whole number from 1 to 100" })
        .default(10),
    ),
    REGISTRATION_RATE_LIMIT: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: "must be a whole number from 1 to 1000000" })
        .int({ error: "must be a whole number from 1 to 1000000" })
        .min(1, { error: "must be a whole number from 1 to 1000000" })
        .max(1_000_000, { error: "must be a whole number from 1 to 1000000" })
        .default(1000),
    ),
    DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default("./data")),
    ADMIN_USERNAME: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^[A-Za-z0-9._@-]{3,100}$/, {
          error: "must be 3 to 100 letters, digits or . _ @ -",
        })
        .optional(),
    ),
    ADMIN_PASSWORD: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .min(12, { error: "must be at least 12 characters" })
        .max(200)
        // The login form refuses them, so such a password could never be used.
        .refine((password) => isPlainText(password), { error: "must not contain control or invisible characters" })
        .optional(),
    ),
    JWT_SECRET: z.preprocess(
      emptyAsUndefined,
      z.string().min(32, { error: "must be at least 32 characters" }).optional(),
    ),
    JWT_PREVIOUS_SECRET: z.preprocess(
      emptyAsUndefined,
      z.string().min(32, { error: "must be at least 32 characters" }).optional(),
    ),
    SEED_DEMO: z.preprocess(emptyAsUndefined, booleanFlag.optional()),
    TRUST_PROXY: z.preprocess(emptyAsUndefined, trustedProxies.optional()),
    SMTP_URL: z.preprocess(
      emptyAsUndefined,
      z
        .url({ error: "must be an smtp:// or smtps:// URL" })
        .refine((url) => /^smtps?:\/\//.test(url), { error: "must be an smtp:// or smtps:// URL" })
        .optional(),
    ),
    SITE_URL: z.preprocess(
      emptyAsUndefined,
      z
        .url({ error: "must be an absolute http:// or https:// URL" })
        .refine((url) => /^https?:\/\//i.test(url), { error: "must be an absolute http:// or https:// URL" })
        .refine((url) => !/[?#]/.test(url), { error: "must not have a query (?…) or fragment (#…)" })
        .refine((url) => !URL.parse(url)?.username && !URL.parse(url)?.password, {
          error: "must not contain a user name or password",
        })
        .optional(),
    ),
    LOG_LEVEL: z.preprocess(
      emptyAsUndefined,
      z
        .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
          error: "must be one of fatal, error, warn, info, debug, trace, silent",
        })
        .default("info"),
    ),
  })
  .superRefine((env, context) => {
    if (env.ADMIN_PASSWORD && !env.ADMIN_USERNAME) {
      context.addIssue({ code: "custom", path: ["ADMIN_USERNAME"], message: "must be set when ADMIN_PASSWORD is" });
    }
    if (env.ADMIN_USERNAME && !env.ADMIN_PASSWORD) {
      context.addIssue({ code: "custom", path: ["ADMIN_PASSWORD"], message: "must be set when ADMIN_USERNAME is" });
    }
    if (env.JWT_PREVIOUS_SECRET && env.JWT_PREVIOUS_SECRET === env.JWT_SECRET) {
      context.addIssue({ code: "custom", path: ["JWT_PREVIOUS_SECRET"], message: "must differ from JWT_SECRET" });
    }
  });

export interface Config {
  port: number;
  host: string;
  /** External PostgreSQL; when absent the server runs an embedded one in `dataDir`. */
  databaseUrl: string | undefined;
  /** Connections this instance keeps to PostgreSQL. */
  databasePoolSize: number;
  /** Registrations one address may make for one drive in ten minutes. */
  registrationRateLimit: number;
  dataDir: string;
  admin: { username: string; password: string } | undefined;
  jwtSecret: string | undefined;
  /** A rotation's previous key: still verifies tokens, signs none (decision 008). */
  jwtPreviousSecret: string | undefined;
  seedDemo: boolean;
  smtpUrl: string | undefined;
  /**
   * Where the public site lives, without a trailing slash: the absolute links in robots.txt, the sitemap
   * and certificates.
   * Configured rather than taken from the Host header, which any client sets and those responses are cached.
   */
  siteUrl: string;
  /** Proxies whose X-Forwarded-For gives the client's address: hops or addresses; none when undefined. */
  trustProxy: number | string | undefined;
  logLevel: string;
}

export class ConfigError extends Error {}

/** Parses the environment; throws a ConfigError listing each bad variable by name. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "environment");
      const got = env[name];
      const shown = got === undefined || name.includes("PASSWORD") || name.includes("SECRET") ? "" : ` (got "${got}")`;
      return `  ${name} ${issue.message}${shown}`;
    });
    throw new ConfigError(`Invalid configuration:\n${problems.join("\n")}`);
  }
  const values = parsed.data;
  return {
    port: values.PORT,
    host: values.HOST,
    databaseUrl: values.DATABASE_URL,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    registrationRateLimit: values.REGISTRATION_RATE_LIMIT,
    dataDir: path.resolve(values.DATA_DIR),
    admin:
      values.ADMIN_USERNAME && values.ADMIN_PASSWORD
        ? { username: values.ADMIN_USERNAME, password: values.ADMIN_PASSWORD }
        : undefined,
    jwtSecret: values.JWT_SECRET,
    jwtPreviousSecret: values.JWT_PREVIOUS_SECRET,
    // Demo content belongs on a laptop, not in someone's production database.
    seedDemo: values.SEED_DEMO ?? values.DATABASE_URL === undefined,
    smtpUrl: values.SMTP_URL,
    siteUrl: (values.SITE_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ""),
    trustProxy: values.TRUST_PROXY,
    logLevel: values.LOG_LEVEL,
  };
}
