// Viewers read results and take exports; tests and drives are read for the results' filters, and the live board
// of a running drive is for every admin (decision 017).
import {
  dashboardSchema,
  driveTablePageSchema,
  driveTableQuerySchema,
  resultTablePageSchema,
  resultTableQuerySchema,
  studentTableQuerySchema,
  testTablePageSchema,
  testTableQuerySchema,
} from "../admin-tables.ts";
import { listOf, pagingQuerySchema } from "../common.ts";
import {
  archivedQuerySchema,
  driveChoiceSchema,
  driveDetailSchema,
  driveResultSchema,
  driveResultsQuerySchema,
  driveSchema,
  rosterEntrySchema,
  testChoiceSchema,
  testSchema,
} from "../drives.ts";
import { liveBoardSchema } from "../live-board.ts";
import { rankingSchema, shortlistQuerySchema } from "../ranking.ts";
import { resultDetailSchema, resultRowListSchema, resultsSummarySchema } from "../students.ts";
import { admin, endpoint, exportQuery } from "./definition.ts";

export const resultEndpoints = {
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
    summary:
      "Submitted attempts with the student's name and score, newest first: the first 1,000 unless paged (total in X-Total-Count)",
    query: pagingQuerySchema,
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
    access: admin("viewer", "export.results"),
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
    access: admin("viewer", "export.students"),
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
    response: listOf(testSchema),
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
    response: listOf(testChoiceSchema),
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
    response: listOf(driveSchema),
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
    response: listOf(driveChoiceSchema),
  }),
  drive: endpoint({
    method: "GET",
    path: "/drives/:id",
    access: admin("viewer"),
    summary: "One drive, with when its results reach its students",
    response: driveDetailSchema,
  }),
  driveRoster: endpoint({
    method: "GET",
    path: "/drives/:id/roster",
    access: admin("viewer"),
    summary: "The drive's roster by email then USN, each line with the student who registered by it (paged)",
    query: pagingQuerySchema,
    response: listOf(rosterEntrySchema),
  }),
  driveResults: endpoint({
    method: "GET",
    path: "/drives/:id/results",
    access: admin("viewer"),
    summary: "The drive's submitted attempts, best first (all, or the best `limit`)",
    query: driveResultsQuerySchema,
    response: listOf(driveResultSchema),
  }),
  driveResultsExport: endpoint({
    method: "GET",
    path: "/drives/:id/results.csv",
    access: admin("viewer", "export.drive-results"),
    summary: "The drive's results as CSV, streamed",
    response: "file",
  }),
  driveRanking: endpoint({
    method: "GET",
    path: "/drives/:id/ranking",
    access: admin("viewer"),
    summary:
      "The drive's candidates in rank order with percentiles, cut to a shortlist (passed, or the top N) and filtered " +
      "by college and branch; with each college and branch's counts",
    query: shortlistQuerySchema,
    response: rankingSchema,
  }),
  driveShortlistExport: endpoint({
    method: "GET",
    path: "/drives/:id/shortlist.csv",
    access: admin("viewer", "export.shortlist"),
    summary: "The drive's shortlist (the ranking's cut and filters) as CSV, for a recruiter's tracking sheet",
    query: shortlistQuerySchema,
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
