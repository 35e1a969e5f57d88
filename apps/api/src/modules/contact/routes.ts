// /api/contact: the contact form stores each enquiry (public, rate-limited); admins read them.
import { adminEndpoints } from "@trainwise/contract/admin-endpoints";
import { enquiryTablePageSchema, enquiryTableQuerySchema } from "@trainwise/contract/admin-tables";
import { errorBodySchema, messageResponseSchema } from "@trainwise/contract/common";
import { contactEnquirySchema, contactInputSchema } from "@trainwise/contract/contact";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { csvDate, streamCsv } from "../../csv/reply.ts";
import { createContactNotifier } from "./notify.ts";
import { enquiryBatches, enquiryTable, latestEnquiries, storeEnquiry } from "./repository.ts";

const ENQUIRY_CSV_COLUMNS = ["received", "name", "email", "phone", "subject", "message"] as const;

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
      await storeEnquiry(app.db, request.body);
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
      const rows = await latestEnquiries(app.db, 500);
      return rows.map(({ id, createdAt, ...row }) => ({ _id: id, ...row, createdAt: createdAt.toISOString() }));
    },
  );

  app.get(
    "/table",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ["contact"],
        summary: "One page of the enquiries table: search name, e-mail or subject; sort (admin)",
        security: [{ bearerAuth: [] }],
        querystring: enquiryTableQuerySchema,
        response: { 200: enquiryTablePageSchema },
      },
    },
    async (request) => enquiryTable(app.db, request.query),
  );

  app.get(
    "/export.csv",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ["contact"],
        summary: "Every enquiry (or those matching the table's search) as CSV, streamed (admin)",
        security: [{ bearerAuth: [] }],
        querystring: adminEndpoints.enquiryExport.query,
      },
    },
    async (request, reply) =>
      streamCsv(reply, "enquiries.csv", ENQUIRY_CSV_COLUMNS, enquiryBatches(app.db, request.query), (row) => ({
        received: csvDate(new Date(row.created_at)),
        name: row.name,
        email: row.email,
        phone: row.phone,
        subject: row.subject,
        message: row.message,
      })),
  );
};

export default contactRoutes;
