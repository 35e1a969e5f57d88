// GET /api/dashboard (admin): the dashboard's figures from aggregate queries only.
import type { FastifyPluginAsync } from "fastify";
import { serve } from "../../http/serve-endpoint.ts";
import { ANALYSIS_WINDOW, questionAnalysis, resultCounts } from "../students/results.ts";
import { openDrivesNow } from "./repository.ts";

const dashboardRoutes: FastifyPluginAsync = async (app) => {
  serve(app, "dashboard", async () => {
    const [counts, openDrives, items] = await Promise.all([
      resultCounts(app.db),
      openDrivesNow(app.db),
      questionAnalysis(app.db),
    ]);
    return { ...counts, openDrives, analysisWindow: ANALYSIS_WINDOW, items };
  });
};

export default dashboardRoutes;
