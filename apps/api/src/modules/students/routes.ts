// POST /api/auth/student/register (public) and the admin lists GET /api/students, /api/students/results/all.
import { studentRegistrationSchema } from "@trainwise/contract/auth";
import { errorBodySchema, tokenResponseSchema } from "@trainwise/contract/common";
import { resultRowListSchema, studentListSchema } from "@trainwise/contract/students";
import { desc, eq, isNotNull } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { attempts, students } from "../../db/schema.ts";
import { registerStudent } from "./registration.ts";
import { listStudents } from "./repository.ts";

// No per-address limit here: a campus drive registers hundreds of students from one college network address.
export const studentRegistrationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/register",
    {
      schema: {
        tags: ["students"],
        summary: "Register a student (or resume an unfinished registration) and get a student token",
        body: studentRegistrationSchema,
        response: { 200: tokenResponseSchema, 400: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request) => ({ token: await app.tokens.issue("student", await registerStudent(app.db, request.body)) }),
  );
};

export const studentAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", app.requireAdmin);

  app.get(
    "/",
    {
      schema: {
        tags: ["students"],
        summary: "Every registered student, newest first",
        security: [{ bearerAuth: [] }],
        response: { 200: studentListSchema },
      },
    },
    async () =>
      (await listStudents(app.db)).map(({ id, createdAt, timeMultiplier: _t, attemptsAllowed: _a, ...student }) => ({
        _id: id,
        ...student,
        createdAt: createdAt.toISOString(),
      })),
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
    async () => {
      const rows = await app.db
        .select({
          id: attempts.id,
          studentName: students.name,
          score: attempts.score,
          totalQuestions: attempts.totalQuestions,
          submittedAt: attempts.submittedAt,
        })
        .from(attempts)
        .innerJoin(students, eq(students.id, attempts.studentId))
        .where(isNotNull(attempts.submittedAt))
        .orderBy(desc(attempts.submittedAt));
      return rows.map((row) => ({
        _id: row.id,
        studentName: row.studentName,
        score: row.score ?? 0,
        totalQuestions: row.totalQuestions,
        submittedAt: (row.submittedAt ?? new Date()).toISOString(),
      }));
    },
  );
};
