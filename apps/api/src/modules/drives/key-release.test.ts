// The release rule is written twice in SQL: as a time (what a pending result says) and as a yes/no a draw can
// ask cheaply. Generated drives and attempts pin the two together, and to the drive status rule.
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { drives } from "../../db/schema.ts";
import { createTestApp } from "../../test/app.ts";
import { releaseAtSql, releasedSql } from "./key-release.ts";
import { driveStatusSql, publishResults } from "./repository.ts";

describe("a drive's release", async () => {
  const { database } = await createTestApp();
  const query = database.pool.query.bind(database.pool);
  const [{ id: testId }] = (
    await query(
      "insert into tests (name, question_count, seconds_per_question) values ('Release rule', 5, 30) returning id",
    )
  ).rows;
  let made = 0;

  // Seconds from now: well past, just past (inside and outside the 10 s grace), and still to come.
  const offset = fc.constantFrom(-7200, -60, -15, -5, 120, 3600);
  const moment = fc.option(offset, { nil: null });
  // Last heard from (decision 040): on a drive that gives lost connections their time back, an attempt whose page
  // fell silent before its time ran out is held open, and the drive has not settled until that hold ends.
  const attempt = fc.record({ deadline: offset, submitted: fc.boolean(), heard: fc.option(offset, { nil: null }) });

  it("is past exactly when releasedSql says so, only for a closed drive, held or not, never while paused, and never while a lost connection holds an attempt open", async () => {
    await fc.assert(
      fc.asyncProperty(
        moment,
        moment,
        fc.array(attempt, { maxLength: 4 }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        async (closesIn, closedIn, attempts, holdResults, publishing, paused, credits) => {
          const at = (seconds: number | null) => (seconds === null ? null : new Date(Date.now() + seconds * 1000));
          const [{ id: driveId }] = (
            await query(
              `insert into drives (test_id, name, code, closes_at, closed_at, hold_results, paused_at,
               disconnect_grace_seconds, disconnect_credit_minutes)
             values ($1, 'Release', $2, $3, $4, $5, $6, $7, $8) returning id`,
              [
                testId,
                `REL${++made}`,
                at(closesIn),
                closedIn === null ? null : at(Math.min(closedIn, 0)),
                holdResults,
                paused ? at(-60) : null,
                credits ? 60 : null,
                credits ? 5 : null,
              ],
            )
          ).rows;
          for (const { deadline, submitted, heard } of attempts) {
            const [{ id: studentId }] = (
              await query(
                `insert into students (name, email, phone, usn_no, college, course, "group", year, drive_id)
               values ('R', $1, '9999999999', $1, 'C', 'C', 'G', '1', $2) returning id`,
                [`r${++made}@example.com`, driveId],
              )
            ).rows;
            await query(
              `insert into attempts (student_id, started_at, current_started_at, seconds_per_question, total_questions,
               deadline_at, drive_id, timing_mode, paced, review_policy, submitted_at, last_contact_at)
             values ($1, now() - interval '3 hours', now() - interval '3 hours', 30, 5, $2, $3, 'whole_quiz', false,
               'score_only', $4, $5)`,
              [studentId, at(deadline), driveId, submitted ? new Date() : null, at(heard)],
            );
          }
          // Held results go out only when published, which the product allows only once the drive has settled.
          if (publishing) await publishResults(database.db, driveId);
          const { rows } = await database.db.execute<{ released: boolean; releaseIsPast: boolean; status: string }>(
            sql`select ${sql.raw(releasedSql('"drives"'))} as released,
                coalesce(${sql.raw(releaseAtSql('"drives"'))} <= now(), false) as "releaseIsPast",
                ${driveStatusSql()} as status
              from ${drives} where ${drives.id} = ${driveId}`,
          );
          const [row] = rows;
          expect(row?.released).toBe(row?.releaseIsPast);
          if (row?.released) expect(row.status).toBe("closed");
          // A paused drive's attempts get time back when it resumes (decision 039): nothing of it is released.
          if (paused) expect(row?.released).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });
});
