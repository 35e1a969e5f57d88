// /api/questions: the question bank (admin).
import { questionTablePageSchema, questionTableQuerySchema } from "@trainwise/contract/admin-tables";
import { errorBodySchema, idParamsSchema, messageResponseSchema } from "@trainwise/contract/common";
import {
  type BankFormat,
  QUESTION_CSV_COLUMNS,
  type QuestionImportQuery,
  questionExportQuerySchema,
  questionImportPreviewSchema,
  questionImportQuerySchema,
  questionImportResultSchema,
  questionInputSchema,
  questionListQuerySchema,
  questionListSchema,
  questionRenderInputSchema,
  questionRenderSchema,
  questionSchema,
} from "@trainwise/contract/questions";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { sendCsv, sendDownload, streamCsv } from "../../csv/reply.ts";
import { acceptTextUploads } from "../../csv/text-upload.ts";
import { adminOf } from "../../plugins/auth.ts";
import { HttpError } from "../../plugins/errors.ts";
import { renderOptionText, renderQuestionText } from "../../rich-text/render.ts";
import { aikenCarries } from "./formats/aiken.ts";
import { IMPORT_LIMITS } from "./formats/bank-file.ts";
import { detectFormat, EXPORTS, readBankFile, toPreview } from "./formats/bank-formats.ts";
import { QUESTION_CSV_TEMPLATE, questionCsvRow } from "./formats/csv.ts";
import {
  archiveOrDeleteQuestion,
  createQuestions,
  importQuestions,
  listCategories,
  listQuestions,
  questionBatches,
  questionTable,
  toQuestionResponse,
  updateQuestion,
} from "./repository.ts";

const questionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", app.requireAdmin);
  // An uploaded question file arrives as text in any of the formats; past the limit it is refused with 413.
  app.removeContentTypeParser("text/plain");
  acceptTextUploads(app, ["text/csv", "text/plain", "application/xml", "text/xml"], IMPORT_LIMITS.bytes);
  app.addContentTypeParser("*", (_request, _payload, done) =>
    done(new HttpError(415, "Send JSON, or a question file as text/csv, text/plain or application/xml in UTF-8.")),
  );

  /** The file read in its format (given or detected), or the whole file refused. */
  async function readUpload(body: string, query: QuestionImportQuery, contentType: string | undefined) {
    // A file sent as text/csv is CSV, as it always was; any other is read in the format named or detected.
    const format: BankFormat = query.format ?? (contentType?.startsWith("text/csv") ? "csv" : detectFormat(body));
    const outcome = await readBankFile(body, format, { category: query.category, difficulty: query.difficulty });
    if (!outcome.ok) throw new HttpError(outcome.status, outcome.message, { file: outcome.message });
    return { format, bank: outcome.bank };
  }

  app.get(
    "/",
    {
      schema: {
        tags: ["questions"],
        summary: "Active questions with their options, newest first; optional filters and paging",
        description: "With `page`, the total number of matching questions is in the X-Total-Count header.",
        security: [{ bearerAuth: [] }],
        querystring: questionListQuerySchema,
        response: { 200: questionListSchema },
      },
    },
    async (request, reply) => {
      const { questions, total } = await listQuestions(app.db, request.query);
      reply.header("x-total-count", String(total));
      return questions.map(toQuestionResponse);
    },
  );

  app.get(
    "/table",
    {
      schema: {
        tags: ["questions"],
        summary: "One page of the question bank table: search the text; filter by category and difficulty; sort",
        security: [{ bearerAuth: [] }],
        querystring: questionTableQuerySchema,
        response: { 200: questionTablePageSchema },
      },
    },
    async (request) => questionTable(app.db, request.query),
  );

  app.get(
    "/categories",
    {
      schema: {
        tags: ["questions"],
        summary: "The categories in use",
        security: [{ bearerAuth: [] }],
        response: { 200: z.array(z.string()) },
      },
    },
    async () => listCategories(app.db),
  );

  app.post(
    "/",
    {
      schema: {
        tags: ["questions"],
        summary: "Create a question; exactly one option is correct",
        security: [{ bearerAuth: [] }],
        body: questionInputSchema,
        response: { 201: questionSchema, 400: errorBodySchema },
      },
    },
    async (request, reply) => {
      const [created] = await createQuestions(app.db, [request.body]);
      if (!created) throw new Error("The question was not created.");
      return reply.status(201).send(toQuestionResponse(created));
    },
  );

  app.post(
    "/render",
    {
      schema: {
        tags: ["questions"],
        summary: "The editor's live preview: question and option Markdown as students will see it, sanitised",
        security: [{ bearerAuth: [] }],
        body: questionRenderInputSchema,
        response: { 200: questionRenderSchema, 400: errorBodySchema },
      },
    },
    async (request) => ({
      html: renderQuestionText(request.body.text),
      options: request.body.options.map(renderOptionText),
    }),
  );

  app.put(
    "/:id",
    {
      schema: {
        tags: ["questions"],
        summary: "Change a question (one already asked is replaced by a new version)",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        body: questionInputSchema,
        response: { 200: questionSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const updated = await updateQuestion(app.db, request.params.id, request.body);
      if (!updated) throw new HttpError(404, "Question not found.");
      return toQuestionResponse(updated);
    },
  );

  app.delete(
    "/:id",
    {
      schema: {
        tags: ["questions"],
        summary: "Delete a question (archived instead when results refer to it)",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        response: { 200: messageResponseSchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const outcome = await archiveOrDeleteQuestion(app.db, request.params.id);
      if (outcome === "not-found") throw new HttpError(404, "Question not found.");
      return { message: "Question deleted." };
    },
  );

  /** The bank (or what the filters pick) as our CSV, streamed batch by batch, grouped by category. */
  const streamBankCsv = (reply: FastifyReply, filters: Parameters<typeof questionBatches>[1]) =>
    streamCsv(reply, EXPORTS.csv.fileName, QUESTION_CSV_COLUMNS, questionBatches(app.db, filters), questionCsvRow);

  app.get(
    "/export.csv",
    {
      schema: {
        tags: ["questions"],
        summary: "The whole active bank as CSV, streamed",
        security: [{ bearerAuth: [] }],
      },
    },
    async (_request, reply) => streamBankCsv(reply, {}),
  );

  app.get(
    "/export",
    {
      schema: {
        tags: ["questions"],
        summary: "The active bank, or the questions a filter picks, as CSV, GIFT, Aiken or Moodle XML",
        description:
          "Aiken holds one-line single-answer and true/false questions only: multiple-answer questions and questions " +
          "whose text has more than one line (a code block) are left out of it, and the `X-Questions-Left-Out` " +
          "header counts them (decision 018).",
        security: [{ bearerAuth: [] }],
        querystring: questionExportQuerySchema,
      },
    },
    async (request, reply) => {
      const { format, ...filters } = request.query;
      if (format === "csv") return streamBankCsv(reply, filters);
      // GIFT, Aiken and Moodle XML are written whole (a bank is at most thousands of questions).
      const { questions } = await listQuestions(app.db, filters);
      // Grouped by category, so GIFT and Moodle XML name each category once.
      questions.sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
      const file = EXPORTS[format];
      if (format === "aiken") {
        reply.header("x-questions-left-out", String(questions.filter((question) => !aikenCarries(question)).length));
      }
      return sendDownload(reply, file, file.write(questions));
    },
  );

  app.get(
    "/template.csv",
    { schema: { tags: ["questions"], summary: "An example CSV to fill in", security: [{ bearerAuth: [] }] } },
    async (_request, reply) => sendCsv(reply, "questions-template.csv", QUESTION_CSV_TEMPLATE),
  );

  const uploadLimits = `At most ${IMPORT_LIMITS.rows} questions and ${IMPORT_LIMITS.bytes / 1024 / 1024} MB a file, no line over ${IMPORT_LIMITS.lineBytes / 1024} KB.`;
  const uploadBody = z.string({ error: "Send the file as text (text/csv, text/plain or application/xml)" });

  app.post(
    "/import/preview",
    {
      schema: {
        tags: ["questions"],
        summary: "What importing a file would create, and every problem with its line; writes nothing",
        description: `CSV, GIFT, Aiken or Moodle XML (\`format\`, or detected). ${uploadLimits}`,
        security: [{ bearerAuth: [] }],
        consumes: ["text/plain", "text/csv", "application/xml"],
        querystring: questionImportQuerySchema,
        body: uploadBody,
        response: { 200: questionImportPreviewSchema, 400: errorBodySchema, 413: errorBodySchema },
      },
    },
    async (request) => {
      const { format, bank } = await readUpload(request.body, request.query, request.headers["content-type"]);
      return toPreview(format, bank);
    },
  );

  app.post(
    "/import",
    {
      schema: {
        tags: ["questions"],
        summary: "Import questions from a file, all or nothing: any problem rejects the whole file",
        description:
          `CSV, GIFT, Aiken or Moodle XML (\`format\`, or detected). ${uploadLimits} A refusal lists the first ` +
          `${IMPORT_LIMITS.listedErrors} problems and counts them all. Questions of kinds the bank does not hold ` +
          "are refused unless `skipUnsupported=true` (the admin saw them in the preview and confirmed).",
        security: [{ bearerAuth: [] }],
        consumes: ["text/csv", "text/plain", "application/xml"],
        querystring: questionImportQuerySchema,
        body: uploadBody,
        response: { 201: questionImportResultSchema, 400: errorBodySchema, 413: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { bank } = await readUpload(request.body, request.query, request.headers["content-type"]);
      if (bank.problemCount > 0) {
        const listed =
          bank.problemCount > bank.problems.length ? ` (the first ${bank.problems.length} are listed)` : "";
        const counted = bank.problemCount === 1 ? "1 problem" : `${bank.problemCount} problems`;
        const fields: Record<string, string> = {};
        for (const problem of bank.problems) {
          const key = `line ${problem.line}`;
          fields[key] = fields[key] ? `${fields[key]}; ${problem.message}` : problem.message;
        }
        throw new HttpError(400, `Nothing was imported: ${counted} in the file${listed}.`, fields);
      }
      if (bank.unsupported.length > 0 && !request.query.skipUnsupported) {
        const kinds = [...new Set(bank.unsupported.map((question) => question.kind))].join(", ");
        const message = `Nothing was imported: ${bank.unsupported.length} question${bank.unsupported.length === 1 ? " is" : "s are"} of a kind the bank does not hold (${kinds}). Confirm to import the rest without them.`;
        const fields: Record<string, string> = {};
        for (const question of bank.unsupported) fields[`line ${question.line}`] = `${question.kind}: not imported`;
        throw new HttpError(400, message, fields);
      }
      if (bank.questions.length === 0) {
        throw new HttpError(400, "The file has no questions.", { file: "The file has no questions." });
      }
      const images = [...bank.images.values()].map(({ sha256, contentType, bytes, width, height }) => ({
        sha256,
        contentType,
        bytes,
        width,
        height,
      }));
      await importQuestions(
        app.db,
        bank.questions.map((entry) => entry.question),
        images,
        adminOf(request).id,
      );
      return reply.status(201).send({ imported: bank.questions.length, skipped: bank.unsupported.length });
    },
  );
};

export default questionRoutes;
