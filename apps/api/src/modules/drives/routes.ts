// /api/tests and /api/drives (admin): tests are recipes for attempts, drives give a test to a cohort for a window.

import { PassThrough } from "node:stream";
import {
  driveTablePageSchema,
  driveTableQuerySchema,
  testTablePageSchema,
  testTableQuerySchema,
} from "@trainwise/contract/admin-tables";
import { errorBodySchema, idParamsSchema, messageResponseSchema } from "@trainwise/contract/common";
import {
  type Drive,
  type DriveResult,
  driveChoiceSchema,
  driveInputSchema,
  driveResultSchema,
  driveResultsQuerySchema,
  driveSchema,
  rosterResponseSchema,
  type Test,
  testChoiceSchema,
  testInputSchema,
  testSchema,
} from "@trainwise/contract/drives";
import { LIVE_EVENTS, liveBoardSchema } from "@trainwise/contract/live-board";
import { scorePercentage } from "@trainwise/contract/quiz";
import { parse } from "csv-parse/sync";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { csvDate, streamCsv } from "../../csv/reply.ts";
import { acceptTextUploads } from "../../csv/text-upload.ts";
import type { Executor } from "../../db/client.ts";
import { adminOf } from "../../plugins/auth.ts";
import { HttpError } from "../../plugins/errors.ts";
import {
  archiveDrive,
  archiveTest,
  closeDrive,
  driveChoices,
  driveExists,
  driveResultBatches,
  driveTable,
  findDrive,
  findTest,
  insertDrive,
  insertTest,
  listDrives,
  listTests,
  newDriveCode,
  reopenDrive,
  replaceRoster,
  testChoices,
  testTable,
  updateDrive,
  updateTest,
} from "./repository.ts";
import { driveStatus, formatDriveTime } from "./window.ts";

const refusals = { 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

function testOut({ test, available }: NonNullable<Awaited<ReturnType<typeof findTest>>>): Test {
  const { id, createdAt, archivedAt, updatedAt: _updatedAt, ...rest } = test;
  return { _id: id, ...rest, archived: archivedAt !== null, available, createdAt: createdAt.toISOString() };
}

function driveOut(row: NonNullable<Awaited<ReturnType<typeof findDrive>>>): Drive {
  const { drive, testName, ...counts } = row;
  const status = driveStatus(drive, new Date());
  return {
    _id: drive.id,
    testId: drive.testId,
    testName,
    name: drive.name,
    organisation: drive.organisation,
    batch: drive.batch,
    code: drive.code,
    opensAt: drive.opensAt?.toISOString() ?? null,
    closesAt: drive.closesAt?.toISOString() ?? null,
    timeZone: drive.timeZone,
    rosterOnly: drive.rosterOnly,
    isDefault: drive.isDefault,
    archived: drive.archivedAt !== null,
    status,
    ...counts,
    createdAt: drive.createdAt.toISOString(),
  };
}

async function testOrNotFound(db: Executor, id: string) {
  const found = await findTest(db, id);
  if (!found) throw new HttpError(404, "Test not found.");
  return found;
}

async function driveOrNotFound(db: Executor, id: string) {
  const found = await findDrive(db, id);
  if (!found) throw new HttpError(404, "Drive not found.");
  return found;
}

function isUniqueViolation(error: unknown): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  return (cause as { code?: string })?.code === "23505";
}

export const testRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", app.requireAdmin);

  app.get(
    "/",
    {
      schema: {
        tags: ["tests"],
        summary: "Tests, the default first; archived ones with ?archived=true",
        security: [{ bearerAuth: [] }],
        querystring: z.object({ archived: z.enum(["true", "false"]).optional() }),
        response: { 200: z.array(testSchema) },
      },
    },
    async (request) => (await listTests(app.db, { includeArchived: request.query.archived === "true" })).map(testOut),
  );

  app.get(
    "/table",
    {
      schema: {
        tags: ["tests"],
        summary: "One page of the current tests: search the name; sort by date or name",
        security: [{ bearerAuth: [] }],
        querystring: testTableQuerySchema,
        response: { 200: testTablePageSchema },
      },
    },
    async (request) => {
      const page = await testTable(app.db, request.query);
      return { ...page, rows: page.rows.map(testOut) };
    },
  );

  app.get(
    "/choices",
    {
      schema: {
        tags: ["tests"],
        summary: "The current tests for a picker: id, name and size, the default first",
        security: [{ bearerAuth: [] }],
        response: { 200: z.array(testChoiceSchema) },
      },
    },
    async () => (await testChoices(app.db)).map(({ id, ...test }) => ({ _id: id, ...test })),
  );

  app.post(
    "/",
    {
      schema: {
        tags: ["tests"],
        summary: "Create a test",
        security: [{ bearerAuth: [] }],
        body: testInputSchema,
        response: { 201: testSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const id = await insertTest(app.db, request.body);
      return reply.status(201).send(testOut(await testOrNotFound(app.db, id)));
    },
  );

  app.get(
    "/:id",
    {
      schema: {
        tags: ["tests"],
        summary: "One test",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        response: { 200: testSchema, 404: errorBodySchema },
      },
    },
    async (request) => testOut(await testOrNotFound(app.db, request.params.id)),
  );

  app.put(
    "/:id",
    {
      schema: {
        tags: ["tests"],
        summary: "Edit a test; attempts already started keep the rules they started with",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        body: testInputSchema,
        response: { 200: testSchema, ...refusals },
      },
    },
    async (request) => {
      const updated = await updateTest(app.db, request.params.id, request.body);
      if (!updated) throw new HttpError(404, "Test not found.");
      return testOut(await testOrNotFound(app.db, updated.id));
    },
  );

  app.post(
    "/:id/archive",
    {
      schema: {
        tags: ["tests"],
        summary: "Archive a test (not the default one); its drives and results stay",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        response: { 200: messageResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const archived = await archiveTest(app.db, request.params.id);
      if (!archived) {
        const found = await findTest(app.db, request.params.id);
        if (!found) throw new HttpError(404, "Test not found.");
        throw new HttpError(409, "The default test cannot be archived.");
      }
      return { message: "The test has been archived." };
    },
  );
};

const ROSTER_LIMIT = 20_000;

/** Live board streams: a comment line this often keeps proxies and the server's idle timeout from closing them. */
export const LIVE_STREAM = {
  heartbeatMs: 15_000,
  /**
   * A stream ends after this long (or when the admin's token expires, if sooner) and the browser reconnects at
   * once: the reconnection checks the admin's session again, so a revoked one stops being served within it.
   */
  longestMs: 5 * 60_000,
  /** What the browser waits before reconnecting after a drop (the `retry` field of server-sent events). */
  retryMs: 2_000,
  /**
   * How often an open stream checks its admin's session again, as every request does once: an admin disabled,
   * signed out or demoted stops receiving students' names and scores within this time, not at the stream's end.
   */
  sessionCheckMs: 2_000,
  /**
   * Streams one admin session may hold open on an instance at once: boards of a few drives in tabs, with room for
   * a tab's reconnection before the server notices its old connection closed. Each stream checks its session
   * every `sessionCheckMs`, so more than this is load on the database, not use.
   */
  perSession: 5,
};

const DRIVE_RESULT_CSV_COLUMNS = [
  "student",
  "email",
  "usnNo",
  "college",
  "score",
  "marks",
  "total",
  "percentage",
  "result",
  "focusLosses",
  "submitted",
] as const;

/** Email and USN columns of a roster CSV (a header row names them); each line needs one or both. */
function parseRoster(csv: string): { email: string; usnNo: string }[] {
  let records: Record<string, string>[];
  try {
    records = parse(csv.replace(/^\uFEFF/, ""), {
      columns: (header: string[]) =>
        header.map((name) =>
          name
            .trim()
            .toLowerCase()
            .replaceAll(/[^a-z]/g, ""),
        ),
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      to: ROSTER_LIMIT + 1,
    });
  } catch (error) {
    throw new HttpError(400, `The roster is not valid CSV: ${(error as Error).message}`);
  }
  if (records.length > ROSTER_LIMIT) {
    throw new HttpError(413, `A roster can have at most ${ROSTER_LIMIT.toLocaleString("en")} students.`);
  }
  const entries = records.map((record) => ({
    email: (record.email ?? record.emailid ?? "").slice(0, 254),
    usnNo: (record.usn ?? record.usnno ?? "").slice(0, 50),
  }));
  const columns = Object.keys(records[0] ?? {});
  if (records.length > 0 && !columns.some((column) => ["email", "emailid", "usn", "usnno"].includes(column))) {
    throw new HttpError(400, "The roster needs a header row with an email column, a usn column, or both.");
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (entries.some((entry) => /[\u0000-\u001f\u007f]/.test(entry.email + entry.usnNo))) {
    throw new HttpError(400, "The roster contains control characters; save it again as plain CSV.");
  }
  return entries.filter((entry) => entry.email || entry.usnNo);
}

export const driveRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", app.requireAdmin);
  acceptTextUploads(app, ["text/csv"], 2 * 1024 * 1024);

  app.get(
    "/",
    {
      schema: {
        tags: ["drives"],
        summary: "Drives with their status, test and counts, the default first; archived ones with ?archived=true",
        security: [{ bearerAuth: [] }],
        querystring: z.object({ archived: z.enum(["true", "false"]).optional() }),
        response: { 200: z.array(driveSchema) },
      },
    },
    async (request) => (await listDrives(app.db, { includeArchived: request.query.archived === "true" })).map(driveOut),
  );

  app.get(
    "/table",
    {
      schema: {
        tags: ["drives"],
        summary: "One page of the current drives: search name or college; filter by state and test; sort",
        security: [{ bearerAuth: [] }],
        querystring: driveTableQuerySchema,
        response: { 200: driveTablePageSchema },
      },
    },
    async (request) => {
      const page = await driveTable(app.db, request.query);
      return { ...page, rows: page.rows.map(driveOut) };
    },
  );

  app.get(
    "/choices",
    {
      schema: {
        tags: ["drives"],
        summary: "The current drives for a filter: id and name, the default first",
        security: [{ bearerAuth: [] }],
        response: { 200: z.array(driveChoiceSchema) },
      },
    },
    async () => (await driveChoices(app.db)).map(({ id, name }) => ({ _id: id, name })),
  );

  async function driveValues(body: z.output<typeof driveInputSchema>) {
    const test = await findTest(app.db, body.testId);
    if (!test || test.test.archivedAt) {
      throw new HttpError(400, "Choose a current test for the drive.", { testId: "Choose a current test" });
    }
    return {
      ...body,
      code: body.code ?? newDriveCode(),
      opensAt: body.opensAt ? new Date(body.opensAt) : null,
      closesAt: body.closesAt ? new Date(body.closesAt) : null,
    };
  }

  async function storing<T>(store: () => Promise<T>): Promise<T> {
    try {
      return await store();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const message = "Another drive has this code. Choose another.";
      throw new HttpError(409, message, { code: message });
    }
  }

  app.post(
    "/",
    {
      schema: {
        tags: ["drives"],
        summary: "Create a drive (a code is made up when none is given)",
        security: [{ bearerAuth: [] }],
        body: driveInputSchema,
        response: { 201: driveSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const values = await driveValues(request.body);
      const id = await storing(() => insertDrive(app.db, values));
      return reply.status(201).send(driveOut(await driveOrNotFound(app.db, id)));
    },
  );

  app.get(
    "/:id",
    {
      schema: {
        tags: ["drives"],
        summary: "One drive",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        response: { 200: driveSchema, 404: errorBodySchema },
      },
    },
    async (request) => driveOut(await driveOrNotFound(app.db, request.params.id)),
  );

  app.put(
    "/:id",
    {
      schema: {
        tags: ["drives"],
        summary: "Edit a drive",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        body: driveInputSchema,
        response: { 200: driveSchema, ...refusals },
      },
    },
    async (request) => {
      const existing = await driveOrNotFound(app.db, request.params.id);
      const values = await driveValues({ ...request.body, code: request.body.code ?? existing.drive.code });
      await storing(() => updateDrive(app.db, request.params.id, values));
      return driveOut(await driveOrNotFound(app.db, request.params.id));
    },
  );

  /** What an admin reads after closing or reopening: where the drive now stands by its own times. */
  function statusMessage(drive: Drive): string {
    if (drive.status === "open") return "The drive is open: students can register and start.";
    if (drive.status === "scheduled" && drive.opensAt) {
      return `The drive is no longer closed by hand; it opens at ${formatDriveTime(drive.opensAt, drive.timeZone)}.`;
    }
    if (drive.closesAt && Date.parse(drive.closesAt) <= Date.now()) {
      return `The drive stays closed: its closing time, ${formatDriveTime(drive.closesAt, drive.timeZone)}, has passed.`;
    }
    return "The drive is closed: nobody new can register or start.";
  }

  for (const [action, change, summary] of [
    ["close", closeDrive, "Close a drive now: nobody new registers or starts"],
    ["reopen", reopenDrive, "Reopen a drive an admin closed (its opening and closing times still apply)"],
  ] as const) {
    app.post(
      `/:id/${action}`,
      {
        schema: {
          tags: ["drives"],
          summary,
          security: [{ bearerAuth: [] }],
          params: idParamsSchema,
          response: { 200: messageResponseSchema, 404: errorBodySchema },
        },
      },
      async (request) => {
        if (!(await change(app.db, request.params.id))) throw new HttpError(404, "Drive not found.");
        return { message: statusMessage(driveOut(await driveOrNotFound(app.db, request.params.id))) };
      },
    );
  }

  app.post(
    "/:id/archive",
    {
      schema: {
        tags: ["drives"],
        summary: "Archive (and close) a drive other than the default one; its results stay",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        response: { 200: messageResponseSchema, ...refusals },
      },
    },
    async (request) => {
      if (!(await archiveDrive(app.db, request.params.id))) {
        if (!(await findDrive(app.db, request.params.id))) throw new HttpError(404, "Drive not found.");
        throw new HttpError(409, "The default drive cannot be archived; close it instead.");
      }
      return { message: "The drive has been archived." };
    },
  );

  app.put(
    "/:id/roster",
    {
      schema: {
        tags: ["drives"],
        summary: "Replace the drive's roster from a CSV (text/csv) with email and/or usn columns",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        consumes: ["text/csv"],
        body: z.string({ error: "Send the roster as text/csv" }).max(2 * 1024 * 1024),
        response: { 200: rosterResponseSchema, 413: errorBodySchema, ...refusals },
      },
    },
    async (request) => {
      await driveOrNotFound(app.db, request.params.id);
      const entries = parseRoster(request.body);
      await replaceRoster(app.db, request.params.id, entries);
      const students = entries.length === 1 ? "1 student" : `${entries.length} students`;
      return { entries: entries.length, message: `The roster now lists ${students}.` };
    },
  );

  const liveBoards = app.liveBoards;
  /**
   * Open live board streams per admin session, on this instance. Counted per instance, not in PostgreSQL: what a
   * stream costs (a connection, timers, a session check every 2 s from this instance's pool) is each instance's,
   * so a session holds at most `perSession` × instances streams, a fixed bound. A shared count would need its
   * rows released by an instance that crashed, or the admin stays locked out of the board until they expire.
   */
  const openStreams = new Map<string, number>();

  app.get(
    "/:id/live",
    {
      schema: {
        tags: ["drives"],
        summary: "The live board of a drive: each student's state, question and score, with counts and averages",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        response: { 200: liveBoardSchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      if (!(await driveExists(app.db, request.params.id))) throw new HttpError(404, "Drive not found.");
      return liveBoards.read(request.params.id);
    },
  );

  app.get(
    "/:id/live/stream",
    {
      schema: {
        tags: ["drives"],
        summary:
          "The live board as server-sent events: `board` (the whole board) first, then `changes` (the totals and " +
          "the rows that changed) within about a second of each change, and a comment line as a heartbeat",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        produces: ["text/event-stream"],
        response: { 404: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const driveId = request.params.id;
      if (!(await driveExists(app.db, driveId))) throw new HttpError(404, "Drive not found.");
      const session = adminOf(request).tokenId;
      const open = openStreams.get(session) ?? 0;
      if (open >= LIVE_STREAM.perSession) {
        throw new HttpError(
          429,
          `You have ${LIVE_STREAM.perSession} live boards open already. Close one (in another tab or window) to ` +
            "follow this one.",
        );
      }
      openStreams.set(session, open + 1);
      const stream = new PassThrough();
      const send = (event: string, data: unknown) => stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      stream.write(`retry: ${LIVE_STREAM.retryMs}\n\n`);
      const heartbeat = setInterval(() => stream.write(": heartbeat\n\n"), LIVE_STREAM.heartbeatMs);
      const untilExpiry = adminOf(request).expiresAt.getTime() - Date.now();
      const longest = setTimeout(() => end(), Math.max(0, Math.min(LIVE_STREAM.longestMs, untilExpiry)));
      const sessionCheck = setInterval(() => app.requireAdmin(request).catch(() => end()), LIVE_STREAM.sessionCheckMs);
      let ended = false;
      let unwatch = () => {};
      function end() {
        if (ended) return;
        ended = true;
        const left = (openStreams.get(session) ?? 1) - 1;
        if (left > 0) openStreams.set(session, left);
        else openStreams.delete(session);
        clearInterval(heartbeat);
        clearInterval(sessionCheck);
        clearTimeout(longest);
        unwatch();
        stream.end();
      }
      unwatch = liveBoards.watch(driveId, {
        board: (board) => send(LIVE_EVENTS.board, board),
        changes: (changes) => send(LIVE_EVENTS.changes, changes),
        end,
      });
      // The admin left (closed the tab, went to another screen) or the connection dropped: stop reading for them.
      reply.raw.on("close", end);
      // A connection that closed while the drive was being looked up has fired its "close" already, and would hold
      // its place until the stream's longest time (five minutes): a reload storm locked an admin off the board.
      if (request.raw.socket.destroyed) end();
      // The stream is sent as it is (no schema applies to it); the schema's typing covers the JSON refusals only.
      const streaming: FastifyReply = reply;
      return (
        streaming
          .header("content-type", "text/event-stream; charset=utf-8")
          // nginx passes each event on at once instead of buffering the response (its site file says so too).
          .header("x-accel-buffering", "no")
          .send(stream)
      );
    },
  );

  app.get(
    "/:id/results",
    {
      schema: {
        tags: ["drives"],
        summary: "The drive's submitted attempts, best first (all, or the best `limit`)",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        querystring: driveResultsQuerySchema,
        response: { 200: z.array(driveResultSchema), 404: errorBodySchema },
      },
    },
    async (request) => {
      await driveOrNotFound(app.db, request.params.id);
      const { limit } = request.query;
      const results: DriveResult[] = [];
      for await (const rows of driveResultBatches(app.db, request.params.id, limit)) {
        for (const row of rows) {
          results.push({
            _id: row.id,
            studentId: row.student_id,
            studentName: row.student_name,
            email: row.email,
            usnNo: row.usn_no,
            score: row.score ?? 0,
            marks: row.marks,
            totalQuestions: row.total_questions,
            percentage: scorePercentage(row.marks, row.total_questions),
            passed: row.passed,
            focusLosses: row.focus_losses,
            submittedAt: new Date(row.submitted_at).toISOString(),
          });
        }
        if (limit !== undefined) break;
      }
      return results;
    },
  );

  app.get(
    "/:id/results.csv",
    {
      schema: {
        tags: ["drives"],
        summary: "The drive's results as CSV, streamed",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
      },
    },
    async (request, reply) => {
      await driveOrNotFound(app.db, request.params.id);
      return streamCsv(
        reply,
        "drive-results.csv",
        DRIVE_RESULT_CSV_COLUMNS,
        driveResultBatches(app.db, request.params.id),
        (row) => ({
          student: row.student_name,
          email: row.email,
          usnNo: row.usn_no,
          college: row.college,
          score: row.score ?? 0,
          marks: row.marks,
          total: row.total_questions,
          percentage: scorePercentage(row.marks, row.total_questions),
          result: row.passed === null ? "" : row.passed ? "pass" : "fail",
          focusLosses: row.focus_losses,
          submitted: csvDate(new Date(row.submitted_at)),
        }),
      );
    },
  );
};
