// GET /api/audit: the audit log for owners, a page at a time, newest first, filtered by admin and action.
import type { FastifyPluginAsync } from "fastify";
import { serve } from "../../http/serve-endpoint.ts";
import { auditTable } from "./repository.ts";

const auditRoutes: FastifyPluginAsync = async (app) => {
  serve(app, "auditTable", async (request) => auditTable(app.db, request.query));
};

export default auditRoutes;
