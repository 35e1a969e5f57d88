import { errorBodySchema } from "@trainwise/contract/common";
import { healthSchema } from "@trainwise/contract/health";
import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorBody } from "../../plugins/errors.ts";

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/health",
    {
      // Load balancers and monitors poll it; nothing in it is private.
      config: { publicCache: true },
      schema: {
        tags: ["health"],
        summary: "Liveness and database reachability",
        response: { 200: healthSchema, 503: errorBodySchema },
      },
    },
    async (_request, reply) => {
      try {
        await app.db.execute(sql`select 1`);
      } catch (error) {
        app.log.warn({ err: error }, "health check: database unreachable");
        return reply.status(503).send(errorBody(503, "The database is not reachable."));
      }
      return { status: "ok" as const, database: "up" as const };
    },
  );
};

export default healthRoutes;
