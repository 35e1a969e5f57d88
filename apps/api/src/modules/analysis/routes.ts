// Item analysis (admin): GET /api/drives/:id/analysis, GET /api/tests/:id/analysis, each also as CSV, and
// PUT /api/analysis/questions/:id/retirement to retire a question from future draws.
import { ANALYSIS_FLAG_TEXT, type ItemAnalysis } from "@trainwise/contract/analysis";
import type { FastifyPluginAsync } from "fastify";
import { sendCsv } from "../../csv/reply.ts";
import { toCsv } from "../../csv/spreadsheet-csv.ts";
import type { Executor } from "../../db/client.ts";
import { HttpError } from "../../http/http-error.ts";
import { serve } from "../../http/serve-endpoint.ts";
import { type AnalysisScope, itemAnalysis, scopeNames, setQuestionRetired } from "./repository.ts";

async function analysisOf(db: Executor, scope: AnalysisScope): Promise<ItemAnalysis> {
  const names = await scopeNames(db, scope);
  if (!names) throw new HttpError(404, scope.kind === "drive" ? "Drive not found." : "Test not found.");
  return { scope: { kind: scope.kind, _id: scope.id, ...names }, ...(await itemAnalysis(db, scope)) };
}

const CSV_COLUMNS = [
  "question",
  "category",
  "retired",
  "served",
  "right",
  "facilityPercent",
  "discrimination",
  "notAnsweredPercent",
  "options",
  "flags",
] as const;

/** One line per question; the options cell lists each option's share, the correct ones marked. */
function analysisCsv(analysis: ItemAnalysis): string {
  return toCsv(
    analysis.questions.map((question) => ({
      question: question.text,
      category: question.category,
      retired: question.retired ? "yes" : "no",
      served: question.served,
      right: question.right,
      facilityPercent: question.facility,
      discrimination: question.discrimination ?? "",
      notAnsweredPercent: question.notAnsweredShare,
      options: question.options
        .map((option) => `${option.isCorrect ? "[correct] " : ""}${option.text}: ${option.share}%`)
        .join(" | "),
      flags: question.flags.map((flag) => ANALYSIS_FLAG_TEXT[flag].label).join("; "),
    })),
    CSV_COLUMNS,
  );
}

const analysisRoutes: FastifyPluginAsync = async (app) => {
  serve(app, "driveAnalysis", async (request) => analysisOf(app.db, { kind: "drive", id: request.params.id }));
  serve(app, "testAnalysis", async (request) => analysisOf(app.db, { kind: "test", id: request.params.id }));
  for (const [name, kind] of [
    ["driveAnalysisExport", "drive"],
    ["testAnalysisExport", "test"],
  ] as const) {
    serve(app, name, async (request, reply) =>
      sendCsv(
        reply,
        `${kind}-item-analysis.csv`,
        analysisCsv(await analysisOf(app.db, { kind, id: request.params.id })),
      ),
    );
  }

  serve(app, "setQuestionRetired", async (request) => {
    const { retired } = request.body;
    if (!(await setQuestionRetired(app.db, request.params.id, retired))) {
      throw new HttpError(404, "Question not found.");
    }
    return {
      message: retired
        ? "The question is retired: new attempts will not draw it."
        : "The question is back in the bank: new attempts may draw it.",
    };
  });
};

export default analysisRoutes;
