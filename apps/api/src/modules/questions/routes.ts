// /api/questions: the question bank (admin).
import { questionTablePageSchema, questionTableQuerySchema } from "@trainwise/contract/admin-tables";
import { errorBodySchema, idParamsSchema, messageResponseSchema } from "@trainwise/contract/common";
import {
  questionImportResultSchema,
  questionInputSchema,
  questionListQuerySchema,
  questionListSchema,
  questionSchema,
} from "@trainwise/contract/questions";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { sendCsv } from "../../csv/reply.ts";
import { HttpError } from "../../plugins/errors.ts";
import { CSV_IMPORT_LIMITS, parseQuestionCsv, QUESTION_CSV_TEMPLATE, questionsToCsv } from "./csv.ts";
import {
  archiveOrDeleteQuestion,
  createQuestions,
  listCategories,
  listQuestions,
  questionTable,
  toQuestionResponse,
  updateQuestion,
} from "./repository.ts";

const questionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", app.requireAdmin);
  app.addContentTypeParser(
    "text/csv",
    { parseAs: "string", bodyLimit: CSV_IMPORT_LIMITS.bytes },
    (_request, body, done) => done(null, body),
  );

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

  app.get(
    "/export.csv",
    { schema: { tags: ["questions"], summary: "The whole active bank as CSV", security: [{ bearerAuth: [] }] } },
    async (_request, reply) => {
      const { questions } = await listQuestions(app.db);
      return sendCsv(reply, "questions.csv", questionsToCsv(questions));
    },
  );

  app.get(
    "/template.csv",
    { schema: { tags: ["questions"], summary: "An example CSV to fill in", security: [{ bearerAuth: [] }] } },
    async (_request, reply) => sendCsv(reply, "questions-template.csv", QUESTION_CSV_TEMPLATE),
  );

  app.post(
    "/import",
    {
      schema: {
        tags: ["questions"],
        summary: "Import questions from CSV (text/csv); any bad row rejects the whole file",
        description: `At most ${CSV_IMPORT_LIMITS.rows} questions and ${CSV_IMPORT_LIMITS.bytes / 1024 / 1024} MB a file; a refusal lists the first ${CSV_IMPORT_LIMITS.listedErrors} problems and counts them all.`,
        security: [{ bearerAuth: [] }],
        consumes: ["text/csv"],
        body: z.string({ error: "Send the CSV file as text/csv" }),
        response: { 201: questionImportResultSchema, 400: errorBodySchema, 413: errorBodySchema },
      },
    },
    async (request, reply) => {
      const outcome = await parseQuestionCsv(request.body);
      if (!outcome.ok) throw new HttpError(outcome.status, outcome.message, outcome.errors);
      await createQuestions(app.db, outcome.questions);
      return reply.status(201).send({ imported: outcome.questions.length });
    },
  );
};

export default questionRoutes;
