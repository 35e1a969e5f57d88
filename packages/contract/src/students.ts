// GET /api/students and GET /api/students/results/all (admin).
import { z } from "zod";
import { idSchema } from "./common.ts";

export const studentSchema = z.object({
  _id: idSchema,
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  usnNo: z.string(),
  college: z.string(),
  course: z.string(),
  group: z.string(),
  year: z.string(),
  createdAt: z.iso.datetime(),
});
export type Student = z.infer<typeof studentSchema>;
export const studentListSchema = z.array(studentSchema);

/** A dashboard result row: the spec's `_id`, `studentName`, `score`, plus the total it was out of. */
export const resultRowSchema = z.object({
  _id: idSchema,
  studentName: z.string(),
  score: z.number().int(),
  totalQuestions: z.number().int(),
  submittedAt: z.iso.datetime(),
});
export type ResultRow = z.infer<typeof resultRowSchema>;
export const resultRowListSchema = z.array(resultRowSchema);
