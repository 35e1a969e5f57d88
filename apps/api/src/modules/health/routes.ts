// Health for load balancers, process managers and monitors. Liveness says the process runs (restart it when
// not); readiness says it should get traffic: the database answers and the instance is not draining.
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { errorBody } from "../../http/http-error.ts";
import { serve } from "../../http/serve-endpoint.ts";
import { databaseAnswers } from "./repository.ts";

const healthRoutes: FastifyPluginAsync = async (app) => {
  const ready = async (_request: unknown, reply: FastifyReply) => {
    if (app.lifecycle.draining) {
      return reply.status(503).send(errorBody(503, "This instance is shutting down."));
    }
    try {
      await databaseAnswers(app.db);
    } catch (error) {
      app.log.warn({ err: error }, "health check: database unreachable");
      return reply.status(503).send(errorBody(503, "The database is not reachable."));
    }
    return { status: "ok" as const, database: "up" as const };
  };
  serve(app, "healthReady", ready);
  // The original name of the readiness check (docs/product.md#original-api-calls): monitors set up for it keep working.
  serve(app, "health", ready);
  serve(app, "healthLive", async () => ({ status: "ok" as const }));
};

export default healthRoutes;
