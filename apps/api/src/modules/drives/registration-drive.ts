// What the registration page shows before anyone types (decision 029): the drive a share link's code names, its
// test's outline, where its window stands and who may register. The window's words are registration's own
// (window.ts), so the page and a refused registration say the same thing.
import type { RegistrationDrive } from "@trainwise/contract/drives";
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { outlineSectionsSql } from "../tests/repository.ts";
import type { DriveForRegistration } from "./repository.ts";
import {
  driveStatus,
  driveWindowRefusal,
  entryEndsAt,
  formatDriveTime,
  type LateEntry,
  lateEntryRefusal,
} from "./window.ts";

/** The drive as registration reads it (repository.ts), with its name, organisation and test's outline. */
type RegistrationDriveRow = Omit<DriveForRegistration, "id" | "name"> & {
  driveName: string;
  organisation: string;
  testName: string;
  questionCount: number;
  secondsPerQuestion: number;
  timingMode: RegistrationDrive["test"]["timingMode"];
  negativeMark: number;
  sections: RegistrationDrive["test"]["sections"];
  passMark: number | null;
  reviewPolicy: RegistrationDrive["test"]["reviewPolicy"];
  secure: boolean;
  attemptsAllowed: number;
};

/** Until when someone new may enter, or why they may not now; null when the drive has no cut-off. */
function entryMessage(drive: LateEntry, now: Date): string | null {
  const endsAt = entryEndsAt(drive);
  if (!endsAt) return null;
  const refusal = lateEntryRefusal(drive, now);
  if (refusal) return `${refusal} If you registered before, you can still come back with your resume code.`;
  return `New candidates may register and start until ${formatDriveTime(endsAt, drive.timeZone)}.`;
}

/**
 * The drive a code names (none: the default drive) as the page describes it at `now`; undefined when no current
 * drive has the code, as registration finds none (archived drives take nobody).
 */
export async function registrationDriveFor(
  db: Executor,
  code: string | undefined,
  now = new Date(),
): Promise<RegistrationDrive | undefined> {
  const { rows } = await db.execute<RegistrationDriveRow>(sql`
    select d.name as "driveName", d.organisation, d.opens_at as "opensAt", d.closes_at as "closesAt",
      d.closed_at as "closedAt", d.time_zone as "timeZone", d.late_entry_minutes as "lateEntryMinutes", d.roster_only as "rosterOnly",
      d.personal_links_only as "personalLinksOnly", d.verify_email as "verifyEmail",
      t.name as "testName", t.question_count as "questionCount", t.seconds_per_question as "secondsPerQuestion",
      t.timing_mode as "timingMode", t.negative_mark as "negativeMark", t.pass_mark as "passMark",
      ${sql.raw(outlineSectionsSql("t"))} as sections,
      t.review_policy as "reviewPolicy", t.secure, t.attempts_allowed as "attemptsAllowed"
    from drives d join tests t on t.id = d.test_id
    where d.archived_at is null and ${code === undefined ? sql`d.is_default` : sql`d.code = ${code}`}`);
  const [row] = rows;
  if (!row) return undefined;
  // Read through the driver, timestamps may come as text: the window's rules take either.
  const window = {
    opensAt: row.opensAt,
    closesAt: row.closesAt,
    closedAt: row.closedAt,
    timeZone: row.timeZone,
  };
  const status = driveStatus(window, now);
  return {
    driveName: row.driveName,
    organisation: row.organisation,
    status,
    windowMessage: driveWindowRefusal(window, now) ?? null,
    closesAtText: status === "open" && row.closesAt ? formatDriveTime(row.closesAt, row.timeZone) : null,
    entryMessage: status === "closed" ? null : entryMessage(row, now),
    opensAt: status === "scheduled" && row.opensAt ? new Date(row.opensAt).toISOString() : null,
    rosterOnly: row.rosterOnly,
    personalLinksOnly: row.personalLinksOnly,
    verifyEmail: row.verifyEmail,
    test: {
      testName: row.testName,
      questionCount: row.questionCount,
      secondsPerQuestion: row.secondsPerQuestion,
      timingMode: row.timingMode,
      negativeMark: Number(row.negativeMark),
      sections: row.sections,
      passMark: row.passMark,
      reviewPolicy: row.reviewPolicy,
      secure: row.secure,
      attemptsAllowed: row.attemptsAllowed,
    },
  };
}
