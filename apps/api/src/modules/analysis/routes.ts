// Item analysis (admin): GET /api/drives/:id/analysis, GET /api/tests/:id/analysis, each also as CSV, and
// PUT /api/analysis/questions/:id/retirement to retire a question from future draws.
import type { AdminRole } from "@trainwise/contract/admin-roles";
import { ANALYSIS_FLAG_TEXT, type ItemAnalysis } from "@trainwise/contract/analysis";
import type { FastifyPluginAsync } from "fastify";
import { sendCsv } from "../../csv/reply.ts";
import { toCsv } from "../../csv/spreadsheet-csv.ts";
import type { Executor } from "../../db/client.ts";
import { HttpError } from "../../http/http-error.ts";
import { serve } from "../../http/serve-endpoint.ts";
import { adminOf } from "../../plugins/auth.ts";
import { type AnalysisScope, itemAnalysis, scopeKeyRelease, scopeNames, setQuestionRetired } from "./repository.ts";

/**
 * The report as `role` may read it. A viewer reads it before its drives release their key, but without the key:
 * not which options are right, nor how often each was chosen (beside the facility, the option chosen as often as
 * the question is answered right is the key). On a secure test not right or wrong either, so no question's
 * figures at all until release: a viewer's throw-away attempts must not read the key off the report (decision 024).
 */
async function analysisOf(db: Executor, scope: AnalysisScope, role: AdminRole): Promise<ItemAnalysis> {
  const names = await scopeNames(db, scope);
  if (!names) throw new HttpError(404, scope.kind === "drive" ? "Drive not found." : "Test not found.");
  const [report, release] = await Promise.all([itemAnalysis(db, scope), scopeKeyRelease(db, scope)]);
  const keyHidden = role === "viewer" && !release.released;
  const marksHidden = keyHidden && release.securePending;
  return {
    scope: { kind: scope.kind, _id: scope.id, ...names },
    keyHidden,
    marksHidden,
    keyShownFrom: keyHidden ? (release.releaseAt?.toISOString() ?? null) : null,
    summary: marksHidden ? { ...report.summary, kr20: null } : report.summary,
    questions: marksHidden
      ? []
      : keyHidden
        ? report.questions.map((question) => ({
            ...question,
            options: question.options.map((option) => ({ ...option, isCorrect: null, chosen: null, share: null })),
          }))
        : report.questions,
  };
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
  // Last, so a sheet that reads the earlier columns by position still reads them.
  "section",
] as const;

/**
 * One line per question; the options cell lists each option's share, the correct ones marked, and the section is
 * empty for a question served without sections.
 */
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
        .map(
          (option) =>
            `${option.isCorrect ? "[correct] " : ""}${option.text}${option.share === null ? "" : `: ${option.share}%`}`,
        )
        .join(" | "),
      flags: question.flags.map((flag) => ANALYSIS_FLAG_TEXT[flag].label).join("; "),
      section: question.section ?? "",
    })),
    CSV_COLUMNS,
  );
}

const analysisRoutes: FastifyPluginAsync = async (app) => {
  serve(app, "driveAnalysis", async (request) =>
    analysisOf(app.db, { kind: "drive", id: request.params.id }, adminOf(request).role),
  );
  serve(app, "testAnalysis", async (request) =>
    analysisOf(app.db, { kind: "test", id: request.params.id }, adminOf(request).role),
  );
  for (const [name, kind] of [
    ["driveAnalysisExport", "drive"],
    ["testAnalysisExport", "test"],
  ] as const) {
    serve(app, name, async (request, reply) =>
      sendCsv(
        reply,
        `${kind}-item-analysis.csv`,
        analysisCsv(await analysisOf(app.db, { kind, id: request.params.id }, adminOf(request).role)),
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
