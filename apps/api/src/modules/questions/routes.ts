// /api/questions: the question bank (admin).

import {
  type BankFormat,
  IMPORT_LIMITS,
  QUESTION_CSV_COLUMNS,
  type QuestionImportQuery,
  type QuestionInput,
} from "@trainwise/contract/questions";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { sendCsv, sendDownload, streamCsv } from "../../csv/reply.ts";
import { acceptTextUploads } from "../../csv/text-upload.ts";
import { HttpError } from "../../http/http-error.ts";
import { serve } from "../../http/serve-endpoint.ts";
import { Turns } from "../../http/turns.ts";
import { adminOf } from "../../plugins/auth.ts";
import { renderOptionText, renderQuestionText } from "../../rich-text/render.ts";
import { OffThreadRenderer, questionRenderJobs } from "../../rich-text/render-off-thread.ts";
import { aikenParts } from "./formats/aiken.ts";
import type { FileOutcome } from "./formats/bank-file.ts";
import { detectFormat, EXPORTS } from "./formats/bank-formats.ts";
import { BankReader } from "./formats/bank-reader.ts";
import { QUESTION_CSV_TEMPLATE, questionCsvRow } from "./formats/csv.ts";
import { giftParts } from "./formats/gift.ts";
import { moodleXmlParts } from "./formats/moodle-xml.ts";
import {
  archiveOrDeleteQuestion,
  createQuestions,
  imagesShownBy,
  importQuestions,
  listCategories,
  listQuestions,
  questionBatches,
  questionTable,
  toQuestionResponse,
  updateQuestion,
} from "./repository.ts";

/** An export file's parts joined by line breaks, letting other requests in as it writes (http/turns.ts). */
async function joinInTurns(parts: Iterable<string>): Promise<string> {
  const written: string[] = [];
  const turns = new Turns();
  for (const part of parts) {
    written.push(part);
    if (turns.due()) await turns.pass();
  }
  return written.join("\n");
}

const questionRoutes: FastifyPluginAsync = async (app) => {
  // An uploaded question file arrives as text in any of the formats; past the limit it is refused with 413.
  app.removeContentTypeParser("text/plain");
  acceptTextUploads(app, ["text/csv", "text/plain", "application/xml", "text/xml"], IMPORT_LIMITS.bytes);
  app.addContentTypeParser("*", (_request, _payload, done) =>
    done(new HttpError(415, "Send JSON, or a question file as text/csv, text/plain or application/xml in UTF-8.")),
  );

  // Files are read in a worker thread, so no file holds the server for anyone else (bank-reader.ts).
  const reader = new BankReader();
  app.addHook("onClose", () => reader.close());
  // New texts are rendered in another before a request reads them (render-off-thread.ts).
  const renderer = new OffThreadRenderer();
  app.addHook("onClose", () => renderer.close());
  const jobsOf = (question: QuestionInput) =>
    questionRenderJobs(
      question.text,
      question.options.map((option) => option.text),
    );

  /** The format of an upload: a file sent as text/csv is CSV, as it always was; any other as named or detected. */
  function formatOf(body: string, query: QuestionImportQuery, contentType: string | undefined): BankFormat {
    return query.format ?? (contentType?.startsWith("text/csv") ? "csv" : detectFormat(body));
  }

  /** Refuses the whole file when it could not be read at all. */
  function bankOf(outcome: FileOutcome) {
    if (!outcome.ok) throw new HttpError(outcome.status, outcome.message, { file: outcome.message });
    return outcome.bank;
  }

  serve(app, "questionBank", async (request, reply) => {
    const { questions, total } = await listQuestions(app.db, request.query);
    reply.header("x-total-count", String(total));
    return questions.map(toQuestionResponse);
  });

  serve(app, "questionTable", async (request) => questionTable(app.db, request.query));

  serve(app, "questionCategories", async () => listCategories(app.db));

  serve(app, "createQuestion", async (request) => {
    await renderer.prerender(jobsOf(request.body));
    const [created] = await createQuestions(app.db, [request.body]);
    if (!created) throw new Error("The question was not created.");
    return toQuestionResponse(created);
  });

  serve(app, "renderQuestion", async (request) => {
    await renderer.prerender(questionRenderJobs(request.body.text, request.body.options));
    return { html: renderQuestionText(request.body.text), options: request.body.options.map(renderOptionText) };
  });

  serve(app, "updateQuestion", async (request) => {
    await renderer.prerender(jobsOf(request.body));
    const updated = await updateQuestion(app.db, request.params.id, request.body);
    if (!updated) throw new HttpError(404, "Question not found.");
    return toQuestionResponse(updated);
  });

  serve(app, "deleteQuestion", async (request) => {
    const outcome = await archiveOrDeleteQuestion(app.db, request.params.id);
    if (outcome === "not-found") throw new HttpError(404, "Question not found.");
    return { message: "Question deleted." };
  });

  /** The bank (or what the filters pick) as our CSV, streamed batch by batch, grouped by category. */
  const streamBankCsv = (reply: FastifyReply, filters: Parameters<typeof questionBatches>[1]) =>
    streamCsv(reply, EXPORTS.csv.fileName, QUESTION_CSV_COLUMNS, questionBatches(app.db, filters), questionCsvRow);

  serve(app, "questionExport", async (_request, reply) => streamBankCsv(reply, {}));

  serve(app, "questionExportAs", async (request, reply) => {
    const { format, multichoiceset, ...filters } = request.query;
    if (format === "csv") return streamBankCsv(reply, filters);
    // GIFT, Aiken and Moodle XML are written whole (a bank is at most thousands of questions).
    const { questions } = await listQuestions(app.db, filters);
    // Grouped by category, so GIFT and Moodle XML name each category once.
    questions.sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
    const file = EXPORTS[format];
    if (format === "moodle-xml") {
      // Moodle cannot reach our media: the images the questions show travel inside the file.
      const images = await imagesShownBy(app.db, questions);
      const tally = { markedDifferently: 0 };
      const xml = await joinInTurns(moodleXmlParts(questions, { multichoiceset, images }, tally));
      reply.header("x-questions-marked-differently", String(tally.markedDifferently));
      return sendDownload(reply, file, xml);
    }
    if (format === "gift") return sendDownload(reply, file, await joinInTurns(giftParts(questions)));
    // Counted as the file is written: telling what Aiken cannot carry reads every text as plain text.
    const tally = { leftOut: 0 };
    const aiken = await joinInTurns(aikenParts(questions, tally));
    reply.header("x-questions-left-out", String(tally.leftOut));
    return sendDownload(reply, file, aiken);
  });

  serve(app, "questionTemplate", async (_request, reply) =>
    sendCsv(reply, "questions-template.csv", QUESTION_CSV_TEMPLATE),
  );

  serve(app, "previewQuestionImport", async (request, reply) => {
    const { query } = request;
    const format = formatOf(request.body, query, request.headers["content-type"]);
    const read = await reader.preview(request.body, format, { category: query.category, difficulty: query.difficulty });
    if (!read.ok) throw new HttpError(read.status, read.message, { file: read.message });
    // Checked against the contract and written as JSON in the worker: sent as it is.
    return reply.type("application/json; charset=utf-8").send(read.json);
  });

  serve(app, "importQuestions", async (request) => {
    const { query } = request;
    const format = formatOf(request.body, query, request.headers["content-type"]);
    const bank = bankOf(
      await reader.read(request.body, format, { category: query.category, difficulty: query.difficulty }),
    );
    // Each kind of question the admin must have seen in the preview before it is imported: those with a problem
    // (left out only when asked), of kinds the bank does not hold (left out only when asked), with losses
    // (imported without what they lose only when asked). Without the confirmations the import is all or nothing.
    if (bank.problemCount > 0 && !query.skipInvalid) {
      const listed = bank.problemCount > bank.problems.length ? ` (the first ${bank.problems.length} are listed)` : "";
      const counted = bank.problemCount === 1 ? "1 problem" : `${bank.problemCount} problems`;
      const fields: Record<string, string> = {};
      for (const problem of bank.problems) {
        const key = `line ${problem.line}`;
        fields[key] = fields[key] ? `${fields[key]}; ${problem.message}` : problem.message;
      }
      throw new HttpError(400, `Nothing was imported: ${counted} in the file${listed}.`, fields);
    }
    if (bank.unsupported.length > 0 && !query.skipUnsupported) {
      const kinds = [...new Set(bank.unsupported.map((question) => question.kind))].join(", ");
      const message = `Nothing was imported: ${bank.unsupported.length} question${bank.unsupported.length === 1 ? " is" : "s are"} of a kind the bank does not hold (${kinds}). Confirm to import the rest without them.`;
      const fields: Record<string, string> = {};
      for (const question of bank.unsupported) fields[`line ${question.line}`] = `${question.kind}: not imported`;
      throw new HttpError(400, message, fields);
    }
    const withLosses = bank.questions.filter((entry) => entry.losses);
    if (withLosses.length > 0 && !query.acceptLosses) {
      const message = `Nothing was imported: ${withLosses.length} question${withLosses.length === 1 ? " shows" : "s show"} something the bank cannot hold. Confirm to import ${withLosses.length === 1 ? "it" : "them"} without it.`;
      const fields: Record<string, string> = {};
      for (const entry of withLosses) fields[`line ${entry.line}`] = (entry.losses ?? []).join("; ");
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
    // The counts a file without problems or losses has no use for stay out, as the answer was before them.
    return {
      imported: bank.questions.length,
      skipped: bank.unsupported.length,
      ...(bank.problemCount > 0 ? { invalid: bank.problemCount } : {}),
      ...(withLosses.length > 0 ? { withLosses: withLosses.length } : {}),
    };
  });
};

export default questionRoutes;
