// The dashboard's figures (admin): GET /api/dashboard, and the older summary of results with the same aggregates.
import type { FastifyPluginAsync } from "fastify";
import { serve } from "../../http/serve-endpoint.ts";
import { ANALYSIS_WINDOW, openDrivesNow, questionAnalysis, resultCounts, resultsSummary } from "./repository.ts";

const dashboardRoutes: FastifyPluginAsync = async (app) => {
  serve(app, "dashboard", async () => {
    const [counts, openDrives, items] = await Promise.all([
      resultCounts(app.db),
      openDrivesNow(app.db),
      questionAnalysis(app.db),
    ]);
    return { ...counts, openDrives, analysisWindow: ANALYSIS_WINDOW, items };
  });

  serve(app, "resultsSummary", async () => resultsSummary(app.db));
};

export default dashboardRoutes;
