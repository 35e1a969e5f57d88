// /api/quiz/*: the student's attempt. Every route needs a student token (the contract says so; serve applies it).
import type { HeartbeatReply } from "@trainwise/contract/quiz";
import type { FastifyPluginAsync } from "fastify";
import { HttpError } from "../../http/http-error.ts";
import { serve } from "../../http/serve-endpoint.ts";
import { takeBackProved } from "../../limits/per-registration.ts";
import { SESSION_EXPIRED, studentOf } from "../../plugins/auth.ts";
import { hearFrom, NOTHING_GIVEN } from "./disconnects.ts";
import { guardedLookup, lastingResults } from "./lasting-results.ts";
import { noticeStreams } from "./notice-stream.ts";
import { driveOfStudent } from "./notices.ts";
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

declare module "fastify" {
  interface FastifyRequest {
    /** What hearing the student gave back before the route ran (decision 040); undefined when nothing was heard. */
    heard?: HeartbeatReply;
  }
}

const quizRoutes: FastifyPluginAsync = async (app) => {
  // On a drive that gives lost connections their time back, every request while sitting the test is heard first
  // (decision 040): a silence ends with whatever the student sends or asks for, and its time comes back before the
  // request is served, so an answer sent again first neither ends it unmeasured nor lands on the old clock.
  app.addHook("preHandler", async (request) => {
    if (request.student?.sitting?.givesTimeBack) request.heard = await hearFrom(app.db, request.student.id);
  });
  serve(
    app,
    "quizQuestions",
    async (request) => (await startOrResumeAttempt(app.db, studentOf(request).id, "all_at_once")).questions,
  );
  serve(app, "quizIntro", async (request) => quizIntro(app.db, studentOf(request).id));
  serve(app, "startQuiz", async (request) => startAttempt(app.db, studentOf(request).id));
  const openNotices = noticeStreams(app);
  serve(app, "quizNotices", async (request, reply) => {
    const driveId = await driveOfStudent(app.db, studentOf(request).id);
    if (!driveId) throw new HttpError(401, SESSION_EXPIRED);
    return openNotices(request, reply, driveId);
  });
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
  serve(app, "heartbeat", async (request) => request.heard ?? NOTHING_GIVEN);
  serve(app, "reportFocusLoss", async (request) => noteFocusLoss(app.db, studentOf(request).id, request.body.position));
  // Public: the lasting way back to one's results (decision 026), limited per address as link lookups are; a lookup
  // that finds the registration is taken back, so a college behind one address reads all its results (decision 036).
  const lookUp = guardedLookup(app.counters);
  serve(
    app,
    "studentResults",
    async (request, reply) => {
      const found = await lookUp(app.db, request.ip, reply, request.body);
      await takeBackProved(app.counters, request);
      return lastingResults(app.db, found);
    },
    { config: { rateLimit: { max: app.config.registrationRateLimit, timeWindow: 10 * 60_000 } } },
  );
  serve(app, "submitQuiz", async (request) => submitAttempt(app.db, studentOf(request).id, request.body.answers));
  serve(app, "quizResult", async (request) => resultOf(app.db, studentOf(request).id, request.params.id));
};

export default quizRoutes;
