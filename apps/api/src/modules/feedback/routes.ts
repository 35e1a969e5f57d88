// /api/feedback: public list for the home carousel (no contact data), admin creation.
import { adminEndpoints } from "@trainwise/contract/admin-endpoints";
import { feedbackTablePageSchema, feedbackTableQuerySchema } from "@trainwise/contract/admin-tables";
import { errorBodySchema, idParamsSchema, messageResponseSchema } from "@trainwise/contract/common";
import {
  feedbackCreatedSchema,
  feedbackInputSchema,
  feedbackListSchema,
  feedbackSchema,
  feedbackUpdateSchema,
  publicFeedbackListSchema,
} from "@trainwise/contract/feedback";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { csvDate, streamCsv } from "../../csv/reply.ts";
import { adminOf } from "../../plugins/auth.ts";
import { HttpError } from "../../plugins/errors.ts";
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

const feedbackRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/",
    {
      // The home page's carousel: public text with no e-mail, USN or phone.
      config: { publicCache: true },
      schema: {
        tags: ["feedback"],
        summary: "Visible student feedback, newest first, without e-mail or USN",
        response: { 200: publicFeedbackListSchema },
      },
    },
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
  );

  app.post(
    "/",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ["feedback"],
        summary: "Add a student's feedback (admin)",
        security: [{ bearerAuth: [] }],
        body: feedbackInputSchema,
        response: { 201: feedbackCreatedSchema, 400: errorBodySchema },
      },
    },
    async (request, reply) => {
      const row = await createFeedback(app.db, request.body, adminOf(request).id);
      return reply.status(201).send({ message: "Feedback submitted successfully.", feedback: toAdminFeedback(row) });
    },
  );

  app.get(
    "/all",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ["feedback"],
        summary: "All feedback with contact details, hidden entries included (admin)",
        security: [{ bearerAuth: [] }],
        response: { 200: feedbackListSchema },
      },
    },
    async () => (await allFeedback(app.db)).map(toAdminFeedback),
  );

  app.get(
    "/table",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ["feedback"],
        summary: "One page of the feedback table: search name, USN or e-mail; filter by batch and visibility (admin)",
        security: [{ bearerAuth: [] }],
        querystring: feedbackTableQuerySchema,
        response: { 200: feedbackTablePageSchema },
      },
    },
    async (request) => feedbackTable(app.db, request.query),
  );

  app.get(
    "/export.csv",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ["feedback"],
        summary: "All feedback (or what matches the table's filters) as CSV, streamed (admin)",
        security: [{ bearerAuth: [] }],
        querystring: adminEndpoints.feedbackExport.query,
      },
    },
    async (request, reply) =>
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

  app.patch(
    "/:id",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ["feedback"],
        summary: "Hide feedback from the home page, or show it again (admin)",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        body: feedbackUpdateSchema,
        response: { 200: feedbackSchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const row = await setFeedbackHidden(app.db, request.params.id, request.body.hidden);
      if (!row) throw new HttpError(404, "Feedback not found.");
      return toAdminFeedback(row);
    },
  );

  app.delete(
    "/:id",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ["feedback"],
        summary: "Delete feedback (admin)",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        response: { 200: messageResponseSchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const row = await deleteFeedback(app.db, request.params.id);
      if (!row) throw new HttpError(404, "Feedback not found.");
      return { message: "Feedback deleted." };
    },
  );
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
