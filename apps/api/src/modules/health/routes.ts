// Health for load balancers, process managers and monitors. Liveness says the process runs (restart it when
// not); readiness says it should get traffic: the database answers and the instance is not draining.
import { errorBodySchema } from "@trainwise/contract/common";
import { healthSchema, livenessSchema } from "@trainwise/contract/health";
import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorBody } from "../../plugins/errors.ts";

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const readiness = {
    schema: {
      tags: ["health"],
      summary: "Readiness: 200 when the database answers, 503 while the instance drains or the database is down",
      response: { 200: healthSchema, 503: errorBodySchema },
    },
  };
  const ready = async (_request: unknown, reply: import("fastify").FastifyReply) => {
    if (app.lifecycle.draining) {
      return reply.status(503).send(errorBody(503, "This instance is shutting down."));
    }
    try {
      await app.db.execute(sql`select 1`);
    } catch (error) {
      app.log.warn({ err: error }, "health check: database unreachable");
      return reply.status(503).send(errorBody(503, "The database is not reachable."));
    }
    return { status: "ok" as const, database: "up" as const };
  };
  app.get("/health/ready", readiness, ready);
  // The original name of the readiness check (the specification's monitors use it).
  app.get("/health", readiness, ready);

  app.get(
    "/health/live",
    {
      schema: {
        tags: ["health"],
        summary: "Liveness: 200 while the process runs, whatever the database does",
        response: { 200: livenessSchema },
      },
    },
    async () => ({ status: "ok" as const }),
  );
};

export default healthRoutes;
