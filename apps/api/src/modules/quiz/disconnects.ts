// Disconnect credits (decision 040). On a drive that gives lost connections their time back, every request the
// student makes while sitting the test is heard, before it is served (the quiz routes' hook), and the quiz page sends
// a heartbeat every HEARTBEAT_EVERY_SECONDS when it has nothing else to say. The attempt keeps when its page was
// last heard from. Heard again after a silence longer than the drive's grace, it gets the time beyond the grace back,
// up to the drive's most in all, added at the moment the grace ran out (timing.ts's disconnectCredit, through the
// add-time statement that the differential test pins), before the request is served; the credit is written on the
// attempt for its admins.

import { DEADLINE_GRACE_SECONDS } from "@trainwise/contract/constants";
import type { HeartbeatReply } from "@trainwise/contract/quiz";
import type { Database, Executor, NamedStatement } from "../../db/client.ts";
import { runNamed } from "../../db/client.ts";
import { addTime } from "./repository/attempt-writes.ts";
import { clockColumns, runOutSql } from "./repository/clock-sql.ts";
import { HEARD_SQL, silenceHoldsSql } from "./repository/silence-sql.ts";
import { disconnectCredit } from "./timing.ts";

/**
 * How stale the attempt's last contact may be before a request writes it again: a page's requests come in bursts
 * (an answer, then Next), and one write a second is enough. A silence may be measured up to this much too long.
 */
const CONTACT_WRITE_EVERY_SECONDS = 1;

/** The answer where there is nothing to hear: no attempt running on a drive that gives time back. */
export const NOTHING_GIVEN: HeartbeatReply = { creditedSeconds: 0, creditedInAll: 0 };

const hearStatement: NamedStatement = {
  name: "quiz.hear",
  // $1 student, $2 now: the open attempt's page is heard now, unless it was silent for longer than its drive's grace
  // with time still to give back: then the long way decides. While the drive is paused no clock runs and nothing is
  // written, so that a silence before the pause is measured without it once resumed (the resume moves the last
  // contact on by the pause).
  text: `with open as (
      select a.id, a.credited_seconds as "creditedInAll", d.paused_at is not null as paused,
        a.credited_seconds >= d.disconnect_credit_minutes * 60
          or ${HEARD_SQL} >= $2::timestamptz - make_interval(secs => d.disconnect_grace_seconds) as heard
      from attempts a join drives d on d.id = a.drive_id
      where a.student_id = $1::uuid and a.submitted_at is null and d.disconnect_grace_seconds is not null
    ), touched as (
      update attempts a set last_contact_at = $2::timestamptz from open o
      where a.id = o.id and o.heard and not o.paused
        and (a.last_contact_at is null
          or a.last_contact_at < $2::timestamptz - make_interval(secs => ${CONTACT_WRITE_EVERY_SECONDS}))
    )
    select o.paused or o.heard as settled, o."creditedInAll" from open o`,
};

const silenceStatement: NamedStatement = {
  name: "quiz.silence",
  // $1 student, $2 now: the open attempt, locked, with when its page was last heard from, what its drive may still
  // give, and whether its time is up (past the grace: runOutSql) and it is no longer held open (silenceHoldsSql).
  text: `select a.id, ${HEARD_SQL} as "heardAt", d.disconnect_grace_seconds as "graceSeconds",
      d.disconnect_credit_minutes * 60 - a.credited_seconds as "leftSeconds", a.credited_seconds as "creditedInAll",
      ${runOutSql(clockColumns("a"), "$2::timestamptz", `${DEADLINE_GRACE_SECONDS}`)}
        and not ${silenceHoldsSql("a", "d", "$2::timestamptz")} as "timeUp",
      d.paused_at is not null as paused
    from attempts a join drives d on d.id = a.drive_id
    where a.student_id = $1::uuid and a.submitted_at is null and d.disconnect_grace_seconds is not null
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

const hearEveryoneStatement: NamedStatement = {
  name: "quiz.hear-everyone",
  text: "update attempts set last_contact_at = now() where drive_id = $1::uuid and submitted_at is null",
};

/**
 * Hears the student, sitting the test on a drive that gives lost connections their time back: after a silence
 * longer than the drive's grace, the time lost beyond it comes back now (when the attempt's clock was still running
 * as the grace ran out), before whatever they asked is served. Answers with the seconds given back, now and in all.
 */
export async function hearFrom(db: Database, studentId: string): Promise<HeartbeatReply> {
  const [quick] = await runNamed<{ settled: boolean; creditedInAll: number }>(db, hearStatement, [
    studentId,
    new Date(),
  ]);
  if (!quick) return NOTHING_GIVEN;
  if (quick.settled) return { creditedSeconds: 0, creditedInAll: quick.creditedInAll };
  return db.transaction(async (tx) => {
    const now = new Date();
    const [silent] = await runNamed<{
      id: string;
      heardAt: string | Date;
      graceSeconds: number;
      leftSeconds: number;
      creditedInAll: number;
      timeUp: boolean;
      paused: boolean;
    }>(tx, silenceStatement, [studentId, now]);
    if (!silent) return NOTHING_GIVEN;
    const before = { creditedSeconds: 0, creditedInAll: silent.creditedInAll };
    // An attempt whose time is up and no longer held gets nothing: its drive may have settled since (an outside
    // attack had time given back as a hold ended, and answered with the key another candidate then saw). While held,
    // a credit moves its end no later than the hold's, which the drive's settling waits for.
    if (silent.paused || silent.timeUp) return before;
    const heardAt = new Date(silent.heardAt);
    const credit = disconnectCredit(heardAt, now, silent.graceSeconds, Number(silent.leftSeconds));
    const [given] = credit ? await addTime(tx, { studentId }, credit.seconds, credit.from, "credit") : [];
    await runNamed(tx, touchStatement, [silent.id, now]);
    // What the clock moved, which a closing that ends attempts may cut short of the silence.
    if (!given || given.movedSeconds <= 0) return before;
    await runNamed(tx, creditStatement, [silent.id, heardAt, now, given.movedSeconds]);
    return { creditedSeconds: given.movedSeconds, creditedInAll: silent.creditedInAll + given.movedSeconds };
  });
}

/**
 * Every running attempt of the drive heard now: its credits were just switched on or changed, and silence counts
 * from here (an outside attack had a minute of earlier silence given back by switching them on).
 */
export async function hearEveryoneNow(db: Executor, driveId: string): Promise<void> {
  await runNamed(db, hearEveryoneStatement, [driveId]);
}
