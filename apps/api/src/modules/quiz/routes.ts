// /api/quiz/*: the student's attempt. Every route needs a student token.
import { errorBodySchema, idParamsSchema } from "@trainwise/contract/common";
import {
  advanceSchema,
  attemptProgressSchema,
  attemptStateSchema,
  focusLossSchema,
  quizQuestionListSchema,
  quizQuestionsQuerySchema,
  quizResultSchema,
  quizSubmitResponseSchema,
  quizSubmitSchema,
  saveAnswerSchema,
} from "@trainwise/contract/quiz";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { studentOf } from "../../plugins/auth.ts";
import {
  advanceAttempt,
  currentAttemptState,
  noteFocusLoss,
  resultOf,
  saveAnswer,
  startAttempt,
  startOrResumeAttempt,
  submitAttempt,
} from "./service.ts";

const refusals = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 409: errorBodySchema };

const quizRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", app.requireStudent);

  app.get(
    "/questions",
    {
      schema: {
        tags: ["quiz"],
        summary:
          "Start (or resume) the quiz and take its questions at once, options shuffled, without correctness. " +
          "The drive's test decides how many; `limit` never shortens a quiz.",
        security: [{ bearerAuth: [] }],
        querystring: quizQuestionsQuerySchema,
        response: { 200: quizQuestionListSchema, ...refusals },
      },
    },
    async (request) => (await startOrResumeAttempt(app.db, studentOf(request).id, "all_at_once")).questions,
  );

  app.post(
    "/start",
    {
      schema: {
        tags: ["quiz"],
        summary: "Start (or resume) the quiz question by question: where it stands and the open question",
        security: [{ bearerAuth: [] }],
        response: { 200: attemptStateSchema, ...refusals },
      },
    },
    async (request) => startAttempt(app.db, studentOf(request).id),
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
        summary:
          "Move on to the question at `position` (Next, or the timer running out), saving the answer to the " +
          "question being left when one is sent; answers the question now open",
        security: [{ bearerAuth: [] }],
        body: advanceSchema,
        response: { 200: attemptProgressSchema, ...refusals },
      },
    },
    async (request) => advanceAttempt(app.db, studentOf(request).id, request.body.position, request.body.answer),
  );

  app.post(
    "/focus",
    {
      schema: {
        tags: ["quiz"],
        summary: "Record that the quiz page lost focus or visibility on the question at `position`",
        security: [{ bearerAuth: [] }],
        body: focusLossSchema,
        response: { 204: z.null(), ...refusals },
      },
    },
    async (request, reply) => {
      await noteFocusLoss(app.db, studentOf(request).id, request.body.position);
      return reply.status(204).send(null);
    },
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
    async (request) => submitAttempt(app.db, studentOf(request).id, request.body.answers),
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
