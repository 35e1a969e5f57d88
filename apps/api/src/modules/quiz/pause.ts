// Pausing and resuming a whole drive from the live board (decision 039). A pause stops every clock of the drive at
// one moment, on every instance: the drive keeps when it paused, which each instance reads with a student's session
// (announced to all of them as a change of every session); meanwhile nothing of the drive is overdue for the sweep,
// a candidate's clock is read at that moment, and whatever would change an attempt is refused with 423. Resuming
// gives every attempt that was running at the pause the time the pause lasted, added at that moment (timing.ts's
// resumedClock), in one transaction with the drive's row held, so the time is given back once.

import { DEADLINE_GRACE_SECONDS } from "@trainwise/contract/constants";
import { addedTimeText } from "@trainwise/contract/students";
import { announceEveryStudentSessionChanged } from "../../auth/session-changes.ts";
import { type Database, type Executor, type NamedStatement, runNamed } from "../../db/client.ts";
import { HttpError } from "../../http/http-error.ts";
import { storePauseNotice } from "./notices.ts";
import type { AttemptsOf } from "./repository/attempt-rows.ts";
import { addTime } from "./repository/attempt-writes.ts";
import { closeOverdueAttempts } from "./service.ts";
import { pausedSeconds } from "./timing.ts";

const pauseStatement: NamedStatement = {
  name: "pause.pause",
  // $1 drive, $2 now: answers with the attempts whose clock runs now, which stand still from this moment.
  text: `with paused as (
      update drives set paused_at = $2::timestamptz where id = $1::uuid and paused_at is null returning id
    )
    select (select count(*) from attempts a where a.drive_id = paused.id and a.submitted_at is null
      and a.deadline_at > $2::timestamptz)::int as running
    from paused`,
};

const resumeStatement: NamedStatement = {
  name: "pause.resume",
  // $1 drive: when it paused, once the pause is cleared; nothing when it was not paused. The row stays locked until
  // the transaction ends, so a second resume sent meanwhile waits and finds nothing paused.
  text: `update drives d set paused_at = null
    from (select id, paused_at from drives where id = $1::uuid for update) was
    where d.id = was.id and was.paused_at is not null
    returning was.paused_at as "pausedAt"`,
};

const pausedDriveStatement: NamedStatement = {
  name: "pause.paused-drive",
  // $1 a student (their drive), or $2 a drive
  text: `select paused_at as "pausedAt" from drives
    where id = coalesce($2::uuid, (select drive_id from students where id = $1::uuid)) and paused_at is not null`,
};

/** POST /api/drives/:id/pause: every running clock of the drive stands still from now; 409 when it is paused. */
export async function pauseDrive(db: Database, driveId: string): Promise<string> {
  return db.transaction(async (tx) => {
    const [paused] = await runNamed<{ running: number }>(tx, pauseStatement, [driveId, new Date()]);
    if (!paused) throw new HttpError(409, "This drive is paused already. Resume it to let its candidates go on.");
    await storePauseNotice(tx, driveId, "paused");
    await announceEveryStudentSessionChanged(tx);
    const running = paused.running === 1 ? "1 attempt" : `${paused.running} attempts`;
    return (
      `Paused: the clocks of ${running} running now stand still, and nothing new starts, until you resume the ` +
      "drive. Every candidate's screen says so within seconds."
    );
  });
}

/**
 * POST /api/drives/:id/resume: every attempt that was running when the drive paused gets the pause's time back, at
 * that moment, and runs on from where it stood; 409 when the drive is not paused.
 */
export async function resumeDrive(db: Database, driveId: string): Promise<string> {
  return db.transaction(async (tx) => {
    const [row] = await runNamed<{ pausedAt: string | Date }>(tx, resumeStatement, [driveId]);
    if (!row) throw new HttpError(409, "This drive is not paused.");
    const pausedAt = new Date(row.pausedAt);
    const seconds = pausedSeconds(pausedAt, new Date());
    // A section whose time ended before the pause moves on first, as the sweep would have done then (its grace
    // counted as if no pause had come), so that the section after it stood still too and gets the time back.
    await closeOverdueAttempts(
      tx,
      undefined,
      { driveId },
      new Date(pausedAt.getTime() + DEADLINE_GRACE_SECONDS * 1000),
    );
    const given = seconds > 0 ? await addTime(tx, { driveId }, seconds, pausedAt, "pause") : [];
    await storePauseNotice(tx, driveId, "resumed");
    await announceEveryStudentSessionChanged(tx);
    const gotBack =
      given.length === 1
        ? "1 attempt that was running got that time back and goes on from where it stood"
        : `${given.length} attempts that were running got that time back and go on from where they stood`;
    const cut = given.filter((attempt) => attempt.movedSeconds < seconds).length;
    const cutNote =
      cut === 0 ? "" : ` The drive's closing ends attempts: ${cut} of them end at its closing time, with less.`;
    return `Resumed after ${addedTimeText(seconds)}: ${gotBack}.${cutNote}`;
  });
}

/**
 * Refuses (409) an invigilator's change to attempts `of` a student or a drive while their drive is paused: time
 * added or an attempt ended then would be read on a clock that stands still.
 */
export async function refuseWhilePaused(db: Executor, of: AttemptsOf, action: string): Promise<void> {
  const studentId = "studentId" in of ? of.studentId : null;
  const driveId = "driveId" in of ? of.driveId : null;
  const [paused] = await runNamed(db, pausedDriveStatement, [studentId, driveId]);
  if (paused) throw new HttpError(409, `The drive is paused: resume it first, then ${action}.`);
}
