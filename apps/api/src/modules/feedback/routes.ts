// /api/feedback: public list for the home carousel (no contact data), admin creation.
import { errorBodySchema } from "@trainwise/contract/common";
import { feedbackCreatedSchema, feedbackInputSchema, publicFeedbackListSchema } from "@trainwise/contract/feedback";
import { desc, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { feedback } from "../../db/schema.ts";
import { adminOf } from "../../plugins/auth.ts";
import { createFeedback } from "./repository.ts";

const feedbackRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/",
    {
      schema: {
        tags: ["feedback"],
        summary: "Visible student feedback, newest first, without e-mail or USN",
        response: { 200: publicFeedbackListSchema },
      },
    },
    async () => {
      const rows = await app.db
        .select()
        .from(feedback)
        .where(eq(feedback.hidden, false))
        .orderBy(desc(feedback.createdAt))
        .limit(100);
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
      return reply.status(201).send({
        message: "Feedback submitted successfully.",
        feedback: {
          _id: row.id,
          name: row.name,
          usnNumber: row.usnNumber,
          emailId: row.emailId,
          section: row.section,
          batch: row.batch,
          feedback: row.feedback,
          hidden: row.hidden,
          timestamp: row.createdAt.toISOString(),
        },
      });
    },
  );
};

export default feedbackRoutes;
