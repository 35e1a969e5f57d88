// Item analysis (admin): GET /api/drives/:id/analysis, GET /api/tests/:id/analysis, each also as CSV, and
// PUT /api/analysis/questions/:id/retirement to retire a question from future draws.
import {
  ANALYSIS_FLAG_TEXT,
  type ItemAnalysis,
  itemAnalysisSchema,
  retirementInputSchema,
} from "@trainwise/contract/analysis";
import { errorBodySchema, idParamsSchema, messageResponseSchema } from "@trainwise/contract/common";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sendCsv } from "../../csv/reply.ts";
import { toCsv } from "../../csv/spreadsheet-csv.ts";
import type { Executor } from "../../db/client.ts";
import { HttpError } from "../../plugins/errors.ts";
import { type AnalysisScope, itemAnalysis, scopeNames, setQuestionRetired } from "./repository.ts";

const refusals = { 400: errorBodySchema, 404: errorBodySchema };

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

const analysisRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", app.requireAdmin);

  for (const kind of ["drive", "test"] as const) {
    const tag = kind === "drive" ? "drives" : "tests";
    app.get(
      `/${tag}/:id/analysis`,
      {
        schema: {
          tags: [tag],
          summary: `Item analysis of the ${kind}'s submitted attempts: facility, discrimination, option choices, flags`,
          security: [{ bearerAuth: [] }],
          params: idParamsSchema,
          response: { 200: itemAnalysisSchema, ...refusals },
        },
      },
      async (request) => analysisOf(app.db, { kind, id: request.params.id }),
    );
    app.get(
      `/${tag}/:id/analysis.csv`,
      {
        schema: {
          tags: [tag],
          summary: `The ${kind}'s item analysis, one line per question, as CSV`,
          security: [{ bearerAuth: [] }],
          params: idParamsSchema,
        },
      },
      async (request, reply) =>
        sendCsv(
          reply,
          `${kind}-item-analysis.csv`,
          analysisCsv(await analysisOf(app.db, { kind, id: request.params.id })),
        ),
    );
  }

  app.put(
    "/analysis/questions/:id/retirement",
    {
      schema: {
        tags: ["questions"],
        summary: "Retire a question (never drawn again, marked in reports) or bring it back",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        body: retirementInputSchema,
        response: { 200: messageResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const { retired } = request.body;
      if (!(await setQuestionRetired(app.db, request.params.id, retired))) {
        throw new HttpError(404, "Question not found.");
      }
      return {
        message: retired
          ? "The question is retired: new attempts will not draw it."
          : "The question is back in the bank: new attempts may draw it.",
      };
    },
  );
};

export default analysisRoutes;
