// /api/contact: the contact form stores each enquiry (public, rate-limited); admins read them.
import { errorBodySchema, messageResponseSchema } from "@trainwise/contract/common";
import { contactEnquirySchema, contactInputSchema } from "@trainwise/contract/contact";
import { desc } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { contactEnquiries } from "../../db/schema.ts";
import { createContactNotifier } from "./notify.ts";

const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const notify = createContactNotifier(app.config.smtpUrl);

  app.post(
    "/",
    {
      config: { rateLimit: { max: 5, timeWindow: 10 * 60_000 } },
      schema: {
        tags: ["contact"],
        summary: "Send an enquiry from the contact form",
        body: contactInputSchema,
        response: { 201: messageResponseSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await app.db.insert(contactEnquiries).values(request.body);
      // Sent after the answer, so a slow or broken mail server never holds up the visitor.
      notify?.(request.body).catch((error) => request.log.error({ err: error }, "e-mailing the enquiry failed"));
      return reply.status(201).send({ message: "Thank you. We have received your message and will reply soon." });
    },
  );

  app.get(
    "/",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ["contact"],
        summary: "Contact enquiries, newest first (admin)",
        security: [{ bearerAuth: [] }],
        response: { 200: z.array(contactEnquirySchema) },
      },
    },
    async () => {
      const rows = await app.db.select().from(contactEnquiries).orderBy(desc(contactEnquiries.createdAt)).limit(500);
      return rows.map(({ id, createdAt, ...row }) => ({ _id: id, ...row, createdAt: createdAt.toISOString() }));
    },
  );
};

export default contactRoutes;
