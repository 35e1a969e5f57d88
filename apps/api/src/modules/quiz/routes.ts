// /api/quiz/*: the student's attempt. Every route needs a student token.
import { errorBodySchema, idParamsSchema } from "@trainwise/contract/common";
import {
  advanceSchema,
  attemptProgressSchema,
  attemptStateSchema,
  quizQuestionListSchema,
  quizQuestionsQuerySchema,
  quizResultSchema,
  quizSubmitResponseSchema,
  quizSubmitSchema,
  saveAnswerSchema,
} from "@trainwise/contract/quiz";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { studentOf } from "../../plugins/auth.ts";
import {
  advanceAttempt,
  currentAttemptState,
  resultOf,
  saveAnswer,
  startOrResumeAttempt,
  submitAttempt,
} from "./service.ts";

const refusals = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 409: errorBodySchema };

const quizRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", app.requireStudent);
  // Answers and results must never be cached by a browser or a proxy.
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  app.get(
    "/questions",
    {
      schema: {
        tags: ["quiz"],
        summary: "Start (or resume) the quiz: the served questions, options shuffled, without correctness",
        security: [{ bearerAuth: [] }],
        querystring: quizQuestionsQuerySchema,
        response: { 200: quizQuestionListSchema, ...refusals },
      },
    },
    async (request) => {
      const { questions } = await startOrResumeAttempt(app.db, studentOf(request).id, request.query.limit);
      return questions.map((question) => ({
        _id: question.questionId,
        text: question.text,
        category: question.category,
        difficulty: question.difficulty,
        options: question.options,
      }));
    },
  );

  app.get(
    "/attempt",
    {
      schema: {
        tags: ["quiz"],
        summary: "Where the student stands: current question, seconds left, saved answers",
        security: [{ bearerAuth: [] }],
        response: { 200: attemptStateSchema, 404: errorBodySchema, ...refusals },
      },
    },
    async (request) => currentAttemptState(app.db, studentOf(request).id),
  );

  app.put(
    "/answers",
    {
      schema: {
        tags: ["quiz"],
        summary: "Save the answer to the open question",
        security: [{ bearerAuth: [] }],
        body: saveAnswerSchema,
        response: { 200: attemptProgressSchema, ...refusals },
      },
    },
    async (request) => saveAnswer(app.db, studentOf(request).id, request.body),
  );

  app.post(
    "/next",
    {
      schema: {
        tags: ["quiz"],
        summary: "Move on to the question at `position` (Next, or the timer running out)",
        security: [{ bearerAuth: [] }],
        body: advanceSchema,
        response: { 200: attemptProgressSchema, ...refusals },
      },
    },
    async (request) => advanceAttempt(app.db, studentOf(request).id, request.body.position),
  );

  app.post(
    "/submit",
    {
      schema: {
        tags: ["quiz"],
        summary: "Submit the quiz; submitting again returns the same result",
        security: [{ bearerAuth: [] }],
        body: quizSubmitSchema,
        response: { 200: quizSubmitResponseSchema, ...refusals },
      },
    },
    async (request) => ({ resultId: await submitAttempt(app.db, studentOf(request).id, request.body.answers) }),
  );

  app.get(
    "/result/:id",
    {
      schema: {
        tags: ["quiz"],
        summary: "The student's own result: score, total, and per question whether the answer was right",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        response: { 200: quizResultSchema, 404: errorBodySchema, ...refusals },
      },
    },
    async (request) => resultOf(app.db, studentOf(request).id, request.params.id),
  );
};

export default quizRoutes;
