// Builds the Fastify app (no listening): infrastructure plugins first, then the feature routes under /api, then
// the web app. Tests call buildApp() and app.inject(); server.ts starts it for real.

import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance, type FastifySchema } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { resolveSigningKey } from "./auth/signing-key.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import adminRoutes from "./modules/admins/routes.ts";
import contactRoutes from "./modules/contact/routes.ts";
import feedbackRoutes from "./modules/feedback/routes.ts";
import healthRoutes from "./modules/health/routes.ts";
import questionRoutes from "./modules/questions/routes.ts";
import quizRoutes from "./modules/quiz/routes.ts";
import { studentAdminRoutes, studentRegistrationRoutes } from "./modules/students/routes.ts";
import auth from "./plugins/auth.ts";
import docs from "./plugins/docs.ts";
import errors, { answerFrameworkError } from "./plugins/errors.ts";
import security from "./plugins/security.ts";
import web from "./plugins/web.ts";

declare module "fastify" {
  interface FastifyInstance {
    db: Database;
    config: Config;
    /**
     * Every API route as registered, with its schemas: the security suites check each one against its access
     * rule and fuzz every field and query parameter its schemas declare.
     */
    apiRoutes: ApiRoute[];
  }
}

export interface ApiRoute {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
}

export interface AppOptions {
  config: Config;
  db: Database;
  /** The web build's client folder; leave out to serve the API alone (API tests). */
  webClientDir?: string;
  logger?: boolean;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === false ? false : { level: options.config.logLevel },
    // Request bodies of this product are small forms and answer lists; larger bodies are refused with 413.
    bodyLimit: 256 * 1024,
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate("db", options.db);
  app.decorate("config", options.config);
  const apiRoutes: ApiRoute[] = [];
  app.decorate("apiRoutes", apiRoutes);
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api/") || route.url.startsWith("/api/docs")) return;
    for (const method of [route.method].flat()) {
      if (method !== "HEAD") apiRoutes.push({ method, url: route.url, schema: route.schema });
    }
  });

  await app.register(errors);
  await app.register(security);
  await app.register(docs);
  // Limits are set per route (login, registration, contact form); counters are kept per instance.
  await app.register(rateLimit, { global: false });
  await app.register(auth, { signingKey: await resolveSigningKey(options.db, options.config.jwtSecret) });

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(adminRoutes, { prefix: "/auth/admin" });
      await api.register(studentRegistrationRoutes, { prefix: "/auth/student" });
      await api.register(questionRoutes, { prefix: "/questions" });
      await api.register(studentAdminRoutes, { prefix: "/students" });
      await api.register(quizRoutes, { prefix: "/quiz" });
      await api.register(feedbackRoutes, { prefix: "/feedback" });
      await api.register(contactRoutes, { prefix: "/contact" });
    },
    { prefix: "/api" },
  );

  if (options.webClientDir) await app.register(web, { clientDir: options.webClientDir });
  return app;
}
