// Scorecards (issue 26, decision 033): the PDF a student downloads of a result whose score has reached them, and
// the copy each candidate is mailed once their drive's ranks are final, where the drive checked who they are.
import { verifiedIdentity } from "@trainwise/contract/certificates";
import { sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Database } from "../../db/client.ts";
import { HttpError } from "../../http/http-error.ts";
import { loggableMailFailure, type Mailer } from "../../mail/mailer.ts";
import { WorkerQueue } from "../../threads/worker-queue.ts";
import { releasedSql } from "../drives/key-release.ts";
import { driveStandings, finalSql, rankingState, type Standing } from "../drives/ranking.ts";
import { formatDriveTime } from "../drives/window.ts";
import { resultOf } from "../quiz/service.ts";
import type { DocumentJob, ScorecardFacts } from "./pdf.ts";
import { scorecardRecord } from "./repository.ts";

/** The worker thread that draws certificates and scorecards, one at a time, so a drawing holds no request. */
export function documentDrawing() {
  return new WorkerQueue<DocumentJob, Uint8Array>({
    script: new URL("./pdf-worker.ts", import.meta.url),
    timeMs: 30_000,
    waiting: 100,
    busyMessage: "Many certificates and scorecards are being made right now. Try again in a minute.",
    timeoutError: () => new Error("Drawing a document took too long."),
  });
}

/** How many due scorecards one round of mailing claims. */
const MAILED_PER_ROUND = 20;

/**
 * How long an instance keeps a final drive's standings and a drawn scorecard. Final ranks move only when an admin
 * removes a registration; a scorecard drawn before that may say so for this long.
 */
const KEPT_MS = 60_000;

export class Scorecards {
  readonly #db: Database;
  readonly #drawing: WorkerQueue<DocumentJob, Uint8Array>;
  /**
   * A final drive's standings by the version of its submitted attempts, ranked once for every candidate: ranked
   * per download, the day results came out a drive of 30,000 took 100 ms of PostgreSQL a scorecard, and students'
   * quiz requests waited seconds (outside attack). The promise is kept, so downloads arriving together share one
   * ranking; a submission or a removed registration makes a new version, ranked afresh.
   */
  readonly #standings = new LRUCache<string, Promise<Map<string, Standing>>>({ max: 50, ttl: KEPT_MS });
  /** Drawn scorecards by result and the standings they show: a student's second download draws nothing. */
  readonly #drawn = new LRUCache<string, Buffer>({
    maxSize: 32 * 1024 * 1024,
    sizeCalculation: (pdf) => pdf.length + 100,
    ttl: KEPT_MS,
  });

  constructor(db: Database, drawing: WorkerQueue<DocumentJob, Uint8Array>) {
    this.#db = db;
    this.#drawing = drawing;
  }

  /**
   * The student's scorecard of a result whose score has reached them (the result page's own rule): refused with
   * when it comes out while it waits. Drawn again once its ranks become final, and at most once a minute before.
   */
  async pdfOf(studentId: string, resultId: string): Promise<Buffer> {
    const facts = await this.#factsOf(studentId, resultId);
    return this.#drawnOf(resultId, facts.scorecard, facts.standingsVersion);
  }

  async #drawnOf(resultId: string, scorecard: ScorecardFacts, standingsVersion: string): Promise<Buffer> {
    const key = `${resultId}:${standingsVersion}`;
    const kept = this.#drawn.get(key);
    if (kept) return kept;
    const drawn = await this.#drawing.run({ kind: "scorecard", facts: scorecard });
    const pdf = Buffer.from(drawn.buffer, drawn.byteOffset, drawn.length);
    this.#drawn.set(key, pdf);
    return pdf;
  }

  async #factsOf(studentId: string, resultId: string) {
    const result = await resultOf(this.#db, studentId, resultId);
    if (result.status === "pending") {
      const when = result.releasesAt ? ` at ${formatDriveTime(result.releasesAt, result.timeZone)}` : "";
      throw new HttpError(409, `Your scorecard is ready when this test's results come out${when}.`);
    }
    const record = await scorecardRecord(this.#db, studentId, resultId);
    if (!record) throw new HttpError(404, "Result not found.");
    const state = await rankingState(this.#db, record.driveId);
    const standingsVersion = (state?.final && state.version) || "provisional";
    const scorecard: ScorecardFacts = {
      studentName: record.studentName,
      identity: record.identityChecked
        ? verifiedIdentity({ ...record, usnNo: record.rosterUsn })
        : "as typed at registration: this drive did not check who took the test",
      usnNo: record.usnNo,
      college: record.college,
      course: record.course,
      testName: record.testName,
      driveName: record.driveName,
      organisation: record.organisation,
      submitted: record.submitted,
      questions: result.totalQuestions,
      answered: record.answered,
      right: result.score,
      marks: result.marks,
      percentage: result.percentage,
      passMark: result.passMark,
      passed: result.passed,
      sections: result.sections,
      standing: state?.final
        ? await this.#standingOf(record.driveId, standingsVersion, resultId)
        : { reason: "given once the drive has closed and every attempt is in" },
    };
    return { scorecard, standingsVersion, email: record.email, identityChecked: record.identityChecked };
  }

  /** Rank and percentile of a final drive's attempt, when it is the one its candidate is ranked by. */
  async #standingOf(driveId: string, version: string, attemptId: string): Promise<ScorecardFacts["standing"]> {
    const key = `${driveId}:${version}`;
    let standings = this.#standings.get(key);
    if (!standings) {
      standings = driveStandings(this.#db, driveId);
      this.#standings.set(key, standings);
      standings.catch(() => this.#standings.delete(key));
    }
    const standing = (await standings).get(attemptId);
    if (!standing) return { reason: "given on the scorecard of your best attempt in this drive" };
    const shared = standing.shared ? " (shared with another candidate of the same score and time)" : "";
    return { rank: `${standing.rank} of ${standing.candidates}${shared}`, percentile: standing.percentile };
  }

  /**
   * One round of mailing: claims due attempts of drives whose ranks are final and results out (each attempt once,
   * across instances), and mails the candidate the scorecard of the attempt they are ranked by, where the drive checked
   * who they are (a roster, or a code e-mailed to them): an open drive's address is whatever was typed, and a
   * stranger's scorecard must not become a way to send mail to anyone. A claim is kept whether or not the mail
   * goes, so a mail server that refuses an address is not asked again every round. Returns how many were mailed.
   */
  async mailDue(mailer: Mailer, log: (failure: object) => void): Promise<number> {
    const { rows } = await this.#db.execute<{ id: string; student_id: string }>(sql`
      with due_drives as materialized (
        -- Drives with scorecards due, each found by one probe of the partial index; only these are asked whether
        -- their ranks are final and their results out.
        select d.* from drives d where exists (select 1 from attempts due
          where due.drive_id = d.id and due.scorecard_mail_due and due.submitted_at is not null)
      ),
      claimed as (
        select a.id from attempts a
        where a.drive_id in (select d.id from due_drives d
            where ${sql.raw(finalSql("d"))} and ${sql.raw(releasedSql("d"))})
          and a.scorecard_mail_due and a.submitted_at is not null
        limit ${MAILED_PER_ROUND}
        for update of a skip locked
      )
      update attempts a set scorecard_mail_due = false from claimed where a.id = claimed.id
      returning a.id, a.student_id`);
    let mailed = 0;
    for (const claimed of rows) {
      try {
        const facts = await this.#factsOf(claimed.student_id, claimed.id);
        const { scorecard } = facts;
        const { standing } = scorecard;
        if (!facts.identityChecked || "reason" in standing) continue;
        const pdf = await this.#drawnOf(claimed.id, scorecard, facts.standingsVersion);
        await mailer({
          to: facts.email,
          subject: `Your scorecard: ${scorecard.testName}`,
          text:
            `Dear ${scorecard.studentName},\n\n` +
            `The results of ${scorecard.testName} (${scorecard.driveName}) are final. Your scorecard is attached: ` +
            `${scorecard.marks} of ${scorecard.questions} marks (${scorecard.percentage}%)` +
            `${scorecard.passed === null ? "" : scorecard.passed ? ", passed" : ", not passed"}` +
            `, rank ${standing.rank}, percentile ${standing.percentile}.\n`,
          attachments: [
            {
              filename: "scorecard.pdf",
              content: pdf,
              contentType: "application/pdf",
            },
          ],
        });
        mailed++;
      } catch (error) {
        // The SMTP codes only: a failed send's message quotes the address.
        log(error instanceof HttpError ? { refused: error.statusCode } : loggableMailFailure(error));
      }
    }
    return mailed;
  }
}
