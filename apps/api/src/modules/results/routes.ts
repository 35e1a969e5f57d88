// Results (admin): the table of submitted attempts with its export, the whole list, and one attempt in full.
import type { FastifyPluginAsync } from "fastify";
import { streamCsv } from "../../csv/reply.ts";
import { HttpError } from "../../http/http-error.ts";
import { serve } from "../../http/serve-endpoint.ts";
import { adminOf } from "../../plugins/auth.ts";
import { RESULT_EXPORT_COLUMNS, resultLine } from "./export-lines.ts";
import { listResults, resultBatches, resultDetail, resultTable } from "./repository.ts";

const resultRoutes: FastifyPluginAsync = async (app) => {
  serve(app, "allResults", async (request, reply) => {
    const { rows, total } = await listResults(app.db, request.query);
    reply.header("x-total-count", String(total));
    return rows.map((row) => ({
      _id: row.id,
      studentName: row.studentName,
      score: row.score ?? 0,
      totalQuestions: row.totalQuestions,
      submittedAt: (row.submittedAt ?? new Date()).toISOString(),
    }));
  });

  serve(app, "resultTable", async (request) => resultTable(app.db, request.query));

  serve(app, "resultExport", async (request, reply) =>
    streamCsv(reply, "results.csv", RESULT_EXPORT_COLUMNS, resultBatches(app.db, request.query), resultLine),
  );

  serve(app, "resultDetail", async (request) => {
    const detail = await resultDetail(app.db, request.params.id);
    if (!detail) throw new HttpError(404, "Result not found.");
    const { secure, keyReleased, keyReleaseAt, answers, ...shown } = detail;
    // A viewer reads scores and right or wrong, but not the key before the drive releases it: a read-only account
    // handed to a college's staff must not become a way to the answers of a drive still running (issue 21, row 6).
    // On a secure test right or wrong is held back too: an outside attack read a whole key off three throw-away
    // attempts' right and wrong, the oracle a secure test's pending results shut for candidates.
    const keyHidden = adminOf(request).role === "viewer" && !keyReleased;
    const marksHidden = keyHidden && secure;
    return {
      ...shown,
      _id: detail.id,
      score: detail.score ?? 0,
      submittedAt: detail.submittedAt.toISOString(),
      credits: detail.credits.map((credit) => ({
        silentFrom: credit.silentFrom.toISOString(),
        heardAt: credit.heardAt.toISOString(),
        seconds: credit.seconds,
      })),
      keyHidden,
      keyShownFrom: keyHidden ? (keyReleaseAt?.toISOString() ?? null) : null,
      marksHidden,
      answers: answers.map((answer) => ({
        ...answer,
        ...(keyHidden ? { chosen: null, chosenHtml: null, correct: null, correctHtml: null } : {}),
        ...(marksHidden ? { isCorrect: null, mark: null } : {}),
      })),
    };
  });
};

export default resultRoutes;
