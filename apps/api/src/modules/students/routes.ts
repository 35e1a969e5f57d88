// POST /api/auth/student/register (public) and the admin lists GET /api/students, /api/students/results/all.
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
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { toCsv } from "../../csv/spreadsheet-csv.ts";
import { HttpError } from "../../plugins/errors.ts";
import { registerStudent } from "./registration.ts";
import { allowAnotherAttempt, allowResume, endSessions, listStudents, setTimeMultiplier } from "./repository.ts";
import { listResults, resultDetail, resultsSummary } from "./results.ts";

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
const RESULT_CSV_COLUMNS = ["student", "email", "usnNo", "score", "total", "percentage", "submitted"] as const;

function toCsvDate(date: Date | null): string {
  return date ? date.toISOString() : "";
}

function sendCsv(reply: FastifyReply, filename: string, csv: string) {
  return reply
    .type("text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${filename}"`)
    .send(csv);
}

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
    "/export.csv",
    { schema: { tags: ["students"], summary: "Every student as CSV", security: [{ bearerAuth: [] }] } },
    async (_request, reply) => {
      const { students } = await listStudents(app.db);
      const csv = toCsv(
        students.map((student) => ({
          name: student.name,
          email: student.email,
          phone: student.phone,
          usnNo: student.usnNo,
          college: student.college,
          course: student.course,
          group: student.group,
          year: student.year,
          registered: toCsvDate(student.createdAt),
          attemptsUsed: student.attemptsUsed,
          attemptsAllowed: student.attemptsAllowed,
          timeMultiplier: student.timeMultiplier,
          drive: student.driveName,
        })),
        STUDENT_CSV_COLUMNS,
      );
      return sendCsv(reply, "students.csv", csv);
    },
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
    "/results/export.csv",
    { schema: { tags: ["students"], summary: "Every submitted attempt as CSV", security: [{ bearerAuth: [] }] } },
    async (_request, reply) => {
      const rows = await listResults(app.db);
      const csv = toCsv(
        rows.map((row) => ({
          student: row.studentName,
          email: row.studentEmail,
          usnNo: row.usnNo,
          score: row.score ?? 0,
          total: row.totalQuestions,
          percentage: scorePercentage(row.score ?? 0, row.totalQuestions),
          submitted: toCsvDate(row.submittedAt),
        })),
        RESULT_CSV_COLUMNS,
      );
      return sendCsv(reply, "results.csv", csv);
    },
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
