// What a registered student is about to sit, read before any attempt starts: the test's rules as their attempt
// would copy them, and where their attempts stand (decision 026).
import type { QuizIntro } from "@trainwise/contract/quiz";
import { type Executor, type NamedStatement, runNamed } from "../../../db/client.ts";
import { type DriveWindow, entryRefusal, type LateEntry } from "../../drives/window.ts";
import { outlineSectionsSql } from "../../tests/repository.ts";

/** Whether the focus-loss limit or an invigilator has ended one of the attempts of `student` (a students alias). */
export function endedEarlySql(student: string): string {
  return `exists (select 1 from attempts a where a.student_id = ${student}.id and a.ended_by is not null)`;
}

const introStatement: NamedStatement = {
  name: "quiz.intro",
  text: `select t.name as "testName", d.name as "driveName", d.organisation, t.rules_first as "rulesFirst",
      d.focus_loss_limit as "focusLossLimit", d.focus_loss_ends_attempt as "focusLossEndsAttempt",
      d.full_screen as "fullScreen", d.block_copy_paste as "blockCopyPaste",
      d.disconnect_grace_seconds as "disconnectGraceSeconds", d.disconnect_credit_minutes as "disconnectCreditMinutes",
      d.opens_at as "opensAt", d.closes_at as "closesAt", d.closed_at as "closedAt", d.time_zone as "timeZone",
      d.late_entry_minutes as "lateEntryMinutes",
      t.question_count as "questionCount",
      t.seconds_per_question as "secondsPerQuestion", s.time_multiplier as "timeMultiplier",
      t.timing_mode as "timingMode", t.negative_mark as "negativeMark", t.pass_mark as "passMark",
      ${outlineSectionsSql("t")} as sections, t.review_policy as "reviewPolicy", t.secure,
      s.attempts_allowed as "studentAttemptsAllowed", t.attempts_allowed as "testAttemptsAllowed",
      (select count(*)::int from attempts a where a.student_id = s.id) as "attemptsUsed",
      exists (select 1 from attempts a where a.student_id = s.id and a.submitted_at is null) as running,
      latest.id as "resultId", latest.ended_by as "endedBy",
      ${endedEarlySql("s")} as "endedEarly"
    from students s join drives d on d.id = s.drive_id join tests t on t.id = d.test_id
      left join lateral (select a.id, a.ended_by from attempts a where a.student_id = s.id and a.submitted_at is not null
        order by a.submitted_at desc limit 1) latest on true
    where s.id = $1::uuid`,
};

/**
 * How many attempts a student may make: the test's allowance or the student's own (an admin's "allow another
 * attempt"), whichever is more; but once the focus-loss limit or an invigilator has ended one of their attempts,
 * only the student's own: each admin's "allow another" gives one more (decision 035). Else the test's allowance
 * would undo the ending: an outside attack ended at the limit started again at once, and another, allowed one
 * attempt after the ending, had the test's whole allowance back once that attempt was submitted.
 */
export function attemptsAllowed(allowed: { student: number; test: number; endedEarly: boolean }) {
  return allowed.endedEarly ? allowed.student : Math.max(allowed.student, allowed.test);
}

/** The student's intro, or undefined when the registration is gone. */
export async function readIntro(db: Executor, studentId: string): Promise<QuizIntro | undefined> {
  const [row] = await runNamed<
    Omit<QuizIntro, "status" | "attemptsAllowed" | "startRefusal"> &
      DriveWindow &
      LateEntry & {
        running: boolean;
        timeMultiplier: number;
        studentAttemptsAllowed: number;
        testAttemptsAllowed: number;
        endedEarly: boolean;
      }
  >(db, introStatement, [studentId]);
  if (!row) return undefined;
  const { running, timeMultiplier, studentAttemptsAllowed, testAttemptsAllowed, endedEarly, ...rest } = row;
  const { opensAt, closesAt, closedAt, timeZone, lateEntryMinutes, ...outline } = rest;
  const drive = { opensAt, closesAt, closedAt, timeZone, lateEntryMinutes };
  const allowed = { student: studentAttemptsAllowed, test: testAttemptsAllowed, endedEarly };
  const intro = { ...outline, attemptsAllowed: attemptsAllowed(allowed) };
  const status = running ? "in_progress" : intro.attemptsUsed >= intro.attemptsAllowed ? "completed" : "not_started";
  // What a start would say, told before it is pressed (an outside attack read "not started" and a Start button past
  // the late-entry cut-off). The start itself checks again.
  const startRefusal = (status === "not_started" && entryRefusal(drive, new Date())) || null;
  // Rounded as a start rounds it (service.ts), so the rules say the seconds the clock will give.
  const extra = (seconds: number) => Math.round(seconds * timeMultiplier);
  return {
    status,
    ...intro,
    startRefusal,
    secondsPerQuestion: extra(intro.secondsPerQuestion),
    sections: intro.sections.map((section) => ({ ...section, secondsPerQuestion: extra(section.secondsPerQuestion) })),
  };
}
