// Examiners: the question bank (its answer key is not for viewers), its files and its images. Item analysis is
// read by viewers too, without the key until its drives release it (decision 027); its CSV and retiring are
// examiners'.
import { z } from "zod";
import { questionTablePageSchema, questionTableQuerySchema } from "../admin-tables.ts";
import { itemAnalysisSchema, retirementInputSchema } from "../analysis.ts";
import { listOf, messageResponseSchema } from "../common.ts";
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, MAX_MEDIA_BYTES, MEDIA_TYPES, mediaUploadSchema } from "../media.ts";
import {
  IMPORT_LIMITS,
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
} from "../questions.ts";

import { admin, endpoint } from "./definition.ts";

const QUESTION_FILE_TYPES = ["text/csv", "text/plain", "application/xml"] as const;
const questionFile = z.string({ error: "Send the file as text (text/csv, text/plain or application/xml)" });
const uploadLimits =
  `At most ${IMPORT_LIMITS.rows} questions and ${IMPORT_LIMITS.bytes / 1024 / 1024} MB a file, no line over ` +
  `${IMPORT_LIMITS.lineBytes / 1024} KB.`;

export const questionEndpoints = {
  questionBank: endpoint({
    method: "GET",
    path: "/questions",
    access: admin("examiner"),
    summary: "Active questions with their options, newest first; optional filters and paging",
    description: "With `page`, the total number of matching questions is in the X-Total-Count header.",
    query: questionListQuerySchema,
    response: questionListSchema,
  }),
  questionTable: endpoint({
    method: "GET",
    path: "/questions/table",
    access: admin("examiner"),
    summary: "One page of the question bank table: search the text; filter by category and difficulty; sort",
    query: questionTableQuerySchema,
    response: questionTablePageSchema,
  }),
  questionCategories: endpoint({
    method: "GET",
    path: "/questions/categories",
    access: admin("examiner"),
    summary: "The categories in use",
    response: listOf(z.string()),
  }),
  createQuestion: endpoint({
    method: "POST",
    path: "/questions",
    access: admin("examiner", "question.create"),
    summary: "Create a question",
    body: questionInputSchema,
    status: 201,
    response: questionSchema,
  }),
  updateQuestion: endpoint({
    method: "PUT",
    path: "/questions/:id",
    access: admin("examiner", "question.update"),
    summary: "Change a question (one already asked is replaced by a new version)",
    body: questionInputSchema,
    response: questionSchema,
  }),
  deleteQuestion: endpoint({
    method: "DELETE",
    path: "/questions/:id",
    access: admin("examiner", "question.delete"),
    summary: "Delete a question (archived instead when results refer to it)",
    response: messageResponseSchema,
  }),
  /** The editor's live preview: question and option Markdown rendered and sanitised as students will see it. */
  renderQuestion: endpoint({
    method: "POST",
    path: "/questions/render",
    access: admin("examiner"),
    summary: "The editor's live preview: question and option Markdown as students will see it, sanitised",
    body: questionRenderInputSchema,
    response: questionRenderSchema,
  }),
  questionExport: endpoint({
    method: "GET",
    path: "/questions/export.csv",
    access: admin("examiner", "export.questions"),
    summary: "The whole active bank as CSV, streamed",
    response: "file",
  }),
  /** The bank, or one category of it, in CSV, GIFT, Aiken or Moodle XML (a file download). */
  questionExportAs: endpoint({
    method: "GET",
    path: "/questions/export",
    access: admin("examiner", "export.questions"),
    summary: "The active bank, or the questions a filter picks, as CSV, GIFT, Aiken or Moodle XML",
    description:
      "Aiken holds one-line single-answer and true/false questions only: multiple-answer questions and questions " +
      "whose text has more than one line (a code block) are left out of it, and the `X-Questions-Left-Out` header " +
      "counts them (decision 018). Moodle XML carries its images inside the file and uses only question types a " +
      "stock Moodle has; `X-Questions-Marked-Differently` counts the all-or-nothing questions a stock Moodle marks " +
      "otherwise (each has a comment in the file), and `multichoiceset=true` writes them as that plugin's type.",
    query: questionExportQuerySchema,
    response: "file",
  }),
  questionTemplate: endpoint({
    method: "GET",
    path: "/questions/template.csv",
    access: admin("examiner"),
    summary: "An example CSV to fill in",
    response: "file",
  }),
  /** What importing a file would create and every problem with its line; writes nothing. */
  previewQuestionImport: endpoint({
    method: "POST",
    path: "/questions/import/preview",
    access: admin("examiner"),
    summary: "What importing a file would create, and every problem with its line; writes nothing",
    description: `CSV, GIFT, Aiken or Moodle XML (\`format\`, or detected). ${uploadLimits}`,
    query: questionImportQuerySchema,
    consumes: QUESTION_FILE_TYPES,
    body: questionFile,
    response: questionImportPreviewSchema,
  }),
  importQuestions: endpoint({
    method: "POST",
    path: "/questions/import",
    access: admin("examiner", "question.import"),
    summary: "Import questions from a file, all or nothing unless the admin confirmed what to leave out",
    description:
      `CSV, GIFT, Aiken or Moodle XML (\`format\`, or detected). ${uploadLimits} A refusal lists the first ` +
      `${IMPORT_LIMITS.listedErrors} problems and counts them all. What the preview showed must be confirmed, or ` +
      "nothing is imported: questions with a problem are left out with `skipInvalid=true`, questions of kinds the " +
      "bank does not hold with `skipUnsupported=true`, and questions with losses (a sound, an image from elsewhere) " +
      "are imported without them with `acceptLosses=true`.",
    query: questionImportQuerySchema,
    consumes: QUESTION_FILE_TYPES,
    body: questionFile,
    status: 201,
    response: questionImportResultSchema,
  }),
  /**
   * Upload an image (the raw bytes, sent with its Content-Type: PNG, JPEG, WebP or GIF, at most 2 MB); answers 201
   * with its address and the Markdown that shows it.
   */
  uploadMedia: endpoint({
    method: "POST",
    path: "/media",
    access: admin("examiner", "media.upload"),
    summary: "Upload an image for a question: the raw bytes with their Content-Type",
    description:
      `PNG, JPEG, WebP or GIF, at most ${MAX_MEDIA_BYTES / 1024 / 1024} MB and ${MAX_IMAGE_SIDE} pixels a side, ` +
      `${MAX_IMAGE_PIXELS / 1_000_000} megapixels in all; the bytes must be of the type sent. Answers the image's ` +
      "address (the SHA-256 of its bytes), its size in pixels and the Markdown that shows it.",
    consumes: Object.keys(MEDIA_TYPES) as (keyof typeof MEDIA_TYPES)[],
    status: 201,
    response: mediaUploadSchema,
  }),
  driveAnalysis: endpoint({
    method: "GET",
    path: "/drives/:id/analysis",
    access: admin("viewer"),
    summary:
      "Item analysis of the drive's submitted attempts: facility, discrimination, option choices, flags, sections",
    response: itemAnalysisSchema,
  }),
  driveAnalysisExport: endpoint({
    method: "GET",
    path: "/drives/:id/analysis.csv",
    access: admin("examiner", "export.item-analysis"),
    summary: "The drive's item analysis, one line per question, as CSV",
    response: "file",
  }),
  testAnalysis: endpoint({
    method: "GET",
    path: "/tests/:id/analysis",
    access: admin("viewer"),
    summary:
      "Item analysis of the test's submitted attempts: facility, discrimination, option choices, flags, sections",
    response: itemAnalysisSchema,
  }),
  testAnalysisExport: endpoint({
    method: "GET",
    path: "/tests/:id/analysis.csv",
    access: admin("examiner", "export.item-analysis"),
    summary: "The test's item analysis, one line per question, as CSV",
    response: "file",
  }),
  setQuestionRetired: endpoint({
    method: "PUT",
    path: "/analysis/questions/:id/retirement",
    access: admin("examiner", "question.retirement"),
    summary: "Retire a question (never drawn again, marked in reports) or bring it back",
    body: retirementInputSchema,
    response: messageResponseSchema,
  }),
};
