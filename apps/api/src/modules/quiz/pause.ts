// Pausing and resuming a whole drive from the live board (decision 039). A pause stops every clock of the drive at
// one moment: the drive keeps when it paused, and the database is asked wherever an attempt would change or close
// (every such statement, the sweep, and the long ways under an attempt's lock), so no instance can let a paused
// drive's clock run, whatever it cached. Meanwhile a candidate's clock is read at that moment, and whatever would
// change an attempt is refused with 423. Resuming gives every attempt that was running at the pause the time the
// pause lasted, added at that moment (timing.ts's resumedClock), in one transaction with the drive's row held, so
// the time is given back once.

import { DEADLINE_GRACE_SECONDS } from "@trainwise/contract/constants";
import { addedTimeText } from "@trainwise/contract/students";
import { type Database, type Executor, type NamedStatement, runNamed } from "../../db/client.ts";
import { HttpError } from "../../http/http-error.ts";
import { storePauseNotice } from "./notices.ts";
import { drivePausedAt } from "./repository/attempt-reads.ts";
import type { AttemptsOf } from "./repository/attempt-rows.ts";
import { addTime } from "./repository/attempt-writes.ts";
import { closeOverdueAttempts, pausedForInvigilators } from "./service.ts";
import { pausedSeconds } from "./timing.ts";

const pauseStatement: NamedStatement = {
  name: "pause.pause",
  // $1 drive, $2 now: pauses it when it runs and an attempt of it has its clock running, and answers how many, and
  // whether it was paused already.
  text: `with running as (
      select count(*)::int as attempts from attempts a
      where a.drive_id = $1::uuid and a.submitted_at is null and a.deadline_at > $2::timestamptz
    ), paused as (
      update drives set paused_at = $2::timestamptz
      where id = $1::uuid and paused_at is null and (select attempts from running) > 0
      returning id
    )
    select (select attempts from running) as running, exists (select 1 from paused) as paused,
      (select paused_at is not null from drives where id = $1::uuid) as "pausedBefore"`,
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

/**
 * POST /api/drives/:id/pause: every running clock of the drive stands still from now. 409 when it is paused
 * already, and when no attempt of it is running: a drive nobody is sitting has nothing to stop, and a pause would
 * only hold back what its close released.
 */
export async function pauseDrive(db: Database, driveId: string): Promise<string> {
  const [result] = await runNamed<{ running: number; paused: boolean; pausedBefore: boolean }>(db, pauseStatement, [
    driveId,
    new Date(),
  ]);
  if (result?.pausedBefore) {
    throw new HttpError(409, "This drive is paused already. Resume it to let its candidates go on.");
  }
  if (!result?.paused) throw new HttpError(409, "No attempt of this drive is running: there is nothing to pause.");
  await storePauseNotice(db, driveId, "paused");
  const running = result.running === 1 ? "1 attempt" : `${result.running} attempts`;
  return (
    `Paused: the clocks of ${running} running now stand still, and nothing new starts, until you resume the ` +
    "drive. Every candidate's screen says so within seconds."
  );
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
    // A section whose time ended before the pause moves on first, as the sweep would have done then (its grace
    // counted as if no pause had come), so that the section after it stood still too and gets the time back.
    await closeOverdueAttempts(
      tx,
      undefined,
      { driveId },
      new Date(pausedAt.getTime() + DEADLINE_GRACE_SECONDS * 1000),
    );
    // The pause lasts until now, measured after that work (an outside attack saw candidates lose the 12 s it took
    // to close 3,000 attempts in their grace), to the millisecond (rounded up, each pause gave a second).
    const seconds = pausedSeconds(pausedAt, new Date());
    const given = seconds > 0 ? await addTime(tx, { driveId }, seconds, pausedAt, "pause") : [];
    await storePauseNotice(tx, driveId, "resumed");
    const gotBack =
      given.length === 1
        ? "1 attempt that was running got that time back and goes on from where it stood"
        : `${given.length} attempts that were running got that time back and go on from where they stood`;
    const cut = given.filter((attempt) => attempt.movedSeconds < seconds - 0.001).length;
    const cutNote =
      cut === 0 ? "" : ` The drive's closing ends attempts: ${cut} of them end at its closing time, with less.`;
    return `Resumed after ${addedTimeText(Math.round(seconds))}: ${gotBack}.${cutNote}`;
  });
}

/**
 * Refuses (409) an invigilator's change to attempts `of` a student or a drive while their drive is paused: time
 * added or an attempt ended then would be read on a clock that stands still.
 */
export async function refuseWhilePaused(db: Executor, of: AttemptsOf, action: string): Promise<void> {
  if (await drivePausedAt(db, of)) throw new HttpError(409, pausedForInvigilators(action));
}
