// GET /api/dashboard (admin): the dashboard's figures from aggregate queries only.
import { dashboardSchema } from "@trainwise/contract/admin-tables";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ANALYSIS_WINDOW, questionAnalysis, resultCounts } from "../students/results.ts";
import { openDrivesNow } from "./repository.ts";

const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", app.requireAdmin);

  app.get(
    "/",
    {
      schema: {
        tags: ["dashboard"],
        summary:
          "Counts, score distribution, drives open now and per-question analysis of the latest submitted quizzes",
        security: [{ bearerAuth: [] }],
        response: { 200: dashboardSchema },
      },
    },
    async () => {
      const [counts, openDrives, items] = await Promise.all([
        resultCounts(app.db),
        openDrivesNow(app.db),
        questionAnalysis(app.db),
      ]);
      return { ...counts, openDrives, analysisWindow: ANALYSIS_WINDOW, items };
    },
  );
};

export default dashboardRoutes;
