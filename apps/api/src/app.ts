// Builds the Fastify app (no listening): infrastructure plugins first, then the feature routes under /api, then
// the web app. Tests call buildApp() and app.inject(); server.ts starts it for real.

import rateLimit, { type RateLimitOptions } from "@fastify/rate-limit";
import type { EndpointName } from "@trainwise/contract/endpoints";
import Fastify, { type FastifyInstance, type FastifySchema } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { PasswordGuessLimiter } from "./auth/password-guess-limiter.ts";
import { resolveSigningKeys } from "./auth/signing-key.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import { type CounterStore, rateLimitStoreOn, SharedCounterStore } from "./limits/counters.ts";
import { rememberCounted } from "./limits/per-registration.ts";
import { adminAccountRoutes, adminSessionRoutes } from "./modules/admins/routes.ts";
import analysisRoutes from "./modules/analysis/routes.ts";
import auditRoutes from "./modules/audit/routes.ts";
import auditTrail from "./modules/audit/trail.ts";
import certificateRoutes from "./modules/certificates/routes.ts";
import contactRoutes from "./modules/contact/routes.ts";
import dashboardRoutes from "./modules/dashboard/routes.ts";
import downloadRoutes from "./modules/downloads/routes.ts";
import { LiveBoards } from "./modules/drives/live-board.ts";
import driveRoutes from "./modules/drives/routes.ts";
import feedbackRoutes from "./modules/feedback/routes.ts";
import healthRoutes from "./modules/health/routes.ts";
import mediaRoutes from "./modules/media/routes.ts";
import questionRoutes from "./modules/questions/routes.ts";
import { CandidateNotices } from "./modules/quiz/notices.ts";
import quizRoutes from "./modules/quiz/routes.ts";
import resultRoutes from "./modules/results/routes.ts";
import { studentAdminRoutes, studentRegistrationRoutes } from "./modules/students/routes.ts";
import testRoutes from "./modules/tests/routes.ts";
import auth from "./plugins/auth.ts";
import docs from "./plugins/docs.ts";
import errors, { answerClientError, answerFrameworkError } from "./plugins/errors.ts";
import { loggerOptions } from "./plugins/logging.ts";
import security from "./plugins/security.ts";
import web from "./plugins/web.ts";
import { parseQueryString } from "./query-string.ts";

declare module "fastify" {
  interface FastifyInstance {
    db: Database;
    config: Config;
    /**
     * Every API route as registered, with its schemas: the security suites check each one against its access
     * rule and fuzz every field and query parameter its schemas declare.
     */
    apiRoutes: ApiRoute[];
    /** Limits on guessing admin passwords, shared by login and the password change. */
    passwordGuesses: PasswordGuessLimiter;
    /** The counters every limit keeps in PostgreSQL, shared by the instances (limits/counters.ts). */
    counters: CounterStore;
    /**
     * Where the instance is in its life: `draining` from the stop signal on (server.ts). `onDrain` runs when the
     * drain starts: long-lived responses (the live board's streams) end then, so the drain is not left waiting
     * for connections that would never go idle.
     */
    lifecycle: { draining: boolean; onDrain: Set<() => void> };
    /** The drives whose live board this instance reads for the admins watching here (decision 017). */
    liveBoards: LiveBoards;
    candidateNotices: CandidateNotices;
  }
}

export interface ApiRoute {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
  /** The contract's name of the endpoint the route serves (http/serve-endpoint.ts). */
  endpoint: EndpointName | undefined;
  /** The route's own request limit, if it has one: the cost suite lets only a limited route cost more. */
  rateLimit: RateLimitOptions | undefined;
}

/**
 * How long the server waits for a client, in milliseconds. A client that sends its request a byte at a time
 * would otherwise hold a connection (and the memory behind it) for as long as it likes; these bound it while
 * leaving a student on a slow phone network ample time for a small form or an answer.
 */
export interface ServerTimeouts {
  /** The whole request, headers and body, must arrive within this. */
  request: number;
  /** The headers must arrive within this (a slowloris client never finishes them). */
  headers: number;
  /**
   * An idle connection between requests stays open this long. Longer than nginx's default upstream keep-alive
   * (60 s), so a proxy in front closes idle connections first and never reuses one the app is closing.
   */
  keepAlive: number;
  /** A connection on which nothing moves either way (a client that stopped reading a response) is closed. */
  connection: number;
  /** How often Node looks for requests past `request` or `headers`; a cut-off comes up to this much late. */
  checkInterval: number;
}

export const SERVER_TIMEOUTS: ServerTimeouts = {
  request: 30_000,
  headers: 15_000,
  keepAlive: 65_000,
  connection: 75_000,
  checkInterval: 2_000,
};

/** TRUST_PROXY for Fastify: a number is that many hops in front of the app. */
function trustedProxies(setting: Config["trustProxy"]) {
  if (setting === undefined) return false;
  if (typeof setting === "string") return setting;
  return (_address: string, hop: number) => hop < setting;
}

export interface AppOptions {
  config: Config;
  db: Database;
  /** The web build's client folder; leave out to serve the API alone (API tests). */
  webClientDir?: string;
  logger?: boolean;
  /** Where the log goes instead of standard output (a test reads it). */
  logStream?: NodeJS.WritableStream;
  /** Shorter timeouts let a test watch the real cut-off in seconds. */
  timeouts?: Partial<ServerTimeouts>;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const timeouts = { ...SERVER_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    requestTimeout: timeouts.request,
    connectionTimeout: timeouts.connection,
    keepAliveTimeout: timeouts.keepAlive,
    http: { headersTimeout: timeouts.headers, connectionsCheckingInterval: timeouts.checkInterval },
    clientErrorHandler: answerClientError,
    // Behind a load balancer every request comes from its address; the limits on password guessing and forms
    // need the client's own, from X-Forwarded-For, believed only from the proxies named in TRUST_PROXY.
    trustProxy: trustedProxies(options.config.trustProxy),
    logger: options.logger === false ? false : loggerOptions(options.config.logLevel, options.logStream),
    // Request bodies of this product are small forms and answer lists; larger bodies are refused with 413.
    bodyLimit: 256 * 1024,
    routerOptions: { maxParamLength: 200, querystringParser: parseQueryString },
    frameworkErrors: answerFrameworkError,
    // A request that reaches a closing instance on a connection it already had is served, not refused with 503:
    // nginx would not retry a refused POST elsewhere, and the database is still open until the app has closed.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate("db", options.db);
  app.decorate("config", options.config);
  app.decorate("lifecycle", { draining: false, onDrain: new Set<() => void>() });
  // While the instance drains, each connection closes after its response, so a proxy in front stops reusing it
  // at a moment of the proxy's choosing rather than when the server closes it under a request (drain.ts).
  app.addHook("onSend", async (_request, reply) => {
    if (app.lifecycle.draining) reply.header("connection", "close");
  });
  const liveBoards = new LiveBoards(options.db);
  liveBoards.onError = (error) => app.log.warn({ err: error }, "reading a live board failed");
  app.decorate("liveBoards", liveBoards);
  app.lifecycle.onDrain.add(() => liveBoards.stop());
  const candidateNotices = new CandidateNotices(options.db);
  candidateNotices.onError = (error) => app.log.warn({ err: error }, "reading a drive's notices failed");
  app.decorate("candidateNotices", candidateNotices);
  app.lifecycle.onDrain.add(() => candidateNotices.stop());
  // Open streams would keep app.close() waiting for their connections: they end first.
  app.addHook("preClose", async () => {
    liveBoards.stop();
    candidateNotices.stop();
  });
  const apiRoutes: ApiRoute[] = [];
  app.decorate("apiRoutes", apiRoutes);
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api/") || route.url.startsWith("/api/docs")) return;
    for (const method of [route.method].flat()) {
      if (method !== "HEAD") {
        apiRoutes.push({
          method,
          url: route.url,
          schema: route.schema,
          endpoint: route.config?.endpoint,
          rateLimit: route.config?.rateLimit || undefined,
        });
      }
    }
  });

  await app.register(errors);
  await app.register(security);
  await app.register(docs);
  // Limits are set per route (registration, contact form, certificate checks); admin passwords have their own
  // limiter (auth/password-guess-limiter.ts). Both count in PostgreSQL, so all instances count together.
  const counters = new SharedCounterStore(options.db);
  // A request that proves whom it is for is taken back from its route's count (limits/per-registration.ts).
  await app.register(rateLimit, { global: false, store: rateLimitStoreOn(counters), onExceeding: rememberCounted });
  app.decorate("counters", counters);
  app.decorate("passwordGuesses", new PasswordGuessLimiter(counters));
  const { jwtSecret, jwtPreviousSecret, dataDir } = options.config;
  const signingKeys = await resolveSigningKeys(options.db, {
    secret: jwtSecret,
    previousSecret: jwtPreviousSecret,
    dataDir,
  });
  await app.register(auth, { signingKeys });
  await app.register(auditTrail);

  // Each module serves its endpoints at the paths the contract's table gives them (http/serve-endpoint.ts).
  await app.register(
    async (api) => {
      for (const routes of [
        healthRoutes,
        adminSessionRoutes,
        adminAccountRoutes,
        auditRoutes,
        studentRegistrationRoutes,
        questionRoutes,
        studentAdminRoutes,
        resultRoutes,
        quizRoutes,
        testRoutes,
        driveRoutes,
        certificateRoutes,
        feedbackRoutes,
        contactRoutes,
        dashboardRoutes,
        analysisRoutes,
        mediaRoutes,
        downloadRoutes,
      ]) {
        await api.register(routes);
      }
    },
    { prefix: "/api" },
  );

  if (options.webClientDir) await app.register(web, { clientDir: options.webClientDir });
  return app;
}
