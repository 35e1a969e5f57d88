// Every call of the API in one table: method, path, who may call it (and, for an admin change, the audit action it
// is recorded under), its query, body and answer. The API registers its routes from this table and derives its
// access rule book from it; the web app makes every call through it; a test fails when a served route is missing
// here or an entry here is not served. An endpoint is declared here and nowhere else.
import { z } from "zod";
import {
  type AdminRole,
  type AuditAction,
  acceptInviteSchema,
  adminAccountListSchema,
  adminAccountSchema,
  adminInviteResultSchema,
  adminInviteSchema,
  adminRoleChangeSchema,
  adminSessionSchema,
  auditTablePageSchema,
  auditTableQuerySchema,
  invitationSchema,
  inviteTokenParamsSchema,
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
import {
  adminLoginSchema,
  changePasswordSchema,
  registrationResponseSchema,
  studentRegistrationSchema,
} from "./auth.ts";
import { certificateCodeParamsSchema, certificateVerificationSchema } from "./certificates.ts";
import { idParamsSchema, idSchema, messageResponseSchema, optionalText, tokenResponseSchema } from "./common.ts";
import { contactEnquirySchema, contactInputSchema } from "./contact.ts";
import {
  archivedQuerySchema,
  driveChoiceSchema,
  driveInputSchema,
  driveResultSchema,
  driveResultsQuerySchema,
  driveSchema,
  ROSTER_MAX_BYTES,
  rosterResponseSchema,
  testChoiceSchema,
  testInputSchema,
  testSchema,
} from "./drives.ts";
import {
  feedbackCreatedSchema,
  feedbackInputSchema,
  feedbackListSchema,
  feedbackSchema,
  feedbackUpdateSchema,
  publicFeedbackListSchema,
} from "./feedback.ts";
import { healthSchema, livenessSchema } from "./health.ts";
import { liveBoardSchema } from "./live-board.ts";
import {
  MAX_IMAGE_PIXELS,
  MAX_IMAGE_SIDE,
  MAX_MEDIA_BYTES,
  MEDIA_TYPES,
  mediaFileParamsSchema,
  mediaUploadSchema,
} from "./media.ts";
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
} from "./questions.ts";
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
} from "./quiz.ts";
import {
  LET_RESUME_MINUTES,
  resultDetailSchema,
  resultRowListSchema,
  resultsSummarySchema,
  studentAdminSchema,
  studentListQuerySchema,
  timeMultiplierInputSchema,
} from "./students.ts";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Who may call an endpoint: anyone, a registered student (their token), or an admin of at least `role`. */
export type Access =
  | { readonly who: "public" }
  | { readonly who: "student" }
  | {
      readonly who: "admin";
      readonly role: AdminRole;
      /** A change recorded in the audit log under this action when it answers 2xx. */
      readonly audit?: AuditAction;
      /** The changed entity is the caller's own account (there is no `:id` in the path). */
      readonly self?: boolean;
    };

/** Answers that are not JSON: a file to download (CSV, GIFT, XML, PDF), an image, or server-sent events. */
export type RawResponse = "file" | "image" | "event-stream";

export interface Endpoint {
  readonly method: Method;
  /** Under /api. A `:name` segment is a path parameter; `:id` is a uuid unless `params` says otherwise. */
  readonly path: string;
  readonly access: Access;
  /** One line for the API's documentation (/api/docs). */
  readonly summary: string;
  readonly description?: string;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodType;
  /** The JSON body, or with `consumes` the uploaded text itself. */
  readonly body?: z.ZodType;
  /** The body is a file sent as one of these types instead of JSON (a CSV, a question file, an image). */
  readonly consumes?: readonly string[];
  /** The success status; 200 unless given. */
  readonly status?: 200 | 201 | 204;
  readonly response: z.ZodType | RawResponse;
}

function endpoint<const E extends Endpoint>(definition: E): E {
  return definition;
}

const anyone = { who: "public" } as const;
const student = { who: "student" } as const;
function admin<const Role extends AdminRole, const Action extends AuditAction | undefined = undefined>(
  role: Role,
  audit?: Action,
) {
  return (audit ? { who: "admin", role, audit } : { who: "admin", role }) as {
    who: "admin";
    role: Role;
    audit: Action;
  };
}

/** Filters of a CSV export: the table's own, without paging or sorting. */
const exportQuery = <Schema extends z.ZodObject>(schema: Schema) =>
  schema.omit({ page: true, pageSize: true, sort: true, order: true });

const QUESTION_FILE_TYPES = ["text/csv", "text/plain", "application/xml"] as const;
const questionFile = z.string({ error: "Send the file as text (text/csv, text/plain or application/xml)" });
const uploadLimits =
  `At most ${IMPORT_LIMITS.rows} questions and ${IMPORT_LIMITS.bytes / 1024 / 1024} MB a file, no line over ` +
  `${IMPORT_LIMITS.lineBytes / 1024} KB.`;

const publicEndpoints = {
  health: endpoint({
    method: "GET",
    path: "/health",
    access: anyone,
    summary: "Readiness under its original name: 200 when the database answers, 503 while draining or down",
    response: healthSchema,
  }),
  healthReady: endpoint({
    method: "GET",
    path: "/health/ready",
    access: anyone,
    summary: "Readiness: 200 when the database answers, 503 while the instance drains or the database is down",
    response: healthSchema,
  }),
  healthLive: endpoint({
    method: "GET",
    path: "/health/live",
    access: anyone,
    summary: "Liveness: 200 while the process runs, whatever the database does",
    response: livenessSchema,
  }),
  adminLogin: endpoint({
    method: "POST",
    path: "/auth/admin/login",
    access: anyone,
    summary: "Log in as an admin",
    body: adminLoginSchema,
    response: tokenResponseSchema,
  }),
  registerStudent: endpoint({
    method: "POST",
    path: "/auth/student/register",
    access: anyone,
    summary:
      "Register a student for a drive (no code: the default drive) and get a student token and, once, a resume " +
      "code; registering again in the same drive needs that code",
    body: studentRegistrationSchema,
    response: registrationResponseSchema,
  }),
  invitation: endpoint({
    method: "GET",
    path: "/admins/invites/:token",
    access: anyone,
    summary: "Whom an invitation link is for, while it can still be used",
    params: inviteTokenParamsSchema,
    response: invitationSchema,
  }),
  acceptInvitation: endpoint({
    method: "POST",
    path: "/admins/invites/:token",
    access: anyone,
    summary: "Set your password with an invitation link (once)",
    params: inviteTokenParamsSchema,
    body: acceptInviteSchema,
    response: messageResponseSchema,
  }),
  publicFeedback: endpoint({
    method: "GET",
    path: "/feedback",
    access: anyone,
    summary: "Visible student feedback, newest first, without e-mail or USN",
    response: publicFeedbackListSchema,
  }),
  sendEnquiry: endpoint({
    method: "POST",
    path: "/contact",
    access: anyone,
    summary: "Send an enquiry from the contact form",
    body: contactInputSchema,
    status: 201,
    response: messageResponseSchema,
  }),
  verifyCertificate: endpoint({
    method: "GET",
    path: "/certificates/verify/:code",
    access: anyone,
    summary: "Confirm a certificate: the name, the test and the date, nothing else",
    params: certificateCodeParamsSchema,
    response: certificateVerificationSchema,
  }),
  media: endpoint({
    method: "GET",
    path: "/media/:file",
    access: anyone,
    summary: "An uploaded image, by the name its upload answered; cached for ever",
    params: mediaFileParamsSchema,
    response: "image",
  }),
};

const studentEndpoints = {
  quizQuestions: endpoint({
    method: "GET",
    path: "/quiz/questions",
    access: student,
    summary:
      "Start (or resume) the quiz and take its questions at once, options shuffled, without correctness. The " +
      "drive's test decides how many; `limit` never shortens a quiz.",
    query: quizQuestionsQuerySchema,
    response: quizQuestionListSchema,
  }),
  startQuiz: endpoint({
    method: "POST",
    path: "/quiz/start",
    access: student,
    summary: "Start (or resume) the quiz question by question: where it stands and the open question",
    response: attemptStateSchema,
  }),
  quizAttempt: endpoint({
    method: "GET",
    path: "/quiz/attempt",
    access: student,
    summary: "Where the student stands: current question, seconds left, saved answers",
    response: attemptStateSchema,
  }),
  saveAnswer: endpoint({
    method: "PUT",
    path: "/quiz/answers",
    access: student,
    summary: "Save the answer to the open question",
    body: saveAnswerSchema,
    response: attemptProgressSchema,
  }),
  nextQuestion: endpoint({
    method: "POST",
    path: "/quiz/next",
    access: student,
    summary:
      "Move on to the question at `position` (Next, or the timer running out), saving the answer to the question " +
      "being left when one is sent; answers the question now open",
    body: advanceSchema,
    response: attemptProgressSchema,
  }),
  reportFocusLoss: endpoint({
    method: "POST",
    path: "/quiz/focus",
    access: student,
    summary: "Record that the quiz page lost focus or visibility on the question at `position`",
    body: focusLossSchema,
    status: 204,
    response: z.null(),
  }),
  submitQuiz: endpoint({
    method: "POST",
    path: "/quiz/submit",
    access: student,
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
};

const accountEndpoints = {
  session: endpoint({
    method: "GET",
    path: "/auth/admin/session",
    access: admin("viewer"),
    summary: "Who this admin token belongs to (401 once it has expired or been revoked)",
    response: adminSessionSchema,
  }),
  logout: endpoint({
    method: "POST",
    path: "/auth/admin/logout",
    access: admin("viewer"),
    summary: "Revoke this admin token",
    response: messageResponseSchema,
  }),
  changePassword: endpoint({
    method: "POST",
    path: "/auth/admin/password",
    access: { who: "admin", role: "viewer", audit: "admin.password-change", self: true },
    summary: "Change your own password (signs out your other sessions)",
    body: changePasswordSchema,
    response: tokenResponseSchema,
  }),

  admins: endpoint({
    method: "GET",
    path: "/admins",
    access: admin("owner"),
    summary: "Every admin account",
    response: adminAccountListSchema,
  }),
  inviteAdmin: endpoint({
    method: "POST",
    path: "/admins",
    access: admin("owner", "admin.invite"),
    summary: "Invite an admin: a one-time link, or a generated password shown once",
    body: adminInviteSchema,
    response: adminInviteResultSchema,
  }),
  renewInvitation: endpoint({
    method: "POST",
    path: "/admins/:id/invitation",
    access: admin("owner", "admin.reinvite"),
    summary: "A new one-time link for an admin who has not set a password yet; their earlier links stop working",
    response: adminInviteResultSchema,
  }),
  changeAdminRole: endpoint({
    method: "PUT",
    path: "/admins/:id/role",
    access: admin("owner", "admin.role-change"),
    summary: "Change an admin's role (the last active owner stays an owner)",
    body: adminRoleChangeSchema,
    response: adminAccountSchema,
  }),
  disableAdmin: endpoint({
    method: "POST",
    path: "/admins/:id/disable",
    access: admin("owner", "admin.disable"),
    summary: "Disable an admin: their open sessions end at once (the last active owner cannot be disabled)",
    response: adminAccountSchema,
  }),
  enableAdmin: endpoint({
    method: "POST",
    path: "/admins/:id/enable",
    access: admin("owner", "admin.enable"),
    summary: "Let a disabled admin sign in again",
    response: adminAccountSchema,
  }),
  auditTable: endpoint({
    method: "GET",
    path: "/audit",
    access: admin("owner"),
    summary: "The audit log: who changed what and when, newest first",
    query: auditTableQuerySchema,
    response: auditTablePageSchema,
  }),
};

// Viewers read results and take exports; tests and drives are read for the results' filters.
const resultEndpoints = {
  dashboard: endpoint({
    method: "GET",
    path: "/dashboard",
    access: admin("viewer"),
    summary: "Counts, score distribution, drives open now and per-question analysis of the latest submitted quizzes",
    response: dashboardSchema,
  }),
  allResults: endpoint({
    method: "GET",
    path: "/students/results/all",
    access: admin("viewer"),
    summary: "Every submitted attempt with the student's name and score, newest first",
    response: resultRowListSchema,
  }),
  resultsSummary: endpoint({
    method: "GET",
    path: "/students/results/summary",
    access: admin("viewer"),
    summary: "Counts, score distribution and per-question share of right answers",
    response: resultsSummarySchema,
  }),
  resultTable: endpoint({
    method: "GET",
    path: "/students/results/table",
    access: admin("viewer"),
    summary:
      "One page of the results table: search name, USN or e-mail; filter by drive, test, college, pass/fail; sort",
    query: resultTableQuerySchema,
    response: resultTablePageSchema,
  }),
  resultExport: endpoint({
    method: "GET",
    path: "/students/results/export.csv",
    access: admin("viewer"),
    summary: "Every submitted attempt (or those matching the table's filters) as CSV, streamed",
    query: exportQuery(resultTableQuerySchema),
    response: "file",
  }),
  resultDetail: endpoint({
    method: "GET",
    path: "/students/results/:id",
    access: admin("viewer"),
    summary: "One submitted attempt with every question, the answer given and the right answer",
    response: resultDetailSchema,
  }),
  studentExport: endpoint({
    method: "GET",
    path: "/students/export.csv",
    access: admin("viewer"),
    summary: "Every student (or those matching the table's filters) as CSV, streamed",
    query: exportQuery(studentTableQuerySchema),
    response: "file",
  }),
  tests: endpoint({
    method: "GET",
    path: "/tests",
    access: admin("viewer"),
    summary: "Tests, the default first; archived ones with ?archived=true",
    query: archivedQuerySchema,
    response: z.array(testSchema),
  }),
  testTable: endpoint({
    method: "GET",
    path: "/tests/table",
    access: admin("viewer"),
    summary: "One page of the current tests: search the name; sort by date or name",
    query: testTableQuerySchema,
    response: testTablePageSchema,
  }),
  testChoices: endpoint({
    method: "GET",
    path: "/tests/choices",
    access: admin("viewer"),
    summary: "The current tests for a picker: id, name and size, the default first",
    response: z.array(testChoiceSchema),
  }),
  test: endpoint({
    method: "GET",
    path: "/tests/:id",
    access: admin("viewer"),
    summary: "One test",
    response: testSchema,
  }),
  drives: endpoint({
    method: "GET",
    path: "/drives",
    access: admin("viewer"),
    summary: "Drives with their status, test and counts, the default first; archived ones with ?archived=true",
    query: archivedQuerySchema,
    response: z.array(driveSchema),
  }),
  driveTable: endpoint({
    method: "GET",
    path: "/drives/table",
    access: admin("viewer"),
    summary: "One page of the current drives: search name or college; filter by state and test; sort",
    query: driveTableQuerySchema,
    response: driveTablePageSchema,
  }),
  driveChoices: endpoint({
    method: "GET",
    path: "/drives/choices",
    access: admin("viewer"),
    summary: "The current drives for a filter: id and name, the default first",
    response: z.array(driveChoiceSchema),
  }),
  drive: endpoint({
    method: "GET",
    path: "/drives/:id",
    access: admin("viewer"),
    summary: "One drive",
    response: driveSchema,
  }),
  driveResults: endpoint({
    method: "GET",
    path: "/drives/:id/results",
    access: admin("viewer"),
    summary: "The drive's submitted attempts, best first (all, or the best `limit`)",
    query: driveResultsQuerySchema,
    response: z.array(driveResultSchema),
  }),
  driveResultsExport: endpoint({
    method: "GET",
    path: "/drives/:id/results.csv",
    access: admin("viewer"),
    summary: "The drive's results as CSV, streamed",
    response: "file",
  }),
  // The live board of a running drive: every admin may watch it (decision 017).
  driveLive: endpoint({
    method: "GET",
    path: "/drives/:id/live",
    access: admin("viewer"),
    summary: "The live board of a drive: each student's state, question and score, with counts and averages",
    response: liveBoardSchema,
  }),
  driveLiveStream: endpoint({
    method: "GET",
    path: "/drives/:id/live/stream",
    access: admin("viewer"),
    summary:
      "The live board as server-sent events: `board` (the whole board) first, then `changes` (the totals and the " +
      "rows that changed) within about a second of each change, and a comment line as a heartbeat",
    response: "event-stream",
  }),
};

// Examiners: the question bank (its answer key is not for viewers), item analysis (it marks each right option),
// students, tests, drives, feedback and enquiries.
const questionEndpoints = {
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
    response: z.array(z.string()),
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
    access: admin("examiner"),
    summary: "The whole active bank as CSV, streamed",
    response: "file",
  }),
  /** The bank, or one category of it, in CSV, GIFT, Aiken or Moodle XML (a file download). */
  questionExportAs: endpoint({
    method: "GET",
    path: "/questions/export",
    access: admin("examiner"),
    summary: "The active bank, or the questions a filter picks, as CSV, GIFT, Aiken or Moodle XML",
    description:
      "Aiken holds one-line single-answer and true/false questions only: multiple-answer questions and questions " +
      "whose text has more than one line (a code block) are left out of it, and the `X-Questions-Left-Out` header " +
      "counts them (decision 018).",
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
    summary: "Import questions from a file, all or nothing: any problem rejects the whole file",
    description:
      `CSV, GIFT, Aiken or Moodle XML (\`format\`, or detected). ${uploadLimits} A refusal lists the first ` +
      `${IMPORT_LIMITS.listedErrors} problems and counts them all. Questions of kinds the bank does not hold are ` +
      "refused unless `skipUnsupported=true` (the admin saw them in the preview and confirmed).",
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
    access: admin("examiner"),
    summary: "Item analysis of the drive's submitted attempts: facility, discrimination, option choices, flags",
    response: itemAnalysisSchema,
  }),
  driveAnalysisExport: endpoint({
    method: "GET",
    path: "/drives/:id/analysis.csv",
    access: admin("examiner"),
    summary: "The drive's item analysis, one line per question, as CSV",
    response: "file",
  }),
  testAnalysis: endpoint({
    method: "GET",
    path: "/tests/:id/analysis",
    access: admin("examiner"),
    summary: "Item analysis of the test's submitted attempts: facility, discrimination, option choices, flags",
    response: itemAnalysisSchema,
  }),
  testAnalysisExport: endpoint({
    method: "GET",
    path: "/tests/:id/analysis.csv",
    access: admin("examiner"),
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

const studentAdminEndpoints = {
  students: endpoint({
    method: "GET",
    path: "/students",
    access: admin("examiner"),
    summary: "Registered students, newest first; optional search and paging (total in X-Total-Count)",
    query: studentListQuerySchema,
    response: z.array(studentAdminSchema),
  }),
  studentTable: endpoint({
    method: "GET",
    path: "/students/table",
    access: admin("examiner"),
    summary: "One page of the students table: search name, USN or e-mail; filter by drive and college; sort",
    query: studentTableQuerySchema,
    response: studentTablePageSchema,
  }),
  setTimeMultiplier: endpoint({
    method: "PUT",
    path: "/students/:id/time-multiplier",
    access: admin("examiner", "student.time-multiplier"),
    summary: "Set a student's extra time (a multiplier on the seconds per question) for their next attempt",
    body: timeMultiplierInputSchema,
    response: messageResponseSchema,
  }),
  allowAnotherAttempt: endpoint({
    method: "POST",
    path: "/students/:id/extra-attempt",
    access: admin("examiner", "student.extra-attempt"),
    summary: "Allow a student one more attempt; their earlier sessions end",
    response: messageResponseSchema,
  }),
  letResume: endpoint({
    method: "POST",
    path: "/students/:id/let-resume",
    access: admin("examiner", "student.let-resume"),
    summary:
      `Let a student who lost their resume code register again with email and USN (for ${LET_RESUME_MINUTES} ` +
      "minutes); their other sessions end when they do",
    response: messageResponseSchema,
  }),
  endSessions: endpoint({
    method: "POST",
    path: "/students/:id/end-sessions",
    access: admin("examiner", "student.end-sessions"),
    summary: "End every session of a student: their tokens stop working",
    response: messageResponseSchema,
  }),
};

const driveAdminEndpoints = {
  createTest: endpoint({
    method: "POST",
    path: "/tests",
    access: admin("examiner", "test.create"),
    summary: "Create a test",
    body: testInputSchema,
    status: 201,
    response: testSchema,
  }),
  updateTest: endpoint({
    method: "PUT",
    path: "/tests/:id",
    access: admin("examiner", "test.update"),
    summary: "Edit a test; attempts already started keep the rules they started with",
    body: testInputSchema,
    response: testSchema,
  }),
  archiveTest: endpoint({
    method: "POST",
    path: "/tests/:id/archive",
    access: admin("examiner", "test.archive"),
    summary: "Archive a test (not the default one); its drives and results stay",
    response: messageResponseSchema,
  }),
  createDrive: endpoint({
    method: "POST",
    path: "/drives",
    access: admin("examiner", "drive.create"),
    summary: "Create a drive (a code is made up when none is given)",
    body: driveInputSchema,
    status: 201,
    response: driveSchema,
  }),
  updateDrive: endpoint({
    method: "PUT",
    path: "/drives/:id",
    access: admin("examiner", "drive.update"),
    summary: "Edit a drive",
    body: driveInputSchema,
    response: driveSchema,
  }),
  closeDrive: endpoint({
    method: "POST",
    path: "/drives/:id/close",
    access: admin("examiner", "drive.close"),
    summary: "Close a drive now: nobody new registers or starts",
    response: messageResponseSchema,
  }),
  reopenDrive: endpoint({
    method: "POST",
    path: "/drives/:id/reopen",
    access: admin("examiner", "drive.reopen"),
    summary: "Reopen a drive an admin closed (its opening and closing times still apply)",
    response: messageResponseSchema,
  }),
  archiveDrive: endpoint({
    method: "POST",
    path: "/drives/:id/archive",
    access: admin("examiner", "drive.archive"),
    summary: "Archive (and close) a drive other than the default one; its results stay",
    response: messageResponseSchema,
  }),
  replaceRoster: endpoint({
    method: "PUT",
    path: "/drives/:id/roster",
    access: admin("examiner", "drive.roster-replace"),
    summary: "Replace the drive's roster from a CSV (text/csv) with email and/or usn columns",
    consumes: ["text/csv"],
    body: z.string({ error: "Send the roster as text/csv" }).max(ROSTER_MAX_BYTES),
    response: rosterResponseSchema,
  }),
};

const feedbackAndEnquiryEndpoints = {
  allFeedback: endpoint({
    method: "GET",
    path: "/feedback/all",
    access: admin("examiner"),
    summary: "All feedback with contact details, hidden entries included",
    response: feedbackListSchema,
  }),
  feedbackTable: endpoint({
    method: "GET",
    path: "/feedback/table",
    access: admin("examiner"),
    summary: "One page of the feedback table: search name, USN or e-mail; filter by batch and visibility",
    query: feedbackTableQuerySchema,
    response: feedbackTablePageSchema,
  }),
  createFeedback: endpoint({
    method: "POST",
    path: "/feedback",
    access: admin("examiner", "feedback.create"),
    summary: "Add a student's feedback",
    body: feedbackInputSchema,
    status: 201,
    response: feedbackCreatedSchema,
  }),
  setFeedbackHidden: endpoint({
    method: "PATCH",
    path: "/feedback/:id",
    access: admin("examiner", "feedback.update"),
    summary: "Hide feedback from the home page, or show it again",
    body: feedbackUpdateSchema,
    response: feedbackSchema,
  }),
  deleteFeedback: endpoint({
    method: "DELETE",
    path: "/feedback/:id",
    access: admin("examiner", "feedback.delete"),
    summary: "Delete feedback",
    response: messageResponseSchema,
  }),
  feedbackExport: endpoint({
    method: "GET",
    path: "/feedback/export.csv",
    access: admin("examiner"),
    summary: "All feedback (or what matches the table's filters) as CSV, streamed",
    query: exportQuery(feedbackTableQuerySchema),
    response: "file",
  }),
  enquiries: endpoint({
    method: "GET",
    path: "/contact",
    access: admin("examiner"),
    summary: "Contact enquiries, newest first",
    response: z.array(contactEnquirySchema),
  }),
  enquiryTable: endpoint({
    method: "GET",
    path: "/contact/table",
    access: admin("examiner"),
    summary: "One page of the enquiries table: search name, e-mail or subject; sort",
    query: enquiryTableQuerySchema,
    response: enquiryTablePageSchema,
  }),
  enquiryExport: endpoint({
    method: "GET",
    path: "/contact/export.csv",
    access: admin("examiner"),
    summary: "Every enquiry (or those matching the table's search) as CSV, streamed",
    query: exportQuery(enquiryTableQuerySchema),
    response: "file",
  }),
};

const endpointsWithoutTickets = {
  ...publicEndpoints,
  ...studentEndpoints,
  ...accountEndpoints,
  ...resultEndpoints,
  ...questionEndpoints,
  ...studentAdminEndpoints,
  ...driveAdminEndpoints,
  ...feedbackAndEnquiryEndpoints,
};

type EndpointsWithoutTickets = typeof endpointsWithoutTickets;
/** The names of the endpoints an admin downloads as a file. */
export type DownloadName = {
  [Name in keyof EndpointsWithoutTickets]: EndpointsWithoutTickets[Name]["response"] extends "file"
    ? EndpointsWithoutTickets[Name]["access"]["who"] extends "admin"
      ? Name
      : never
    : never;
}[keyof EndpointsWithoutTickets];

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

export const endpoints = {
  ...endpointsWithoutTickets,
  downloadTicket: endpoint({
    method: "POST",
    path: "/downloads",
    // Asking for a ticket needs the role the download itself needs, checked by the route (decision 022).
    access: admin("viewer"),
    summary: "A ticket for one download: an address that fetches it once, within a minute, without the token",
    description:
      "Name the download as the admin client does (`studentExport`, `driveResultsExport`, …) with its `id` and query " +
      "string. Asking needs the role the download itself needs.",
    body: downloadTicketInputSchema,
    response: downloadTicketSchema,
  }),
} satisfies Record<string, Endpoint>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

/** The names of a path's parameters: `/admins/invites/:token` → "token". */
export type PathParamName<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamName<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The schema of an endpoint's path parameters: its own, or a uuid `id` for a path that names `:id`. */
export function paramsSchemaOf(definition: Endpoint): z.ZodObject | undefined {
  if (definition.params) return definition.params;
  return definition.path.includes(":") ? idParamsSchema : undefined;
}

/** The path parameters a call fills in (as the caller writes them). */
export type ParamsOf<Name extends EndpointName> = Endpoints[Name] extends { params: infer P extends z.ZodType }
  ? z.input<P>
  : [PathParamName<Endpoints[Name]["path"]>] extends [never]
    ? never
    : Record<PathParamName<Endpoints[Name]["path"]>, string>;
/** What a call sends in its query string (as the screen writes it, before defaults). */
export type QueryOf<Name extends EndpointName> = Endpoints[Name] extends { query: infer Q extends z.ZodType }
  ? z.input<Q>
  : never;
/** The body a call sends: JSON, or the uploaded text for an endpoint that `consumes` a file. */
export type BodyOf<Name extends EndpointName> = Endpoints[Name] extends { body: infer B extends z.ZodType }
  ? z.input<B>
  : never;
/** What a call answers. */
export type ResponseOf<Name extends EndpointName> = Endpoints[Name] extends { response: infer R extends z.ZodType }
  ? z.output<R>
  : never;

/** The endpoints only an admin may call, with their rule. */
export type AdminEndpointName = {
  [Name in EndpointName]: Endpoints[Name]["access"]["who"] extends "admin" ? Name : never;
}[EndpointName];

/** The address of a call: its path under /api with the parameters filled in. */
export function pathOf(definition: Endpoint, params: Record<string, string> = {}): string {
  return definition.path.replace(/:([A-Za-z]+)/g, (_match, name: string) => encodeURIComponent(params[name] ?? ""));
}
