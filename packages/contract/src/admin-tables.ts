// The admin area's tables: what each one can be searched, filtered and sorted by, and the page it answers.
// The same schema reads the browser's address bar and the API's query string, so a view is a bookmarkable URL.
import { z } from "zod";
import { idSchema, searchText } from "./common.ts";
import { DIFFICULTIES } from "./constants.ts";
import { contactEnquirySchema } from "./contact.ts";
import { DRIVE_STATUSES, driveSchema, sectionResultSchema, testSchema } from "./drives.ts";
import { feedbackSchema } from "./feedback.ts";
import { questionTableRowSchema, richTextHtml } from "./questions.ts";
import { studentAdminSchema } from "./students.ts";

export const TABLE_PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_TABLE_PAGE_SIZE = 25;
/** The largest page a table answers. */
export const MAX_TABLE_PAGE_SIZE = 100;

/** The paging and order every table's query takes. */
export const tablePage = {
  page: z.coerce
    .number({ error: "page must be a number" })
    .min(1, { error: "page must be at least 1" })
    .max(1_000_000, { error: "page must be at most 1000000" })
    .int({ error: "page must be a whole number" })
    .default(1),
  pageSize: z.coerce
    .number({ error: "pageSize must be a number" })
    .min(1, { error: "pageSize must be at least 1" })
    .max(MAX_TABLE_PAGE_SIZE, { error: `pageSize must be at most ${MAX_TABLE_PAGE_SIZE}` })
    .int({ error: "pageSize must be a whole number" })
    .default(DEFAULT_TABLE_PAGE_SIZE),
  order: z.enum(["asc", "desc"], { error: "order must be asc or desc" }).default("desc"),
};

/** Students: search name, USN or e-mail; filter by drive and college; sort by registration date or name. */
export const studentTableQuerySchema = z.object({
  ...tablePage,
  search: searchText("search", 200),
  driveId: idSchema.optional(),
  college: searchText("college", 200),
  sort: z.enum(["date", "name"], { error: "sort must be date or name" }).default("date"),
});
export type StudentTableQuery = z.input<typeof studentTableQuerySchema>;

export const RESULT_OUTCOMES = ["pass", "fail"] as const;

/** Results: search the student's name, USN or e-mail; filter by drive, test, college, pass/fail; sort by date, score, name. */
export const resultTableQuerySchema = z.object({
  ...tablePage,
  search: searchText("search", 200),
  driveId: idSchema.optional(),
  testId: idSchema.optional(),
  college: searchText("college", 200),
  outcome: z.enum(RESULT_OUTCOMES, { error: "outcome must be pass or fail" }).optional(),
  sort: z.enum(["date", "score", "name"], { error: "sort must be date, score or name" }).default("date"),
});
export type ResultTableQuery = z.input<typeof resultTableQuerySchema>;

/** Questions: search the text; filter by category and difficulty; sort by date or text. */
export const questionTableQuerySchema = z.object({
  ...tablePage,
  search: searchText("search", 200),
  category: searchText("category", 100),
  difficulty: z.enum(DIFFICULTIES, { error: "Difficulty must be easy, medium or hard" }).optional(),
  sort: z.enum(["date", "name"], { error: "sort must be date or name" }).default("date"),
});
export type QuestionTableQuery = z.input<typeof questionTableQuerySchema>;

/** Feedback: search name, USN or e-mail; filter by batch and visibility; sort by date or name. */
export const feedbackTableQuerySchema = z.object({
  ...tablePage,
  search: searchText("search", 200),
  batch: searchText("batch", 50),
  visibility: z.enum(["shown", "hidden"], { error: "visibility must be shown or hidden" }).optional(),
  sort: z.enum(["date", "name"], { error: "sort must be date or name" }).default("date"),
});
export type FeedbackTableQuery = z.input<typeof feedbackTableQuerySchema>;

/** Enquiries: search name, e-mail, subject or programme; sort by date or name. */
export const enquiryTableQuerySchema = z.object({
  ...tablePage,
  search: searchText("search", 200),
  sort: z.enum(["date", "name"], { error: "sort must be date or name" }).default("date"),
});
export type EnquiryTableQuery = z.input<typeof enquiryTableQuerySchema>;

/** Tests (current ones): search the name; sort by date or name. */
export const testTableQuerySchema = z.object({
  ...tablePage,
  search: searchText("search", 200),
  sort: z.enum(["date", "name"], { error: "sort must be date or name" }).default("date"),
});
export type TestTableQuery = z.input<typeof testTableQuerySchema>;

/** Drives (current ones): search the name; filter by state and test; sort by date, name or opening time. */
export const driveTableQuerySchema = z.object({
  ...tablePage,
  search: searchText("search", 200),
  state: z.enum(DRIVE_STATUSES, { error: "state must be scheduled, open or closed" }).optional(),
  testId: idSchema.optional(),
  sort: z.enum(["date", "name", "opens"], { error: "sort must be date, name or opens" }).default("date"),
});
export type DriveTableQuery = z.input<typeof driveTableQuerySchema>;

/** One page of a table: its rows and how many rows match in all. */
export function tablePageSchema<Row extends z.ZodType>(row: Row) {
  return z.object({
    rows: z.array(row).max(MAX_TABLE_PAGE_SIZE),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

export const resultTableRowSchema = z.object({
  _id: idSchema,
  studentId: idSchema,
  studentName: z.string(),
  email: z.string(),
  usnNo: z.string(),
  college: z.string(),
  driveId: idSchema,
  driveName: z.string(),
  testName: z.string(),
  /** Questions answered right. */
  score: z.number().int(),
  /** The score less negative marking, which the percentage and pass/fail come from. */
  marks: z.number(),
  totalQuestions: z.number().int(),
  /** marks ÷ total × 100, unrounded; the screen rounds it in the admin's locale. */
  percentage: z.number(),
  passed: z.boolean().nullable(),
  /** Each section's part (empty: the test has no sections). */
  sections: z.array(sectionResultSchema),
  submittedAt: z.iso.datetime(),
  /** The drive's time zone: the submission time is shown as the drive's people read their clocks. */
  timeZone: z.string(),
  /** Submitted when its time ran out (by the quiz page's timer or the server's sweep), not by the student. */
  autoSubmitted: z.boolean(),
});
export type ResultTableRow = z.infer<typeof resultTableRowSchema>;

export const studentTablePageSchema = tablePageSchema(studentAdminSchema);
export const resultTablePageSchema = tablePageSchema(resultTableRowSchema);
export const questionTablePageSchema = tablePageSchema(questionTableRowSchema);
export const feedbackTablePageSchema = tablePageSchema(feedbackSchema);
export const enquiryTablePageSchema = tablePageSchema(contactEnquirySchema);
export const testTablePageSchema = tablePageSchema(testSchema);
export const driveTablePageSchema = tablePageSchema(driveSchema);
export type TablePage<Row> = { rows: Row[]; total: number; page: number; pageSize: number };

/** The dashboard's figures, each from one aggregate query. */
export const dashboardSchema = z.object({
  students: z.number().int(),
  submitted: z.number().int(),
  questions: z.number().int(),
  averagePercentage: z.number().nullable(),
  distribution: z.array(z.object({ label: z.string(), count: z.number().int() })),
  /** Drives taking students right now, the default drive last. */
  openDrives: z.array(
    z.object({
      _id: idSchema,
      name: z.string(),
      organisation: z.string(),
      closesAt: z.iso.datetime().nullable(),
      timeZone: z.string(),
      students: z.number().int(),
      submitted: z.number().int(),
    }),
  ),
  /** Share of right answers per question over the latest submitted quizzes (at most `analysisWindow`). */
  analysisWindow: z.number().int(),
  items: z.array(
    z.object({
      questionId: idSchema,
      text: z.string(),
      /** The question's text rendered and sanitised (block content), as students see it. */
      html: richTextHtml,
      served: z.number().int(),
      correct: z.number().int(),
      correctShare: z.number(),
    }),
  ),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
