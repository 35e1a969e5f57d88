// GET /api/audit: the audit log for owners, a page at a time, newest first, filtered by admin and action.
import { auditTablePageSchema, auditTableQuerySchema } from "@trainwise/contract/admin-roles";
import { errorBodySchema } from "@trainwise/contract/common";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { auditTable } from "./repository.ts";

const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", app.requireAdmin);

  app.get(
    "/",
    {
      schema: {
        tags: ["admins"],
        summary: "The audit log: who changed what and when, newest first",
        security: [{ bearerAuth: [] }],
        querystring: auditTableQuerySchema,
        response: { 200: auditTablePageSchema, 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => auditTable(app.db, request.query),
  );
};

export default auditRoutes;
