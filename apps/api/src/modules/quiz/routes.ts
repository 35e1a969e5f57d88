// /api/quiz/*: the student's attempt. Every route needs a student token (the contract says so; serve applies it).
import type { FastifyPluginAsync } from "fastify";
import { serve } from "../../http/serve-endpoint.ts";
import { type RegistrationNamed, registrationNamedKey } from "../../limits/per-registration.ts";
import { studentOf } from "../../plugins/auth.ts";
import { guardedLookup, lastingResults } from "./lasting-results.ts";
import {
  advanceAttempt,
  changePalette,
  currentAttemptState,
  leaveSection,
  noteFocusLoss,
  noteFullScreenExit,
  quizIntro,
  resultOf,
  saveAnswer,
  startAttempt,
  startOrResumeAttempt,
  submitAttempt,
} from "./service.ts";

const quizRoutes: FastifyPluginAsync = async (app) => {
  serve(
    app,
    "quizQuestions",
    async (request) => (await startOrResumeAttempt(app.db, studentOf(request).id, "all_at_once")).questions,
  );
  serve(app, "quizIntro", async (request) => quizIntro(app.db, studentOf(request).id));
  serve(app, "startQuiz", async (request) => startAttempt(app.db, studentOf(request).id));
  serve(app, "quizAttempt", async (request) => currentAttemptState(app.db, studentOf(request).id));
  serve(app, "saveAnswer", async (request) => saveAnswer(app.db, studentOf(request).id, request.body));
  serve(app, "nextQuestion", async (request) =>
    advanceAttempt(app.db, studentOf(request).id, request.body.position, request.body.answer),
  );
  serve(app, "changePalette", async (request) => changePalette(app.db, studentOf(request).id, request.body));
  serve(app, "leaveSection", async (request) => leaveSection(app.db, studentOf(request).id, request.body));
  serve(app, "reportFullScreenExit", async (request) => {
    await noteFullScreenExit(app.db, studentOf(request).id);
    return null;
  });
  serve(app, "reportFocusLoss", async (request) => noteFocusLoss(app.db, studentOf(request).id, request.body.position));
  // Public: the lasting way back to one's results (decision 026). Counted per registration named, not per address
  // (decision 036): a college behind one address reads its results after the drive; wrong lookups are slowed per
  // address by the lookup's guesses limit.
  const lookUp = guardedLookup(app.counters);
  serve(
    app,
    "studentResults",
    async (request, reply) => lastingResults(app.db, await lookUp(app.db, request.ip, reply, request.body)),
    {
      config: {
        rateLimit: {
          max: app.config.registrationRateLimit,
          timeWindow: 10 * 60_000,
          hook: "preHandler",
          keyGenerator: (request) => registrationNamedKey("results-lookup", request.body as RegistrationNamed),
        },
      },
    },
  );
  serve(app, "submitQuiz", async (request) => submitAttempt(app.db, studentOf(request).id, request.body.answers));
  serve(app, "quizResult", async (request) => resultOf(app.db, studentOf(request).id, request.params.id));
};

export default quizRoutes;
