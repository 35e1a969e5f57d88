// /api/feedback: public list for the home carousel (no contact data), admin creation.
import type { FastifyPluginAsync } from "fastify";
import { csvDate, streamCsv } from "../../csv/reply.ts";
import { HttpError } from "../../http/http-error.ts";
import { serve } from "../../http/serve-endpoint.ts";
import { adminOf } from "../../plugins/auth.ts";
import {
  allFeedback,
  createFeedback,
  deleteFeedback,
  type FeedbackRow,
  feedbackBatches,
  feedbackTable,
  setFeedbackHidden,
  visibleFeedback,
} from "./repository.ts";

const FEEDBACK_CSV_COLUMNS = [
  "name",
  "usnNumber",
  "emailId",
  "section",
  "batch",
  "feedback",
  "shownOnHomePage",
  "submitted",
] as const;

const feedbackRoutes: FastifyPluginAsync = async (app) => {
  serve(
    app,
    "publicFeedback",
    async () => {
      const rows = await visibleFeedback(app.db, 100);
      return rows.map((row) => ({
        _id: row.id,
        name: row.name,
        section: row.section,
        batch: row.batch,
        feedback: row.feedback,
        timestamp: row.createdAt.toISOString(),
      }));
    },
    // The home page's carousel: public text with no e-mail, USN or phone.
    { config: { publicCache: true } },
  );

  serve(app, "createFeedback", async (request) => {
    const row = await createFeedback(app.db, request.body, adminOf(request).id);
    return { message: "Feedback submitted successfully.", feedback: toAdminFeedback(row) };
  });

  serve(app, "allFeedback", async (request, reply) => {
    const { rows, total } = await allFeedback(app.db, request.query);
    reply.header("x-total-count", String(total));
    return rows.map(toAdminFeedback);
  });

  serve(app, "feedbackTable", async (request) => feedbackTable(app.db, request.query));

  serve(app, "feedbackExport", async (request, reply) =>
    streamCsv(reply, "feedback.csv", FEEDBACK_CSV_COLUMNS, feedbackBatches(app.db, request.query), (row) => ({
      name: row.name,
      usnNumber: row.usn_number,
      emailId: row.email_id,
      section: row.section,
      batch: row.batch,
      feedback: row.feedback,
      shownOnHomePage: row.hidden ? "no" : "yes",
      submitted: csvDate(new Date(row.created_at)),
    })),
  );

  serve(app, "setFeedbackHidden", async (request) => {
    const row = await setFeedbackHidden(app.db, request.params.id, request.body.hidden);
    if (!row) throw new HttpError(404, "Feedback not found.");
    return toAdminFeedback(row);
  });

  serve(app, "deleteFeedback", async (request) => {
    const row = await deleteFeedback(app.db, request.params.id);
    if (!row) throw new HttpError(404, "Feedback not found.");
    return { message: "Feedback deleted." };
  });
};

function toAdminFeedback(row: FeedbackRow) {
  return {
    _id: row.id,
    name: row.name,
    usnNumber: row.usnNumber,
    emailId: row.emailId,
    section: row.section,
    batch: row.batch,
    feedback: row.feedback,
    hidden: row.hidden,
    timestamp: row.createdAt.toISOString(),
  };
}

export default feedbackRoutes;
