// POST /api/auth/student/register (public) and the admin lists GET /api/students, /api/students/results/all.
import { adminEndpoints } from "@trainwise/contract/admin-endpoints";
import {
  resultTablePageSchema,
  resultTableQuerySchema,
  studentTablePageSchema,
  studentTableQuerySchema,
} from "@trainwise/contract/admin-tables";
import { registrationResponseSchema, studentRegistrationSchema } from "@trainwise/contract/auth";
import { errorBodySchema, idParamsSchema, messageResponseSchema } from "@trainwise/contract/common";
import { scorePercentage } from "@trainwise/contract/quiz";
import {
  accommodationSchema,
  resultDetailSchema,
  resultRowListSchema,
  resultsSummarySchema,
  studentAdminSchema,
  studentListQuerySchema,
} from "@trainwise/contract/students";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { csvDate, streamCsv } from "../../csv/reply.ts";
import { HttpError } from "../../plugins/errors.ts";
import { registerStudent } from "./registration.ts";
import {
  allowAnotherAttempt,
  allowResume,
  endSessions,
  listStudents,
  setTimeMultiplier,
  studentBatches,
  studentTable,
} from "./repository.ts";
import { listResults, resultBatches, resultDetail, resultsSummary, resultTable } from "./results.ts";

/** Minutes an admin's "let resume" stays usable. */
const LET_RESUME_MINUTES = 30;

export const studentRegistrationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/register",
    {
      config: {
        // Counted per drive and per address after the body is read: a whole college behind one network address
        // registers for its own drive, and a flood aimed at one drive leaves the others alone.
        rateLimit: {
          max: app.config.registrationRateLimit,
          timeWindow: 10 * 60_000,
          hook: "preHandler",
          keyGenerator: (request) => `${request.ip}|${(request.body as { driveCode?: string })?.driveCode ?? ""}`,
        },
      },
      schema: {
        tags: ["students"],
        summary:
          "Register a student for a drive (no code: the default drive) and get a student token and, once, a " +
          "resume code; registering again in the same drive needs that code",
        body: studentRegistrationSchema,
        response: {
          200: registrationResponseSchema,
          400: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      const { studentId, resumeCode } = await registerStudent(app.db, request.body);
      // Letting a student resume ends their other sessions; this instance must not trust its cached view.
      if (resumeCode) app.forgetStudentSessions(studentId);
      const token = await app.tokens.issue("student", studentId);
      return resumeCode ? { token, resumeCode } : { token };
    },
  );
};

const STUDENT_CSV_COLUMNS = [
  "name",
  "email",
  "phone",
  "usnNo",
  "college",
  "course",
  "group",
  "year",
  "registered",
  "attemptsUsed",
  "attemptsAllowed",
  "timeMultiplier",
  "drive",
] as const;
const RESULT_CSV_COLUMNS = [
  "student",
  "email",
  "usnNo",
  "score",
  "marks",
  "total",
  "percentage",
  "submitted",
  "college",
  "drive",
  "test",
  "result",
] as const;

export const studentAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", app.requireAdmin);

  app.get(
    "/",
    {
      schema: {
        tags: ["students"],
        summary: "Registered students, newest first; optional search and paging (total in X-Total-Count)",
        security: [{ bearerAuth: [] }],
        querystring: studentListQuerySchema,
        response: { 200: z.array(studentAdminSchema) },
      },
    },
    async (request, reply) => {
      const { students, total } = await listStudents(app.db, request.query);
      reply.header("x-total-count", String(total));
      return students.map(({ id, createdAt, ...student }) => ({
        _id: id,
        ...student,
        createdAt: createdAt.toISOString(),
      }));
    },
  );

  app.get(
    "/table",
    {
      schema: {
        tags: ["students"],
        summary: "One page of the students table: search name, USN or e-mail; filter by drive and college; sort",
        security: [{ bearerAuth: [] }],
        querystring: studentTableQuerySchema,
        response: { 200: studentTablePageSchema },
      },
    },
    async (request) => studentTable(app.db, request.query),
  );

  app.get(
    "/export.csv",
    {
      schema: {
        tags: ["students"],
        summary: "Every student (or those matching the table's filters) as CSV, streamed",
        security: [{ bearerAuth: [] }],
        querystring: adminEndpoints.studentExport.query,
      },
    },
    async (request, reply) =>
      streamCsv(reply, "students.csv", STUDENT_CSV_COLUMNS, studentBatches(app.db, request.query), (student) => ({
        name: student.name,
        email: student.email,
        phone: student.phone,
        usnNo: student.usn_no,
        college: student.college,
        course: student.course,
        group: student.group,
        year: student.year,
        registered: csvDate(new Date(student.created_at)),
        attemptsUsed: student.attempts_used,
        attemptsAllowed: student.attempts_allowed,
        timeMultiplier: student.time_multiplier,
        drive: student.drive_name,
      })),
  );

  app.put(
    "/:id/accommodation",
    {
      schema: {
        tags: ["students"],
        summary: "Set a student's extra time (a multiplier on the seconds per question) for their next attempt",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        body: accommodationSchema,
        response: { 200: messageResponseSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const updated = await setTimeMultiplier(app.db, request.params.id, request.body.timeMultiplier);
      if (!updated) throw new HttpError(404, "Student not found.");
      return { message: `Extra time set to ${request.body.timeMultiplier}×.` };
    },
  );

  app.post(
    "/:id/extra-attempt",
    {
      schema: {
        tags: ["students"],
        summary: "Allow a student one more attempt; their earlier sessions end",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        response: { 200: messageResponseSchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const updated = await allowAnotherAttempt(app.db, request.params.id);
      if (!updated) throw new HttpError(404, "Student not found.");
      app.forgetStudentSessions(updated.id);
      return {
        message:
          "The student may take the quiz again. Their earlier sessions have ended: they continue by registering " +
          "again with their resume code.",
      };
    },
  );

  app.post(
    "/:id/let-resume",
    {
      schema: {
        tags: ["students"],
        summary: `Let a student who lost their resume code register again with email and USN (for ${LET_RESUME_MINUTES} minutes); their other sessions end when they do`,
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        response: { 200: messageResponseSchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const updated = await allowResume(app.db, request.params.id, LET_RESUME_MINUTES);
      if (!updated) throw new HttpError(404, "Student not found.");
      return {
        message: `For the next ${LET_RESUME_MINUTES} minutes the student can register again with their email and USN to continue.`,
      };
    },
  );

  app.post(
    "/:id/end-sessions",
    {
      schema: {
        tags: ["students"],
        summary: "End every session of a student: their tokens stop working",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        response: { 200: messageResponseSchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const updated = await endSessions(app.db, request.params.id);
      if (!updated) throw new HttpError(404, "Student not found.");
      app.forgetStudentSessions(updated.id);
      return { message: "The student's sessions have ended. They can register again with their resume code." };
    },
  );

  app.get(
    "/results/all",
    {
      schema: {
        tags: ["students"],
        summary: "Every submitted attempt with the student's name and score, newest first",
        security: [{ bearerAuth: [] }],
        response: { 200: resultRowListSchema },
      },
    },
    async () =>
      (await listResults(app.db)).map((row) => ({
        _id: row.id,
        studentName: row.studentName,
        score: row.score ?? 0,
        totalQuestions: row.totalQuestions,
        submittedAt: (row.submittedAt ?? new Date()).toISOString(),
      })),
  );

  app.get(
    "/results/summary",
    {
      schema: {
        tags: ["students"],
        summary: "Counts, score distribution and per-question share of right answers",
        security: [{ bearerAuth: [] }],
        response: { 200: resultsSummarySchema },
      },
    },
    async () => resultsSummary(app.db),
  );

  app.get(
    "/results/table",
    {
      schema: {
        tags: ["students"],
        summary:
          "One page of the results table: search name, USN or e-mail; filter by drive, test, college, pass/fail; sort",
        security: [{ bearerAuth: [] }],
        querystring: resultTableQuerySchema,
        response: { 200: resultTablePageSchema },
      },
    },
    async (request) => resultTable(app.db, request.query),
  );

  app.get(
    "/results/export.csv",
    {
      schema: {
        tags: ["students"],
        summary: "Every submitted attempt (or those matching the table's filters) as CSV, streamed",
        security: [{ bearerAuth: [] }],
        querystring: adminEndpoints.resultExport.query,
      },
    },
    async (request, reply) =>
      streamCsv(reply, "results.csv", RESULT_CSV_COLUMNS, resultBatches(app.db, request.query), (row) => ({
        student: row.student_name,
        email: row.email,
        usnNo: row.usn_no,
        score: row.score ?? 0,
        // Negative marking and partial credit count in marks; the percentage comes from them (decision 018).
        marks: row.marks ?? row.score ?? 0,
        total: row.total_questions,
        percentage: scorePercentage(row.marks ?? row.score ?? 0, row.total_questions),
        submitted: csvDate(new Date(row.submitted_at)),
        college: row.college,
        drive: row.drive_name,
        test: row.test_name,
        result: row.passed === null ? "" : row.passed ? "pass" : "fail",
      })),
  );

  app.get(
    "/results/:id",
    {
      schema: {
        tags: ["students"],
        summary: "One submitted attempt with every question, the answer given and the right answer",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        response: { 200: resultDetailSchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const detail = await resultDetail(app.db, request.params.id);
      if (!detail) throw new HttpError(404, "Result not found.");
      return { ...detail, _id: detail.id, score: detail.score ?? 0, submittedAt: detail.submittedAt.toISOString() };
    },
  );
};
