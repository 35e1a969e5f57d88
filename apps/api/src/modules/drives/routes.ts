// /api/drives (admin): a drive gives a test to a cohort for a window, with a code, an optional roster, its
// results and its live board.
import { LIST_CAP } from "@trainwise/contract/common";
import type { Drive, DriveDetail, DriveResult } from "@trainwise/contract/drives";
import { type driveInputSchema, ROSTER_MAX_BYTES } from "@trainwise/contract/drives";
import { scorePercentage, sectionResultsOf } from "@trainwise/contract/quiz";
import { shortlistFileName } from "@trainwise/contract/ranking";
import type { FastifyPluginAsync } from "fastify";
import type { z } from "zod";
import { announceEveryStudentSessionChanged } from "../../auth/session-changes.ts";
import { streamCsv } from "../../csv/reply.ts";
import { acceptTextUploads } from "../../csv/text-upload.ts";
import type { Executor } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { HttpError } from "../../http/http-error.ts";
import { serve } from "../../http/serve-endpoint.ts";
import { createMailer } from "../../mail/mailer.ts";
import { hearEveryoneNow } from "../quiz/disconnects.ts";
import { storeMessage } from "../quiz/notices.ts";
import { pauseDrive, refuseWhilePaused, resumeDrive } from "../quiz/pause.ts";
import { reclockOpenAttempts } from "../quiz/repository/attempt-writes.ts";
import { addTimeToRunning } from "../quiz/service.ts";
import { RESULT_EXPORT_COLUMNS, resultLine } from "../results/export-lines.ts";
import { liveStreams } from "./live-stream.ts";
import { emailPersonalLinks, makePersonalLinks, personalLinkAddress, personalLinksCsv } from "./personal-links.ts";
import { driveRanking, rankingState, SHORTLIST_COLUMNS, shortlistBatches, shortlistLine } from "./ranking.ts";
import {
  archiveDrive,
  closeDrive,
  currentTestSections,
  driveChoices,
  driveExists,
  driveHasAttempts,
  driveRelease,
  driveResultBatches,
  driveTable,
  findDrive,
  insertDrive,
  keyShownAfterClose,
  listDrives,
  newDriveCode,
  publishResults,
  reopenDrive,
  replaceRoster,
  rosterLines,
  updateDrive,
} from "./repository.ts";
import { parseRoster } from "./roster.ts";
import { driveHasClosed, driveStatus, formatDriveTime } from "./window.ts";

const TEST_IN_USE =
  "Students have started this drive's test, so its results belong to that test. Create a new drive to give another test.";

const KEY_SHOWN =
  "This drive's students have been shown its answers since it closed, so it cannot take new attempts. " +
  "Create a new drive to give the test again.";

const RESULTS_OUT = "This drive's results have already reached its students, so they cannot be held back now.";

const NOT_HELD =
  "This drive does not hold its results: they reach its students by themselves once it has closed and its last " +
  "attempt has ended.";

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
    closingEndsAttempts: drive.closingEndsAttempts,
    personalLinksOnly: drive.personalLinksOnly,
    verifyEmail: drive.verifyEmail,
    holdResults: drive.holdResults,
    tieBreakSections: drive.tieBreakSections,
    lateEntryMinutes: drive.lateEntryMinutes,
    allowedAddresses: drive.allowedAddresses,
    disconnectGraceSeconds: drive.disconnectGraceSeconds,
    disconnectCreditMinutes: drive.disconnectCreditMinutes,
    focusLossLimit: drive.focusLossLimit,
    focusLossEndsAttempt: drive.focusLossEndsAttempt,
    fullScreen: drive.fullScreen,
    blockCopyPaste: drive.blockCopyPaste,
    isDefault: drive.isDefault,
    archived: drive.archivedAt !== null,
    status,
    pausedAt: drive.pausedAt?.toISOString() ?? null,
    ...counts,
    createdAt: drive.createdAt.toISOString(),
  };
}

async function driveOrNotFound(db: Executor, id: string) {
  const found = await findDrive(db, id);
  if (!found) throw new HttpError(404, "Drive not found.");
  return found;
}

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

const driveRoutes: FastifyPluginAsync = async (app) => {
  acceptTextUploads(app, ["text/csv"], ROSTER_MAX_BYTES);
  const mailer = createMailer(app.config.smtpUrl);

  serve(app, "drives", async (request, reply) => {
    const { archived, ...paging } = request.query;
    const { rows, total } = await listDrives(app.db, { ...paging, includeArchived: archived === "true" });
    reply.header("x-total-count", String(total));
    return rows.map(driveOut);
  });

  serve(app, "driveTable", async (request) => {
    const page = await driveTable(app.db, request.query);
    return { ...page, rows: page.rows.map(driveOut) };
  });

  serve(app, "driveChoices", async () => (await driveChoices(app.db)).map(({ id, name }) => ({ _id: id, name })));

  async function driveValues(body: z.output<typeof driveInputSchema>) {
    const sections = await currentTestSections(app.db, body.testId);
    if (!sections) {
      throw new HttpError(400, "Choose a current test for the drive.", { testId: "Choose a current test" });
    }
    const unknown = body.tieBreakSections.filter((name) => !sections.includes(name));
    if (unknown.length > 0) {
      const message = `Ties can be broken only by the test's own sections: ${unknown.join(", ")} is not one of them.`;
      throw new HttpError(400, message, { tieBreakSections: message });
    }
    if (body.verifyEmail && !mailer) {
      const message = "This server sends no e-mail (SMTP_URL is not set), so it cannot check addresses.";
      throw new HttpError(400, message, { verifyEmail: message });
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

  serve(app, "createDrive", async (request) => {
    const values = await driveValues(request.body);
    const id = await storing(() => insertDrive(app.db, values));
    return driveOut(await driveOrNotFound(app.db, id));
  });

  serve(app, "drive", async (request): Promise<DriveDetail> => {
    const drive = driveOut(await driveOrNotFound(app.db, request.params.id));
    const release = await driveRelease(app.db, request.params.id);
    if (!release) throw new HttpError(404, "Drive not found.");
    return {
      ...drive,
      resultsReleaseAt: release.releaseAt?.toISOString() ?? null,
      settlesAt: release.settlesAt?.toISOString() ?? null,
      testSecure: release.secure,
      testReviewPolicy: release.reviewPolicy,
    };
  });

  /** Refuses to open again a drive whose students have been shown its answers since it closed. */
  async function refuseReopeningAfterKeyShown(id: string) {
    if (await keyShownAfterClose(app.db, id)) throw new HttpError(409, KEY_SHOWN);
  }

  serve(app, "updateDrive", async (request) => {
    const existing = await driveOrNotFound(app.db, request.params.id);
    const values = await driveValues({ ...request.body, code: request.body.code ?? existing.drive.code });
    // Results, certificates and item analysis name the drive's test: another test under attempts already made would
    // rename what they were (an outside attack changed a passed certificate's test this way).
    if (values.testId !== existing.drive.testId && (await driveHasAttempts(app.db, request.params.id))) {
      throw new HttpError(409, TEST_IN_USE, { testId: TEST_IN_USE });
    }
    // What students have seen cannot be taken back: results that went out stay out.
    if (
      values.holdResults &&
      !existing.drive.holdResults &&
      (await driveRelease(app.db, request.params.id))?.released
    ) {
      throw new HttpError(409, RESULTS_OUT, { holdResults: RESULTS_OUT });
    }
    // A later closing time opens a drive whose time had passed, as Reopen does.
    if (!driveHasClosed({ closedAt: existing.drive.closedAt, closesAt: values.closesAt }, new Date())) {
      await refuseReopeningAfterKeyShown(request.params.id);
    }
    await storing(() =>
      app.db.transaction(async (tx) => {
        await updateDrive(tx, request.params.id, values);
        await reclockOpenAttempts(tx, request.params.id);
        // Every instance keeps each sitting student's exam room, and whether their drive gives lost connections their
        // time back, with their session (plugins/auth.ts).
        const credits = (drive: { disconnectGraceSeconds: number | null; disconnectCreditMinutes: number | null }) =>
          `${drive.disconnectGraceSeconds}/${drive.disconnectCreditMinutes}`;
        const creditsChanged = credits(values) !== credits(existing.drive);
        if (values.allowedAddresses.join() !== existing.drive.allowedAddresses.join() || creditsChanged) {
          await announceEveryStudentSessionChanged(tx);
        }
        // Credits count silence from now: before, nothing was listening (an outside attack had a minute of an
        // earlier silence given back by switching them on).
        if (creditsChanged) await hearEveryoneNow(tx, request.params.id);
      }),
    );
    return driveOut(await driveOrNotFound(app.db, request.params.id));
  });

  for (const [name, change] of [
    ["closeDrive", closeDrive],
    ["reopenDrive", reopenDrive],
  ] as const) {
    serve(app, name, async (request) => {
      if (name === "reopenDrive") await refuseReopeningAfterKeyShown(request.params.id);
      const changed = await app.db.transaction(async (tx) => {
        const found = await change(tx, request.params.id);
        if (found) await reclockOpenAttempts(tx, request.params.id);
        return found;
      });
      if (!changed) throw new HttpError(404, "Drive not found.");
      return { message: statusMessage(driveOut(await driveOrNotFound(app.db, request.params.id))) };
    });
  }

  serve(app, "addDriveTime", async (request) => {
    await driveOrNotFound(app.db, request.params.id);
    await refuseWhilePaused(app.db, { driveId: request.params.id }, "add time");
    return { message: await addTimeToRunning(app.db, { driveId: request.params.id }, request.body.minutes) };
  });

  for (const [name, change] of [
    ["pauseDrive", pauseDrive],
    ["resumeDrive", resumeDrive],
  ] as const) {
    serve(app, name, async (request) => {
      await driveOrNotFound(app.db, request.params.id);
      return { message: await change(app.db, request.params.id) };
    });
  }

  serve(app, "sendDriveMessage", async (request, reply) => {
    await driveOrNotFound(app.db, request.params.id);
    await storeMessage(app.db, request.params.id, request.body.text);
    reply.status(201);
    return {
      message: `Sent to the screen of every candidate of the drive, and of anyone who opens the quiz later: “${request.body.text}”`,
    };
  });

  serve(app, "publishResults", async (request) => {
    const { drive } = await driveOrNotFound(app.db, request.params.id);
    if (!drive.holdResults) throw new HttpError(409, NOT_HELD);
    if (await publishResults(app.db, drive.id)) {
      return { message: "Results published: the drive's students can now read them." };
    }
    const settlesAt = (await driveRelease(app.db, drive.id))?.settlesAt;
    const when =
      settlesAt && settlesAt.getTime() > Date.now() ? `, at ${formatDriveTime(settlesAt, drive.timeZone)}` : "";
    throw new HttpError(
      409,
      `Results can be published once the drive has closed and its last attempt has ended${when}: until then a ` +
        "student still answering could learn the answers from them.",
    );
  });

  serve(app, "archiveDrive", async (request) => {
    const archived = await app.db.transaction(async (tx) => {
      const found = await archiveDrive(tx, request.params.id);
      if (found) await reclockOpenAttempts(tx, request.params.id);
      return found;
    });
    if (!archived) {
      await driveOrNotFound(app.db, request.params.id);
      throw new HttpError(409, "The default drive cannot be archived; close it instead.");
    }
    return { message: "The drive has been archived." };
  });

  serve(app, "replaceRoster", async (request) => {
    await driveOrNotFound(app.db, request.params.id);
    const entries = await parseRoster(request.body);
    await replaceRoster(app.db, request.params.id, entries);
    const students = entries.length === 1 ? "1 student" : `${entries.length} students`;
    return { entries: entries.length, message: `The roster now lists ${students}.` };
  });

  serve(app, "makePersonalLinks", async (request) => {
    const { drive } = await driveOrNotFound(app.db, request.params.id);
    if (drive.archivedAt) throw new HttpError(409, "This drive is archived: its links would admit nobody.");
    const linked = await makePersonalLinks(app.db, drive.id, request.body.lines);
    const address = (token: string) => personalLinkAddress(app.config.siteUrl, drive.code, token);
    const emailing = mailer ? linked.filter((line) => line.email).length : 0;
    // After the answer's links are stored; the roster shows each line once its e-mail has gone.
    if (mailer && emailing > 0) void emailPersonalLinks(app.db, mailer, drive, linked, address, request.log);
    const made = linked.length === 1 ? "1 personal link" : `${linked.length} personal links`;
    const message =
      linked.length === 0
        ? "Every roster line has a personal link already. Make new links for every line to replace them."
        : `Made ${made}. Give the CSV to the placement officer: the links are shown only now.` +
          (emailing > 0 ? ` E-mailing ${emailing} of them to the addresses the roster gives.` : "");
    return { message, made: linked.length, emailing, csv: await personalLinksCsv(linked, address) };
  });

  serve(app, "driveRoster", async (request, reply) => {
    await driveOrNotFound(app.db, request.params.id);
    const { rows, total } = await rosterLines(app.db, request.params.id, request.query);
    reply.header("x-total-count", String(total));
    return rows;
  });

  serve(app, "driveLive", async (request) => {
    if (!(await driveExists(app.db, request.params.id))) throw new HttpError(404, "Drive not found.");
    return app.liveBoards.read(request.params.id);
  });

  const openStream = liveStreams(app);
  serve(app, "driveLiveStream", async (request, reply) => {
    if (!(await driveExists(app.db, request.params.id))) throw new HttpError(404, "Drive not found.");
    return openStream(request, reply, request.params.id);
  });

  serve(app, "driveResults", async (request) => {
    await driveOrNotFound(app.db, request.params.id);
    // The best `limit`, or the best LIST_CAP: no request makes the server list every result of a large drive.
    const best = await driveResultBatches(app.db, request.params.id, request.query.limit ?? LIST_CAP).next();
    const results: DriveResult[] = (best.done ? [] : best.value).map((row) => ({
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
      sections: sectionResultsOf(row.sections, row.section_marks),
      focusLosses: row.focus_losses,
      lateAnswers: row.lateAnswers,
      burstAnswers: row.burstAnswers,
      submittedAt: new Date(row.submitted_at).toISOString(),
      autoSubmitted: row.auto_submitted,
    }));
    return results;
  });

  serve(app, "driveResultsExport", async (request, reply) => {
    await driveOrNotFound(app.db, request.params.id);
    return streamCsv(
      reply,
      "drive-results.csv",
      RESULT_EXPORT_COLUMNS,
      driveResultBatches(app.db, request.params.id),
      resultLine,
    );
  });

  serve(app, "driveRanking", async (request) => {
    await driveOrNotFound(app.db, request.params.id);
    return driveRanking(app.db, request.params.id, request.query);
  });

  serve(app, "driveShortlistExport", async (request, reply) => {
    const drive = await driveOrNotFound(app.db, request.params.id);
    const state = await rankingState(app.db, drive.drive.id);
    return streamCsv(
      reply,
      shortlistFileName(drive.drive.code, request.query, state?.final ?? false),
      SHORTLIST_COLUMNS,
      shortlistBatches(app.db.$client, request.params.id, request.query),
      shortlistLine,
    );
  });
};

export default driveRoutes;
