// The calls of a registered student (their token): sitting the attempt (where the drive's exam-room rules apply), its
// result and its certificate.
import { z } from "zod";
import {
  advanceSchema,
  attemptProgressSchema,
  attemptStateSchema,
  focusLossNotedSchema,
  focusLossSchema,
  heartbeatReplySchema,
  leaveSectionSchema,
  paletteChangeSchema,
  quizIntroSchema,
  quizQuestionListSchema,
  quizQuestionsQuerySchema,
  quizResultSchema,
  quizSubmitResponseSchema,
  quizSubmitSchema,
  saveAnswerSchema,
} from "../quiz.ts";

import { endpoint, sitting, student } from "./definition.ts";

export const studentEndpoints = {
  quizQuestions: endpoint({
    method: "GET",
    path: "/quiz/questions",
    access: sitting,
    summary:
      "Start (or resume) the quiz and take its questions at once, options shuffled, without correctness. The " +
      "drive's test decides how many; `limit` never shortens a quiz.",
    query: quizQuestionsQuerySchema,
    response: quizQuestionListSchema,
  }),
  quizIntro: endpoint({
    method: "GET",
    path: "/quiz/intro",
    access: sitting,
    summary:
      "What the student is about to sit, before any clock runs: the test's rules, and whether an attempt is " +
      "running, not started or none is left (with the latest result)",
    response: quizIntroSchema,
  }),
  startQuiz: endpoint({
    method: "POST",
    path: "/quiz/start",
    access: sitting,
    summary: "Start (or resume) the quiz question by question: where it stands and the open question",
    response: attemptStateSchema,
  }),
  quizNotices: endpoint({
    method: "GET",
    path: "/quiz/notices",
    access: sitting,
    summary:
      "What invigilators tell the student's screen, as server-sent events (`notice`): the drive's latest messages " +
      "first, then each message and each time added within about a second, and a comment line as a heartbeat",
    response: "event-stream",
  }),
  quizAttempt: endpoint({
    method: "GET",
    path: "/quiz/attempt",
    access: sitting,
    summary: "Where the student stands: current question, seconds left, saved answers",
    response: attemptStateSchema,
  }),
  saveAnswer: endpoint({
    method: "PUT",
    path: "/quiz/answers",
    access: sitting,
    summary: "Save the answer to the open question",
    body: saveAnswerSchema,
    response: attemptProgressSchema,
  }),
  nextQuestion: endpoint({
    method: "POST",
    path: "/quiz/next",
    access: sitting,
    summary:
      "Move on to the question at `position` (Next, or the timer running out), saving the answer to the question " +
      "being left when one is sent; answers the question now open",
    body: advanceSchema,
    response: attemptProgressSchema,
  }),
  changePalette: endpoint({
    method: "PUT",
    path: "/quiz/palette",
    access: sitting,
    summary:
      "On a quiz timed as a whole: note that the student opened the question at `position`, and mark it for " +
      "review, unmark it, or clear its answer; answers where the attempt stands on the server's clock",
    body: paletteChangeSchema,
    response: attemptProgressSchema,
  }),
  leaveSection: endpoint({
    method: "POST",
    path: "/quiz/section/next",
    access: sitting,
    summary:
      "On a test timed per section: close the open section (Leave section, or its clock running out) and open the " +
      "next; answers where the attempt now stands. A section already left is not left again",
    body: leaveSectionSchema,
    response: attemptStateSchema,
  }),
  reportFocusLoss: endpoint({
    method: "POST",
    path: "/quiz/focus",
    access: sitting,
    summary:
      "Record that the quiz page lost focus or visibility on the question at `position`; at the drive's focus-loss " +
      "limit, when the drive says so, the attempt is submitted",
    body: focusLossSchema,
    response: focusLossNotedSchema,
  }),
  reportFullScreenExit: endpoint({
    method: "POST",
    path: "/quiz/full-screen/exit",
    access: sitting,
    summary: "Record that the quiz page left full screen, on a drive that asks for it, while the attempt runs",
    status: 204,
    response: z.null(),
  }),
  heartbeat: endpoint({
    method: "POST",
    path: "/quiz/heartbeat",
    access: sitting,
    summary:
      "The quiz page is still there (decision 040), on a drive with disconnect credits: a page silent for longer " +
      "than the drive's grace gets the time lost beyond it back now, up to the drive's most",
    response: heartbeatReplySchema,
  }),
  submitQuiz: endpoint({
    method: "POST",
    path: "/quiz/submit",
    access: sitting,
    summary: "Submit the quiz; submitting again returns the same result",
    body: quizSubmitSchema,
    response: quizSubmitResponseSchema,
  }),
  quizResult: endpoint({
    method: "GET",
    path: "/quiz/result/:id",
    access: student,
    summary: "The student's own result: score, total, and per question whether the answer was right",
    response: quizResultSchema,
  }),
  certificate: endpoint({
    method: "GET",
    path: "/certificates/:id",
    access: student,
    summary: "The PDF certificate of the student's own passing result",
    response: "file",
  }),
  scorecard: endpoint({
    method: "GET",
    path: "/quiz/result/:id/scorecard",
    access: student,
    summary:
      "The PDF scorecard of the student's own result once its score is out: marks, result, and rank and percentile " +
      "once the drive has settled",
    response: "file",
  }),
};
