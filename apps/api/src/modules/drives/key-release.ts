// When a drive's candidates may learn its key, and which questions' keys have been seen: written once, in SQL,
// for the named statements that draw questions and show results and for the admin's reads (decision 024).
import { DEADLINE_GRACE_SECONDS } from "@trainwise/contract/constants";
import { heldUntilSql, silenceHoldsSql } from "../quiz/repository/silence-sql.ts";

/**
 * When the drive `drive` (an alias of a drives row) has settled: it has closed (an admin closed it, or its closing
 * time passed) and none of its attempts can still take an answer, since closing lets running attempts finish.
 * Null while it has no closing time, or stands paused (decision 039: resuming gives its attempts time back); a time
 * still to come while it is open or attempts still run or are held open for a lost connection (decision 040; a
 * later start can move it on).
 */
export function settledAtSql(drive: string): string {
  return `(case when ${drive}.paused_at is not null then null
    when ${drive}.closed_at is null and ${drive}.closes_at is null then null
    else greatest(coalesce(${drive}.closed_at, ${drive}.closes_at),
      (select greatest(max(open.deadline_at), max(${heldUntilSql("open", drive)}))
          + interval '${DEADLINE_GRACE_SECONDS} seconds'
        from attempts open where open.drive_id = ${drive}.id and open.submitted_at is null)) end)`;
}

/**
 * The drive `drive` has settled (settledAtSql is past), asked without computing when. An attempt held open for its
 * lost connection (decision 040) keeps it unsettled, with the grace after it as after a deadline: heard while held,
 * it gets time back up to the hold's end, and answers sent by then still count (an outside attack had one given time
 * back the moment another candidate's result showed the key, and another as the hold ended).
 */
export function settledSql(drive: string): string {
  // Not closed yet (the common case on drive day) answers at once; a closed drive waits for its last attempt.
  return `(case when ${drive}.paused_at is not null then false
    when coalesce(${drive}.closed_at, ${drive}.closes_at) <= now()
    then not exists (select 1 from attempts open where open.drive_id = ${drive}.id and open.submitted_at is null
      and (open.deadline_at + interval '${DEADLINE_GRACE_SECONDS} seconds' > now()
        or ${silenceHoldsSql("open", drive, `now() - interval '${DEADLINE_GRACE_SECONDS} seconds'`)}))
    else false end)`;
}

/**
 * When the drive `drive` releases what gives its key away (a secure test's scores, ticks after close): when it
 * settles, or, when it holds its results for an admin, when the admin published them (only possible once it had
 * settled). Null while that time is unknown.
 */
export function releaseAtSql(drive: string): string {
  return `(case when ${drive}.hold_results then ${drive}.results_published_at else ${settledAtSql(drive)} end)`;
}

/**
 * The drive `drive` has released (releaseAtSql is past), asked without computing when: what a draw and a
 * certificate need. A property test pins the two together.
 */
export function releasedSql(drive: string): string {
  return `(case when ${drive}.hold_results then ${drive}.results_published_at is not null
    else ${settledSql(drive)} end)`;
}

/**
 * The key row `key` (a question_keys row, joined with its drive `drive`) says candidates have seen the key:
 * it was drawn in a practice drive, or in a secure drive that has released its results.
 */
export function keySeenSql(key: string, drive: string): string {
  return `(${key}.exposed or ${releasedSql(drive)})`;
}

/**
 * The question `question` (an alias of a questions row) is one a practice draw takes only when it lacks others: no
 * candidate has seen its key, and a secure drive not yet released (scheduled, open, or closed with attempts still
 * running) has a test that could draw it. An outside attack emptied a secure test's pool by starting the open quiz
 * 40 times; a question no secure drive is waiting for stays in the open quiz's draw as before.
 */
export function keptForSecureSql(question: string): string {
  return `(not exists (select 1 from question_keys k join drives kd on kd.id = k.drive_id
      where k.question_id = ${question}.id and ${keySeenSql("k", "kd")})
    and exists (select 1 from tests st join drives sd on sd.test_id = st.id
      where st.secure and sd.archived_at is null and st.archived_at is null
        and (cardinality(st.categories) = 0 or ${question}.category = any(st.categories))
        and not ${releasedSql("sd")}))`;
}

/**
 * Whether the question `question` (an alias of a questions row) may be drawn by a secure test (`secure` true:
 * no candidate has seen its key, in any drive, its own included) or a practice one (false: no secure drive
 * still needs its key kept secret). `secure` is a SQL value.
 */
export function drawableSql(question: string, secure: string): string {
  return `not exists (select 1 from question_keys k join drives kd on kd.id = k.drive_id
    where k.question_id = ${question}.id and ${keySeenSql("k", "kd")} = ${secure})`;
}
