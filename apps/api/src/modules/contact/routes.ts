// /api/contact: the contact form stores each enquiry (public, rate-limited); admins read them.
import type { TrainingProgramme } from "@trainwise/contract/contact";
import type { FastifyPluginAsync } from "fastify";
import { csvDate, streamCsv } from "../../csv/reply.ts";
import { serve } from "../../http/serve-endpoint.ts";
import { createMailer, loggableMailFailure } from "../../mail/mailer.ts";
import { createContactNotifier } from "./notify.ts";
import { enquiryBatches, enquiryTable, latestEnquiries, storeEnquiry } from "./repository.ts";

const ENQUIRY_CSV_COLUMNS = ["received", "name", "email", "phone", "programme", "subject", "message"] as const;

const contactRoutes: FastifyPluginAsync = async (app) => {
  const notify = createContactNotifier(createMailer(app.config.smtpUrl));

  serve(
    app,
    "sendEnquiry",
    async (request) => {
      await storeEnquiry(app.db, request.body);
      // Sent after the answer, so a slow or broken mail server never holds up the visitor.
      notify?.(request.body).catch((error) =>
        request.log.error(loggableMailFailure(error), "e-mailing the enquiry failed"),
      );
      return { message: "Thank you. We have received your message and will reply soon." };
    },
    { config: { rateLimit: { max: 5, timeWindow: 10 * 60_000 } } },
  );

  serve(app, "enquiries", async (request, reply) => {
    const { rows, total } = await latestEnquiries(app.db, request.query);
    reply.header("x-total-count", String(total));
    return rows.map(({ id, createdAt, programme, ...row }) => ({
      _id: id,
      ...row,
      programme: programme as TrainingProgramme | null,
      createdAt: createdAt.toISOString(),
    }));
  });

  serve(app, "enquiryTable", async (request) => enquiryTable(app.db, request.query));

  serve(app, "enquiryExport", async (request, reply) =>
    streamCsv(reply, "enquiries.csv", ENQUIRY_CSV_COLUMNS, enquiryBatches(app.db, request.query), (row) => ({
      received: csvDate(new Date(row.created_at)),
      name: row.name,
      email: row.email,
      phone: row.phone,
      programme: row.programme ?? "",
      subject: row.subject,
      message: row.message,
    })),
  );
};

export default contactRoutes;
