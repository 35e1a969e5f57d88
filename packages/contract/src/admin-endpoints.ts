// The admin area's calls in one table: method, path, query, body and response schema of each. The web app's
// admin client takes its types from here, so no screen declares a payload by hand; the API's routes use the same
// schemas.
import { z } from "zod";
import {
  adminAccountListSchema,
  adminAccountSchema,
  adminInviteResultSchema,
  adminInviteSchema,
  adminRoleChangeSchema,
  adminSessionSchema,
  auditTablePageSchema,
  auditTableQuerySchema,
} from "./admin-roles.ts";
import {
  dashboardSchema,
  driveTablePageSchema,
  driveTableQuerySchema,
  enquiryTablePageSchema,
  enquiryTableQuerySchema,
  feedbackTablePageSchema,
  feedbackTableQuerySchema,
  questionTablePageSchema,
  questionTableQuerySchema,
  resultTablePageSchema,
  resultTableQuerySchema,
  studentTablePageSchema,
  studentTableQuerySchema,
  testTablePageSchema,
  testTableQuerySchema,
} from "./admin-tables.ts";
import { itemAnalysisSchema, retirementInputSchema } from "./analysis.ts";
import { changePasswordSchema } from "./auth.ts";
import { idSchema, messageResponseSchema, optionalText, tokenResponseSchema } from "./common.ts";
import {
  driveChoiceSchema,
  driveInputSchema,
  driveResultSchema,
  driveResultsQuerySchema,
  driveSchema,
  rosterResponseSchema,
  testChoiceSchema,
  testInputSchema,
  testSchema,
} from "./drives.ts";
import { feedbackCreatedSchema, feedbackInputSchema, feedbackSchema, feedbackUpdateSchema } from "./feedback.ts";
import { liveBoardSchema } from "./live-board.ts";
import { mediaUploadSchema } from "./media.ts";
import {
  questionExportQuerySchema,
  questionImportPreviewSchema,
  questionImportQuerySchema,
  questionImportResultSchema,
  questionInputSchema,
  questionListSchema,
  questionRenderInputSchema,
  questionRenderSchema,
  questionSchema,
} from "./questions.ts";
import { accommodationSchema, resultDetailSchema } from "./students.ts";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface AdminEndpoint {
  method: Method;
  /** Under /api; `:id` is filled in from the call's `id`. */
  path: string;
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * The JSON answer, "csv" for a file download (a CSV upload has no `body`: the call sends it as text/csv), or
   * "event-stream" for server-sent events (the events' schemas sit beside the endpoint's payloads).
   */
  response: z.ZodType | "csv" | "event-stream";
}

function endpoint<const E extends AdminEndpoint>(definition: E): E {
  return definition;
}

/** Filters of a CSV export: the table's own, without paging or sorting. */
const exportQuery = <Schema extends z.ZodObject>(schema: Schema) =>
  schema.omit({ page: true, pageSize: true, sort: true, order: true });

const tableAndChangeEndpoints = {
  dashboard: endpoint({ method: "GET", path: "/dashboard", response: dashboardSchema }),

  studentTable: endpoint({
    method: "GET",
    path: "/students/table",
    query: studentTableQuerySchema,
    response: studentTablePageSchema,
  }),
  studentExport: endpoint({
    method: "GET",
    path: "/students/export.csv",
    query: exportQuery(studentTableQuerySchema),
    response: "csv",
  }),
  setTimeMultiplier: endpoint({
    method: "PUT",
    path: "/students/:id/accommodation",
    body: accommodationSchema,
    response: messageResponseSchema,
  }),
  allowAnotherAttempt: endpoint({
    method: "POST",
    path: "/students/:id/extra-attempt",
    response: messageResponseSchema,
  }),
  letResume: endpoint({ method: "POST", path: "/students/:id/let-resume", response: messageResponseSchema }),
  endSessions: endpoint({ method: "POST", path: "/students/:id/end-sessions", response: messageResponseSchema }),

  resultTable: endpoint({
    method: "GET",
    path: "/students/results/table",
    query: resultTableQuerySchema,
    response: resultTablePageSchema,
  }),
  resultExport: endpoint({
    method: "GET",
    path: "/students/results/export.csv",
    query: exportQuery(resultTableQuerySchema),
    response: "csv",
  }),
  resultDetail: endpoint({ method: "GET", path: "/students/results/:id", response: resultDetailSchema }),

  questionTable: endpoint({
    method: "GET",
    path: "/questions/table",
    query: questionTableQuerySchema,
    response: questionTablePageSchema,
  }),
  questionCategories: endpoint({ method: "GET", path: "/questions/categories", response: z.array(z.string()) }),
  createQuestion: endpoint({ method: "POST", path: "/questions", body: questionInputSchema, response: questionSchema }),
  updateQuestion: endpoint({
    method: "PUT",
    path: "/questions/:id",
    body: questionInputSchema,
    response: questionSchema,
  }),
  deleteQuestion: endpoint({ method: "DELETE", path: "/questions/:id", response: messageResponseSchema }),
  importQuestions: endpoint({
    method: "POST",
    path: "/questions/import",
    query: questionImportQuerySchema,
    response: questionImportResultSchema,
  }),
  /** What importing a file would create and every problem with its line; writes nothing. */
  previewQuestionImport: endpoint({
    method: "POST",
    path: "/questions/import/preview",
    query: questionImportQuerySchema,
    response: questionImportPreviewSchema,
  }),
  questionExport: endpoint({ method: "GET", path: "/questions/export.csv", response: "csv" }),
  /** The bank, or one category of it, in CSV, GIFT, Aiken or Moodle XML (a file download). */
  questionExportAs: endpoint({
    method: "GET",
    path: "/questions/export",
    query: questionExportQuerySchema,
    response: "csv",
  }),
  /** The editor's live preview: question and option Markdown rendered and sanitised as students will see it. */
  renderQuestion: endpoint({
    method: "POST",
    path: "/questions/render",
    body: questionRenderInputSchema,
    response: questionRenderSchema,
  }),
  /**
   * Upload an image (the raw bytes, sent with its Content-Type: PNG, JPEG, WebP or GIF, at most 2 MB); answers 201
   * with its address and the Markdown that shows it.
   */
  uploadMedia: endpoint({ method: "POST", path: "/media", response: mediaUploadSchema }),
  questionTemplate: endpoint({ method: "GET", path: "/questions/template.csv", response: "csv" }),
  questionBank: endpoint({ method: "GET", path: "/questions", response: questionListSchema }),

  feedbackTable: endpoint({
    method: "GET",
    path: "/feedback/table",
    query: feedbackTableQuerySchema,
    response: feedbackTablePageSchema,
  }),
  createFeedback: endpoint({
    method: "POST",
    path: "/feedback",
    body: feedbackInputSchema,
    response: feedbackCreatedSchema,
  }),
  setFeedbackHidden: endpoint({
    method: "PATCH",
    path: "/feedback/:id",
    body: feedbackUpdateSchema,
    response: feedbackSchema,
  }),
  deleteFeedback: endpoint({ method: "DELETE", path: "/feedback/:id", response: messageResponseSchema }),
  feedbackExport: endpoint({
    method: "GET",
    path: "/feedback/export.csv",
    query: exportQuery(feedbackTableQuerySchema),
    response: "csv",
  }),

  enquiryTable: endpoint({
    method: "GET",
    path: "/contact/table",
    query: enquiryTableQuerySchema,
    response: enquiryTablePageSchema,
  }),
  enquiryExport: endpoint({
    method: "GET",
    path: "/contact/export.csv",
    query: exportQuery(enquiryTableQuerySchema),
    response: "csv",
  }),

  tests: endpoint({ method: "GET", path: "/tests", response: z.array(testSchema) }),
  testTable: endpoint({
    method: "GET",
    path: "/tests/table",
    query: testTableQuerySchema,
    response: testTablePageSchema,
  }),
  /** Current tests for a picker, by name. */
  testChoices: endpoint({ method: "GET", path: "/tests/choices", response: z.array(testChoiceSchema) }),
  createTest: endpoint({ method: "POST", path: "/tests", body: testInputSchema, response: testSchema }),
  updateTest: endpoint({ method: "PUT", path: "/tests/:id", body: testInputSchema, response: testSchema }),
  archiveTest: endpoint({ method: "POST", path: "/tests/:id/archive", response: messageResponseSchema }),
  drives: endpoint({ method: "GET", path: "/drives", response: z.array(driveSchema) }),
  driveTable: endpoint({
    method: "GET",
    path: "/drives/table",
    query: driveTableQuerySchema,
    response: driveTablePageSchema,
  }),
  /** Current drives for a filter, by name. */
  driveChoices: endpoint({ method: "GET", path: "/drives/choices", response: z.array(driveChoiceSchema) }),
  drive: endpoint({ method: "GET", path: "/drives/:id", response: driveSchema }),
  createDrive: endpoint({ method: "POST", path: "/drives", body: driveInputSchema, response: driveSchema }),
  updateDrive: endpoint({ method: "PUT", path: "/drives/:id", body: driveInputSchema, response: driveSchema }),
  closeDrive: endpoint({ method: "POST", path: "/drives/:id/close", response: messageResponseSchema }),
  reopenDrive: endpoint({ method: "POST", path: "/drives/:id/reopen", response: messageResponseSchema }),
  archiveDrive: endpoint({ method: "POST", path: "/drives/:id/archive", response: messageResponseSchema }),
  replaceRoster: endpoint({ method: "PUT", path: "/drives/:id/roster", response: rosterResponseSchema }),
  driveResults: endpoint({
    method: "GET",
    path: "/drives/:id/results",
    query: driveResultsQuerySchema,
    response: z.array(driveResultSchema),
  }),
  driveResultsExport: endpoint({ method: "GET", path: "/drives/:id/results.csv", response: "csv" }),
  driveLive: endpoint({ method: "GET", path: "/drives/:id/live", response: liveBoardSchema }),
  driveLiveStream: endpoint({ method: "GET", path: "/drives/:id/live/stream", response: "event-stream" }),
  driveAnalysis: endpoint({ method: "GET", path: "/drives/:id/analysis", response: itemAnalysisSchema }),
  driveAnalysisExport: endpoint({ method: "GET", path: "/drives/:id/analysis.csv", response: "csv" }),
  testAnalysis: endpoint({ method: "GET", path: "/tests/:id/analysis", response: itemAnalysisSchema }),
  testAnalysisExport: endpoint({ method: "GET", path: "/tests/:id/analysis.csv", response: "csv" }),
  setQuestionRetired: endpoint({
    method: "PUT",
    path: "/analysis/questions/:id/retirement",
    body: retirementInputSchema,
    response: messageResponseSchema,
  }),

  changePassword: endpoint({
    method: "POST",
    path: "/auth/admin/password",
    body: changePasswordSchema,
    response: tokenResponseSchema,
  }),
  session: endpoint({ method: "GET", path: "/auth/admin/session", response: adminSessionSchema }),
  logout: endpoint({ method: "POST", path: "/auth/admin/logout", response: messageResponseSchema }),

  admins: endpoint({ method: "GET", path: "/admins", response: adminAccountListSchema }),
  inviteAdmin: endpoint({
    method: "POST",
    path: "/admins",
    body: adminInviteSchema,
    response: adminInviteResultSchema,
  }),
  changeAdminRole: endpoint({
    method: "PUT",
    path: "/admins/:id/role",
    body: adminRoleChangeSchema,
    response: adminAccountSchema,
  }),
  renewInvitation: endpoint({ method: "POST", path: "/admins/:id/invitation", response: adminInviteResultSchema }),
  disableAdmin: endpoint({ method: "POST", path: "/admins/:id/disable", response: adminAccountSchema }),
  enableAdmin: endpoint({ method: "POST", path: "/admins/:id/enable", response: adminAccountSchema }),
  auditTable: endpoint({
    method: "GET",
    path: "/audit",
    query: auditTableQuerySchema,
    response: auditTablePageSchema,
  }),
};

type TableAndChangeEndpoints = typeof tableAndChangeEndpoints;
/** The names of the endpoints that answer with a file download. */
export type DownloadName = {
  [Name in keyof TableAndChangeEndpoints]: TableAndChangeEndpoints[Name]["response"] extends "csv" ? Name : never;
}[keyof TableAndChangeEndpoints];

/** Every file download, each of which a download ticket may name (decision 022). */
export const DOWNLOAD_NAMES = [
  "studentExport",
  "resultExport",
  "questionExport",
  "questionExportAs",
  "questionTemplate",
  "feedbackExport",
  "enquiryExport",
  "driveResultsExport",
  "driveAnalysisExport",
  "testAnalysisExport",
] as const satisfies readonly DownloadName[];

/**
 * A ticket for one download: the export, the id its path names, and its query string. The browser goes to the
 * address it answers, which works once, within a minute, for the admin who asked (decision 022).
 */
export const downloadTicketInputSchema = z.object({
  export: z.enum(DOWNLOAD_NAMES, { error: "export must name one of the downloads" }),
  id: idSchema.optional(),
  query: optionalText("query", 2000).optional(),
});
export type DownloadTicketInput = z.input<typeof downloadTicketInputSchema>;
export const downloadTicketSchema = z.object({ url: z.string(), expiresAt: z.iso.datetime() });

export const adminEndpoints = {
  ...tableAndChangeEndpoints,
  downloadTicket: endpoint({
    method: "POST",
    path: "/downloads",
    body: downloadTicketInputSchema,
    response: downloadTicketSchema,
  }),
};

export type AdminEndpoints = typeof adminEndpoints;
export type AdminEndpointName = keyof AdminEndpoints;

/** What a call sends in its query string (as the screen writes it, before defaults). */
export type QueryOf<Name extends AdminEndpointName> = AdminEndpoints[Name] extends { query: infer Q extends z.ZodType }
  ? z.input<Q>
  : never;
/** The JSON body a call sends. */
export type BodyOf<Name extends AdminEndpointName> = AdminEndpoints[Name] extends { body: infer B extends z.ZodType }
  ? z.input<B>
  : never;
/** What a call answers. */
export type ResponseOf<Name extends AdminEndpointName> = AdminEndpoints[Name] extends {
  response: infer R extends z.ZodType;
}
  ? z.output<R>
  : never;
/** Whether the path names an `:id`. */
export type HasId<Name extends AdminEndpointName> = AdminEndpoints[Name]["path"] extends `${string}:id${string}`
  ? true
  : false;
