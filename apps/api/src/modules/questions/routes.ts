// /api/questions: the question bank (admin).
import { errorBodySchema, idParamsSchema, messageResponseSchema } from "@trainwise/contract/common";
import { questionInputSchema, questionListSchema, questionSchema } from "@trainwise/contract/questions";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { HttpError } from "../../plugins/errors.ts";
import { archiveOrDeleteQuestion, createQuestion, listQuestions, toQuestionResponse } from "./repository.ts";

const questionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", app.requireAdmin);

  app.get(
    "/",
    {
      schema: {
        tags: ["questions"],
        summary: "Every active question with its options, newest first",
        security: [{ bearerAuth: [] }],
        response: { 200: questionListSchema },
      },
    },
    async () => (await listQuestions(app.db)).map(toQuestionResponse),
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
      const created = await app.db.transaction((tx) => createQuestion(tx, request.body));
      return reply.status(201).send(toQuestionResponse(created));
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
};

export default questionRoutes;
