// Disconnect credits (decision 040). On a drive that gives lost connections their time back, the quiz page sends a
// heartbeat every HEARTBEAT_EVERY_SECONDS while the attempt runs. The attempt keeps when its page was last heard
// from; whatever the student changed (an answer, a question opened, a move, a reload) counts as heard too. A page
// heard again after a silence longer than the drive's grace gets the time beyond the grace back, up to the drive's
// most in all, added at the moment the grace ran out (timing.ts's disconnectCredit, through the add-time statement
// that the differential test pins), and the credit is written on the attempt for its admins.

import type { HeartbeatReply } from "@trainwise/contract/quiz";
import type { Database, NamedStatement } from "../../db/client.ts";
import { runNamed } from "../../db/client.ts";
import { settledSql } from "../drives/key-release.ts";
import { addTime } from "./repository/attempt-writes.ts";
import { heardOnRowSql, lastHeardSql } from "./repository/silence-sql.ts";
import { disconnectCredit } from "./timing.ts";

const heartbeatStatement: NamedStatement = {
  name: "quiz.heartbeat",
  // $1 student, $2 now: the open attempt's page is heard from now, unless it was silent for longer than its drive's
  // grace with time still to give back (or the drive gives none): then the long way decides. While the drive is
  // paused no clock runs, and nothing is lost.
  text: `with open as (
      select a.id, d.disconnect_grace_seconds is not null as credits,
        d.paused_at is not null or a.credited_seconds >= d.disconnect_credit_minutes * 60
          or ${heardOnRowSql("a")} >= $2::timestamptz - make_interval(secs => d.disconnect_grace_seconds) as heard
      from attempts a join drives d on d.id = a.drive_id
      where a.student_id = $1::uuid and a.submitted_at is null
    ), touched as (
      update attempts a set last_contact_at = $2::timestamptz from open o
      where a.id = o.id and o.credits and o.heard
      returning a.id
    )
    select o.credits, exists (select 1 from touched) as touched from open o`,
};

const silenceStatement: NamedStatement = {
  name: "quiz.silence",
  // $1 student: the open attempt, locked, with when its page was last heard from and what its drive may still give.
  // A paused drive's clocks stand still, and nothing is lost; a settled drive may have let its key out, and no
  // attempt of it takes an answer again.
  text: `select a.id, ${lastHeardSql("a")} as "heardAt", d.disconnect_grace_seconds as "graceSeconds",
      d.disconnect_credit_minutes * 60 - a.credited_seconds as "leftSeconds",
      d.paused_at is not null or ${settledSql("d")} as "givesNothing"
    from attempts a join drives d on d.id = a.drive_id
    where a.student_id = $1::uuid and a.submitted_at is null
    for update of a`,
};

const touchStatement: NamedStatement = {
  name: "quiz.touch",
  text: "update attempts set last_contact_at = $2::timestamptz where id = $1::uuid",
};

const creditStatement: NamedStatement = {
  name: "quiz.record-credit",
  text: `insert into attempt_credits (attempt_id, silent_from, heard_at, seconds)
    values ($1::uuid, $2::timestamptz, $3::timestamptz, $4::float8)`,
};

/**
 * POST /api/quiz/heartbeat: the student's page is still there. After a silence longer than the drive's grace, the
 * time lost beyond it comes back now (when the attempt's clock was still running as the grace ran out), and the
 * page is told how much, to read its clock again.
 */
export async function hearFrom(db: Database, studentId: string): Promise<HeartbeatReply> {
  const [quick] = await runNamed<{ credits: boolean; touched: boolean }>(db, heartbeatStatement, [
    studentId,
    new Date(),
  ]);
  if (!quick?.credits || quick.touched) return { creditedSeconds: 0 };
  return db.transaction(async (tx) => {
    const [silent] = await runNamed<{
      id: string;
      heardAt: string | Date;
      graceSeconds: number | null;
      leftSeconds: number | null;
      givesNothing: boolean;
    }>(tx, silenceStatement, [studentId]);
    if (!silent || silent.graceSeconds === null || silent.leftSeconds === null) return { creditedSeconds: 0 };
    // Measured once the attempt is held, so that the time the lock took is not lost either.
    const now = new Date();
    const heardAt = new Date(silent.heardAt);
    const credit = silent.givesNothing
      ? undefined
      : disconnectCredit(heardAt, now, silent.graceSeconds, Number(silent.leftSeconds));
    const given = credit ? await addTime(tx, { studentId }, credit.seconds, credit.from, "credit") : [];
    await runNamed(tx, touchStatement, [silent.id, now]);
    if (!credit || given.length === 0) return { creditedSeconds: 0 };
    await runNamed(tx, creditStatement, [silent.id, heardAt, now, credit.seconds]);
    return { creditedSeconds: credit.seconds };
  });
}
