// The whole product's tables. `drizzle-kit generate` turns changes here into SQL migrations in ../../drizzle.
// Enums and the ranges of checks come from the contract's values, so the database and the API refuse the same.
import { ADMIN_ROLES } from "@trainwise/contract/admin-roles";
import { DIFFICULTIES } from "@trainwise/contract/constants";
import {
  ATTEMPT_ENDINGS,
  type AttemptEnding,
  DISCONNECT_CREDIT_MINUTES,
  DISCONNECT_GRACE_SECONDS,
  type DifficultyMix,
  FOCUS_LOSS_LIMIT,
  LATE_ENTRY_MINUTES,
  REVIEW_POLICIES,
  type SectionMarks,
  type ServedSection,
  TEST_RANGES,
  type TestSection,
  TIMING_MODES,
} from "@trainwise/contract/drives";
import { MEDIA_TYPES } from "@trainwise/contract/media";
import { NOTICE_KINDS, type NoticeKind } from "@trainwise/contract/notices";
import { QUESTION_TYPES, SCORING_RULES } from "@trainwise/contract/questions";
import { TIME_MULTIPLIER } from "@trainwise/contract/students";
import { type SQL, sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/** What an admin may do (decision 016); admins from before roles existed became owners. */
export const adminRole = pgEnum("admin_role", ADMIN_ROLES);

export const admins = pgTable(
  "admins",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    username: text("username").notNull(),
    /** Null while an invitation is pending: nobody can sign in until the invitee sets a password. */
    passwordHash: text("password_hash"),
    role: adminRole("role").notNull().default("owner"),
    createdAt: createdAt(),
    passwordChangedAt: timestamp("password_changed_at", { withTimezone: true }).notNull().defaultNow(),
    /** A disabled admin cannot sign in, and every token issued before `sessionsValidFrom` is refused. */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** Tokens issued before this are refused: set when an owner disables the account. */
    sessionsValidFrom: timestamp("sessions_valid_from", { withTimezone: true }),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
  },
  (table) => [uniqueIndex("admins_username_unique").on(sql`lower(${table.username})`)],
);

/** One-time links that let an invited admin set a password; only a hash of the link's token is kept. */
export const adminInvites = pgTable(
  "admin_invites",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    adminId: uuid("admin_id")
      .notNull()
      .references(() => admins.id, { onDelete: "cascade" }),
    /** sha-256 of the token in the link, hex. */
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("admin_invites_token_hash_unique").on(table.tokenHash)],
);

/**
 * Who changed what and when: one row per admin change that succeeded, with the entity before and after (no
 * passwords, tokens or hashes). Written by the audit hook from the route's rule (modules/audit).
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The admin who acted, or whose account a sign-in named. No action on delete: the log is append-only (a trigger
     * refuses every update, delete and truncate, migration 0013), so an admin with entries is disabled, never deleted.
     */
    adminId: uuid("admin_id").references(() => admins.id),
    /** Kept as it was at the time, so the log still reads after a rename; the command line's user for the CLI. */
    adminUsername: text("admin_username").notNull(),
    action: text("action").notNull(),
    entity: text("entity").notNull(),
    entityId: text("entity_id"),
    before: jsonb("before"),
    after: jsonb("after"),
    /** Where the request came from (the client's address as the server believes it); null from the command line. */
    clientAddress: text("client_address"),
  },
  (table) => [
    // Newest first, with the id as tie-break (paging.ts orderBy), whole or filtered by admin or action.
    index("audit_log_at_id_idx").on(table.at, table.id),
    index("audit_log_admin_at_idx").on(table.adminId, table.at),
    index("audit_log_action_at_idx").on(table.action, table.at),
  ],
);

export const timingMode = pgEnum("timing_mode", TIMING_MODES);
export const reviewPolicy = pgEnum("review_policy", REVIEW_POLICIES);

/** `least and most` of a range the contract sets, as SQL a check constraint holds (numbers only, never input). */
function between(column: SQL | AnyPgColumn, [least, most]: readonly [number, number]): SQL {
  return sql`${column} between ${sql.raw(String(least))} and ${sql.raw(String(most))}`;
}

/** A test is a recipe for attempts: which questions, how many, the clock, attempts, marking and review. */
export const tests = pgTable(
  "tests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** Categories to draw from; empty means the whole bank. */
    categories: text("categories").array().notNull().default(sql`'{}'::text[]`),
    /** Counts per difficulty; null draws `questionCount` questions of any difficulty. */
    difficultyMix: jsonb("difficulty_mix").$type<DifficultyMix>(),
    questionCount: integer("question_count").notNull(),
    secondsPerQuestion: integer("seconds_per_question").notNull(),
    timingMode: timingMode("timing_mode").notNull().default("per_question"),
    attemptsAllowed: integer("attempts_allowed").notNull().default(1),
    /** Percentage needed to pass; null means the test has no pass mark. */
    passMark: integer("pass_mark"),
    /** Marks taken off per wrong answer (0 to 1); unanswered questions cost nothing. */
    negativeMark: real("negative_mark").notNull().default(0),
    /**
     * The sections in their order, each with its own draw, negative mark and cut-off (decision 034); empty: one
     * list of questions by the fields above. Edited and read only as part of the test, hence no table of their own.
     */
    sections: jsonb("sections").$type<TestSection[]>().notNull().default(sql`'[]'::jsonb`),
    reviewPolicy: reviewPolicy("review_policy").notNull().default("score_and_ticks"),
    /**
     * Secure: draws only questions whose key no candidate has seen, and releases scores with the key, once no
     * attempt of the drive can still take an answer (docs/decisions/024-key-exposure-and-secure-tests.md).
     */
    secure: boolean("secure").notNull().default(false),
    /**
     * Students see the test's rules and a Start button before the clock starts; off, registration goes straight
     * to question 1 as the original journey does (docs/decisions/026-intro-and-lasting-results.md).
     */
    rulesFirst: boolean("rules_first").notNull().default(false),
    /**
     * The default test: the default drive's, and the one a fresh install starts with
     * (docs/product.md#tests-and-drives).
     */
    isDefault: boolean("is_default").notNull().default(false),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("tests_one_default").on(table.isDefault).where(sql`${table.isDefault}`),
    check("tests_question_count_range", between(table.questionCount, TEST_RANGES.questionCount)),
    check("tests_seconds_range", between(table.secondsPerQuestion, TEST_RANGES.secondsPerQuestion)),
    check("tests_attempts_range", between(table.attemptsAllowed, TEST_RANGES.attemptsAllowed)),
    check("tests_pass_mark_range", sql`${table.passMark} is null or ${between(table.passMark, TEST_RANGES.passMark)}`),
    check("tests_negative_mark_range", between(table.negativeMark, TEST_RANGES.negativeMark)),
  ],
);

/** A drive gives a test to a cohort for a window, behind a code and optionally a roster. */
export const drives = pgTable(
  "drives",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    testId: uuid("test_id")
      .notNull()
      .references(() => tests.id, { onDelete: "restrict" }),
    name: text("name").notNull(),
    /** The college or company the drive is for. */
    organisation: text("organisation").notNull().default(""),
    batch: text("batch").notNull().default(""),
    /** Upper-case letters and digits; students type it or follow the share link. */
    code: text("code").notNull(),
    /** Null opens at once / never closes by itself. */
    opensAt: timestamp("opens_at", { withTimezone: true }),
    closesAt: timestamp("closes_at", { withTimezone: true }),
    /** IANA zone the admin planned in; times are shown to students and admins in it. */
    timeZone: text("time_zone").notNull().default("Asia/Kolkata"),
    /** Set when an admin closes the drive before (or without) its closing time. */
    closedAt: timestamp("closed_at", { withTimezone: true }),
    /** Only students on the roster may register. */
    rosterOnly: boolean("roster_only").notNull().default(false),
    /**
     * Closing ends running attempts: none outlasts the close (answers after it are refused, and the attempts are
     * submitted then). Otherwise an attempt started before the close may use all its time.
     */
    closingEndsAttempts: boolean("closing_ends_attempts").notNull().default(false),
    /**
     * A roster line admits a new registration only through its personal link (a one-time token): knowing a
     * classmate's email and USN is not enough. Needs the roster (rosterOnly).
     */
    personalLinksOnly: boolean("personal_links_only").notNull().default(false),
    /** A new registration needs a code e-mailed to the address typed (needs SMTP_URL). */
    verifyEmail: boolean("verify_email").notNull().default(false),
    /**
     * What waits for the close (a secure test's scores, ticks after close) waits for an admin to publish it too:
     * the admin reviews the drive's results first. Publishing is possible once nothing can still take an answer.
     */
    holdResults: boolean("hold_results").notNull().default(false),
    /** Sections of the test, by name, whose scores break ties in the drive's ranks, in order (decision 033). */
    tieBreakSections: text("tie_break_sections").array().notNull().default(sql`'{}'::text[]`),
    /**
     * When an invigilator paused the drive (decision 039): its clocks stand still at this moment until it is resumed,
     * when every attempt that was running gets the time back. Null: not paused.
     */
    pausedAt: timestamp("paused_at", { withTimezone: true }),
    /** Minutes after opensAt past which nobody may start or register (decision 035); null: until the close. */
    lateEntryMinutes: integer("late_entry_minutes"),
    /**
     * Disconnect credits (decision 040): a candidate's page silent for longer than this many seconds gets the time
     * lost beyond them back when it is heard again, up to disconnectCreditMinutes in all. Null with it: no credits.
     */
    disconnectGraceSeconds: integer("disconnect_grace_seconds"),
    /** The most time, in minutes, lost connections give back to one attempt (decision 040). */
    disconnectCreditMinutes: integer("disconnect_credit_minutes"),
    /**
     * The exam room (decision 035): addresses and CIDR ranges a student may sit the test from, as the contract
     * wrote them; empty: anywhere.
     */
    allowedAddresses: text("allowed_addresses").array().notNull().default(sql`'{}'::text[]`),
    /** Times a candidate may leave the quiz's window, warned at each (decision 035); null: no limit. */
    focusLossLimit: integer("focus_loss_limit"),
    /** Reaching focusLossLimit submits the attempt. */
    focusLossEndsAttempt: boolean("focus_loss_ends_attempt").notNull().default(false),
    /** The quiz page asks for full screen and reports each exit from it (decision 035). */
    fullScreen: boolean("full_screen").notNull().default(false),
    /** The quiz page turns off copying, cutting, pasting and the context menu (decision 035). */
    blockCopyPaste: boolean("block_copy_paste").notNull().default(false),
    /** When an admin published the held results (decision 024). */
    resultsPublishedAt: timestamp("results_published_at", { withTimezone: true }),
    /**
     * When a registration that had been shown the key (a result released after the close) was removed: the drive
     * still never reopens, though the attempt that said so is gone.
     */
    keyShownAt: timestamp("key_shown_at", { withTimezone: true }),
    /** The always-open drive that students without a code join. */
    isDefault: boolean("is_default").notNull().default(false),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("drives_code_unique").on(table.code),
    uniqueIndex("drives_one_default").on(table.isDefault).where(sql`${table.isDefault}`),
    index("drives_test_idx").on(table.testId),
    check("drives_personal_links_need_roster", sql`not ${table.personalLinksOnly} or ${table.rosterOnly}`),
    // A roster checks who registers; e-mail codes are for drives without one (decision 025), and on a roster's
    // drive they answered an unlisted address as a real drive (an outside attack).
    check("drives_email_codes_without_roster", sql`not (${table.verifyEmail} and ${table.rosterOnly})`),
    check(
      "drives_focus_loss_limit_range",
      sql`${table.focusLossLimit} is null or ${between(table.focusLossLimit, FOCUS_LOSS_LIMIT)}`,
    ),
    check(
      "drives_focus_loss_ends_needs_limit",
      sql`not ${table.focusLossEndsAttempt} or ${table.focusLossLimit} is not null`,
    ),
    check(
      "drives_disconnect_credits",
      sql`(${table.disconnectGraceSeconds} is null and ${table.disconnectCreditMinutes} is null) or (${between(table.disconnectGraceSeconds, DISCONNECT_GRACE_SECONDS)} and ${between(table.disconnectCreditMinutes, DISCONNECT_CREDIT_MINUTES)})`,
    ),
    check(
      "drives_late_entry_range",
      sql`${table.lateEntryMinutes} is null or (${table.opensAt} is not null and ${between(table.lateEntryMinutes, LATE_ENTRY_MINUTES)})`,
    ),
  ],
);

/** Who may register for a roster-only drive: an email, a USN, or both per line. */
export const driveRoster = pgTable(
  "drive_roster",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    driveId: uuid("drive_id")
      .notNull()
      .references(() => drives.id, { onDelete: "cascade" }),
    email: text("email"),
    usnNo: text("usn_no"),
    /** sha-256 of the line's personal link token: shown once, in the CSV of links and the e-mail. */
    linkTokenHash: text("link_token_hash"),
    linkMadeAt: timestamp("link_made_at", { withTimezone: true }),
    /** When the link was handed to the mail server (SMTP_URL set). */
    linkEmailedAt: timestamp("link_emailed_at", { withTimezone: true }),
    /** When a registration used the link: it works once. */
    linkUsedAt: timestamp("link_used_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("drive_roster_link_token_unique").on(table.linkTokenHash),
    index("drive_roster_email_idx").on(table.driveId, sql`lower(${table.email})`),
    index("drive_roster_usn_idx").on(table.driveId, sql`lower(${table.usnNo})`),
  ],
);

/**
 * The code last e-mailed to an address for a drive that verifies e-mail: its sha-256, until when it works, and how
 * many wrong codes have been typed against it (registration.ts).
 */
export const emailCodes = pgTable(
  "email_codes",
  {
    driveId: uuid("drive_id")
      .notNull()
      .references(() => drives.id, { onDelete: "cascade" }),
    /** Lower-cased, as registration compares addresses. */
    email: text("email").notNull(),
    codeHash: text("code_hash").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    wrongTries: integer("wrong_tries").notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.driveId, table.email] }),
    index("email_codes_expires_idx").on(table.expiresAt),
  ],
);

export const students = pgTable(
  "students",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    usnNo: text("usn_no").notNull(),
    college: text("college").notNull(),
    course: text("course").notNull(),
    group: text("group").notNull(),
    year: text("year").notNull(),
    /** Extra time: multiplies the seconds per question (an accessibility accommodation). */
    timeMultiplier: real("time_multiplier").notNull().default(1),
    /** How many attempts this student may start; an admin raises it to allow another. */
    attemptsAllowed: integer("attempts_allowed").notNull().default(1),
    /** The drive the student registered for: a student is a candidate in one drive. */
    driveId: uuid("drive_id")
      .notNull()
      .references(() => drives.id, { onDelete: "restrict" }),
    /** sha-256 of the resume code shown once at registration: registering again needs it, not just email + USN. */
    resumeCodeHash: text("resume_code_hash"),
    /**
     * sha-256 of the key the registering client sent with its first registration: the same client sending it
     * again (its first answer was lost on the way) is let back in for an hour (registration.ts).
     */
    registrationKeyHash: text("registration_key_hash"),
    /**
     * Set when an admin's "let resume" replaced the resume code with a one-time code for the student (a lost
     * code): that code is good until then, and once (decision 007).
     */
    resumeAllowedUntil: timestamp("resume_allowed_until", { withTimezone: true }),
    /** When the student typed the code e-mailed to their address at registration (a drive that verifies e-mail). */
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    /** Student tokens issued before this are refused: an admin ended the student's sessions. */
    sessionsValidFrom: timestamp("sessions_valid_from", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("students_drive_email_unique").on(table.driveId, sql`lower(${table.email})`),
    uniqueIndex("students_drive_usn_unique").on(table.driveId, sql`lower(${table.usnNo})`),
    index("students_created_at_idx").on(table.createdAt),
    // The way back to one's results: a resume code with the email it was given for (docs/decisions/026).
    index("students_resume_code_idx").on(table.resumeCodeHash),
    // The admin tables search name, USN and e-mail for text anywhere in them (ILIKE '%…%'): trigram indexes
    // answer that without reading every student (pg_trgm, created by the migration).
    index("students_name_trgm_idx").using("gin", table.name.op("gin_trgm_ops")),
    index("students_usn_trgm_idx").using("gin", table.usnNo.op("gin_trgm_ops")),
    index("students_email_trgm_idx").using("gin", table.email.op("gin_trgm_ops")),
    // The students table's default order (newest first), read in order with its tie-break.
    index("students_created_at_id_idx").on(table.createdAt, table.id),
    check("students_time_multiplier_range", between(table.timeMultiplier, [TIME_MULTIPLIER.min, TIME_MULTIPLIER.max])),
  ],
);

export const difficulty = pgEnum("difficulty", DIFFICULTIES);
/** How a question is answered: one option, any number of options ("choose all that apply"), or true/false. */
export const questionType = pgEnum("question_type", QUESTION_TYPES);
/** How a multiple-answer question is marked (decision 018); the other types are always all or nothing. */
export const scoringRule = pgEnum("scoring_rule", SCORING_RULES);

export const questions = pgTable(
  "questions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    text: text("text").notNull(),
    category: text("category").notNull(),
    difficulty: difficulty("difficulty").notNull().default("medium"),
    type: questionType("type").notNull().default("single"),
    scoring: scoringRule("scoring").notNull().default("all_or_nothing"),
    /** Set instead of deleting when attempts refer to the question, so results keep what was asked. */
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    /**
     * Set by the first start that draws the question into any drive. The row lock of that one update makes a
     * practice and a secure first draw of it take turns, so both cannot find its key unspoken for (decision 024).
     */
    keyDrawn: boolean("key_drawn").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("questions_created_at_idx").on(table.createdAt)],
);

export const questionOptions = pgTable(
  "question_options",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    questionId: uuid("question_id")
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    isCorrect: boolean("is_correct").notNull(),
    /**
     * Percent of the question's mark the option carries, one of Moodle's grades (decision 018): what scoring adds
     * up. Key material, as `isCorrect` is: never served to a student.
     */
    weight: doublePrecision("weight").notNull(),
    position: integer("position").notNull(),
  },
  // How many options are correct depends on the question's type, so the contract checks it (decision 018); a
  // correct option always weighs more than 0, and only a correct one can weigh a whole mark.
  (table) => [
    unique("question_options_position_unique").on(table.questionId, table.position),
    check("question_options_weight_range", sql`${table.weight} between -100 and 100`),
    check(
      "question_options_weight_agrees",
      sql`case when ${table.isCorrect} then ${table.weight} > 0 else ${table.weight} < 100 end`,
    ),
  ],
);

export const attempts = pgTable(
  "attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    studentId: uuid("student_id")
      .notNull()
      .references(() => students.id, { onDelete: "cascade" }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    /** After this (plus a short grace) the server refuses answers and closes the attempt itself. */
    deadlineAt: timestamp("deadline_at", { withTimezone: true }).notNull(),
    secondsPerQuestion: integer("seconds_per_question").notNull(),
    /** Index of the question on screen and when it appeared: a refresh resumes there with the time left. */
    currentPosition: integer("current_position").notNull().default(0),
    currentStartedAt: timestamp("current_started_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The open section (decision 034): its positions, from `sectionFirst` to before `sectionEnd`, and when its time
     * ends. The clock reads these, never `deadlineAt`, which stays the attempt's last moment (the release rule reads
     * it). Null on an attempt not timed per section: one section, `totalQuestions` and `deadlineAt` (clockColumns).
     */
    sectionFirst: integer("section_first").notNull().default(0),
    sectionEnd: integer("section_end"),
    sectionDeadlineAt: timestamp("section_deadline_at", { withTimezone: true }),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    /** Questions answered right. */
    score: integer("score"),
    /** The score less negative marking: what the percentage and pass/fail are computed from. */
    marks: real("marks"),
    /** Decided once, when the attempt is scored; null when the test has no pass mark. */
    passed: boolean("passed"),
    totalQuestions: integer("total_questions").notNull(),
    driveId: uuid("drive_id")
      .notNull()
      .references(() => drives.id, { onDelete: "restrict" }),
    // The test's rules as they were when the attempt started: later edits of the test apply to new attempts.
    timingMode: timingMode("timing_mode").notNull(),
    /**
     * Per-question windows are enforced and questions are revealed one at a time. False for an attempt started
     * by the original client's all-at-once call on the default test: then the whole quiz is one window (decision 007).
     */
    paced: boolean("paced").notNull(),
    negativeMark: real("negative_mark").notNull().default(0),
    /**
     * The test's sections as this attempt was served them, each with the number of questions actually drawn (its
     * positions follow the previous section's); null when the test has none.
     */
    sections: jsonb("sections").$type<ServedSection[]>(),
    /** Each section's score, marks and cut-off met, in order, once scored; null without sections. */
    sectionMarks: jsonb("section_marks").$type<SectionMarks[]>(),
    passMark: integer("pass_mark"),
    reviewPolicy: reviewPolicy("review_policy").notNull(),
    /** Started on a secure test: its score, pass/fail and certificate wait for the drive's release. */
    secure: boolean("secure").notNull().default(false),
    /** Made when a passing student first asks for a certificate; /verify/CODE confirms it publicly. */
    certificateCode: text("certificate_code"),
    /**
     * Times the quiz was opened again on this attempt while it ran (a reload, a tab reopened, another device), and
     * the latest: the live board counts them apart from focus losses and hears the student in them (decision 017).
     */
    reloads: integer("reloads").notNull().default(0),
    reloadedAt: timestamp("reloaded_at", { withTimezone: true }),
    /**
     * The candidate is still to be sent this attempt's scorecard once the drive's ranks are final (SMTP_URL set;
     * decision 033). Attempts stored before scorecards were mailed are not due (migration 0026).
     */
    scorecardMailDue: boolean("scorecard_mail_due").notNull().default(true),
    /**
     * Who ended the attempt before its student submitted or its time ran out (decision 035): the drive's focus-loss
     * limit, or an invigilator; null otherwise.
     */
    endedBy: text("ended_by").$type<AttemptEnding>(),
    /** Times the quiz page left full screen while the attempt ran, on a drive that asks for it (decision 035). */
    fullScreenExits: integer("full_screen_exits").notNull().default(0),
    /**
     * Seconds invigilators added while the attempt ran (decision 037), as its clock moved them: the deadline a start
     * would write is this much later, so a drive's changed closing keeps them (reclockOpenAttempts).
     */
    addedSeconds: integer("added_seconds").notNull().default(0),
    /**
     * Seconds its drive stood paused while the attempt ran (decision 039), given back as time added is, and kept
     * apart from it: an invigilator's limit on added time does not count them.
     */
    pausedSeconds: integer("paused_seconds").notNull().default(0),
    /**
     * When the candidate's page was last heard from on a drive with disconnect credits (decision 040): its
     * heartbeat, the start, or a credit. Null: not since the start.
     */
    lastContactAt: timestamp("last_contact_at", { withTimezone: true }),
    /** Seconds lost connections gave back (decision 040), to the millisecond; each credit is in attempt_credits. */
    creditedSeconds: doublePrecision("credited_seconds").notNull().default(0),
  },
  (table) => [
    check("attempts_added_seconds", sql`${table.addedSeconds} >= 0`),
    check("attempts_paused_seconds", sql`${table.pausedSeconds} >= 0`),
    check("attempts_credited_seconds", sql`${table.creditedSeconds} >= 0`),
    check(
      "attempts_ended_by",
      sql`${table.endedBy} is null or ${table.endedBy} in (${sql.raw(ATTEMPT_ENDINGS.map((ending) => `'${ending}'`).join(", "))})`,
    ),
    index("attempts_student_idx").on(table.studentId),
    uniqueIndex("attempts_certificate_code_unique").on(table.certificateCode),
    index("attempts_drive_idx").on(table.driveId),
    // One open attempt per student, and the index every answer and Next finds it by.
    uniqueIndex("attempts_one_open_per_student").on(table.studentId).where(sql`${table.submittedAt} is null`),
    index("attempts_open_deadline_idx").on(table.deadlineAt).where(sql`${table.submittedAt} is null`),
    index("attempts_submitted_idx").on(table.submittedAt),
    // The results table's default order (newest first) and the streamed export's keyset, with the tie-break.
    index("attempts_submitted_id_idx").on(table.submittedAt, table.id).where(sql`${table.submittedAt} is not null`),
    // The scorecards still to mail, found by drive: a drive whose ranks are not final is never read.
    index("attempts_scorecard_mail_due_idx")
      .on(table.driveId)
      .where(sql`${table.scorecardMailDue} and ${table.submittedAt} is not null`),
  ],
);

/**
 * Where each question's key is spoken for, per drive: exposed (drawn in a practice drive, whose candidates see
 * scores or ticks at once) or reserved (drawn in a secure drive, seen once that drive releases its results).
 * Secure draws leave out keys already seen; practice draws leave out keys a secure drive still needs.
 */
export const questionKeys = pgTable(
  "question_keys",
  {
    questionId: uuid("question_id")
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
    driveId: uuid("drive_id")
      .notNull()
      .references(() => drives.id, { onDelete: "cascade" }),
    exposed: boolean("exposed").notNull(),
    since: timestamp("since", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.questionId, table.driveId] })],
);

/** The questions served in one attempt, in order, with the shuffled option order and the saved answer. */
export const attemptQuestions = pgTable(
  "attempt_questions",
  {
    attemptId: uuid("attempt_id")
      .notNull()
      .references(() => attempts.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    questionId: uuid("question_id")
      .notNull()
      .references(() => questions.id, { onDelete: "restrict" }),
    optionOrder: uuid("option_order").array().notNull(),
    /**
     * The chosen option: one of `optionOrder`, which the check below holds (not a foreign key: its lookup and row
     * lock on an option every candidate of the drive shares cost each answer more than the rest of its save,
     * issue 25). A served question's options never change or go (updateQuestion archives instead).
     */
    selectedOptionId: uuid("selected_option_id"),
    /** The options chosen for a multiple-answer question (then `selectedOptionId` is null). */
    selectedOptionIds: uuid("selected_option_ids").array(),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    isCorrect: boolean("is_correct"),
    /** The question's mark when scored, 0 to 1: below 1 only for partly right multiple answers. */
    mark: real("mark"),
    /** Times the quiz page lost focus or visibility on this question; shown to admins, never used to block. */
    focusLosses: integer("focus_losses").notNull().default(0),
    /**
     * From the question's window opening to the latest save of its answer, on a per-question timed (paced)
     * attempt: with `answeredAt`, what the server sees of how the attempt was answered, which no page can leave
     * unreported as it can a lost focus (packages/contract/src/answer-timing.ts).
     */
    msToAnswer: integer("ms_to_answer"),
    /**
     * When the student first opened the question (the palette's "not visited" until then), on an attempt timed as
     * a whole, where the student moves freely; a paced attempt's questions are visited in turn, as its clock says.
     */
    visitedAt: timestamp("visited_at", { withTimezone: true }),
    /** The student marked the question for review (the palette); never changes its mark. */
    markedForReview: boolean("marked_for_review").notNull().default(false),
  },
  (table) => [
    primaryKey({ columns: [table.attemptId, table.position] }),
    unique("attempt_questions_question_unique").on(table.attemptId, table.questionId),
    index("attempt_questions_question_idx").on(table.questionId),
    check(
      "attempt_questions_choice_served",
      sql`${table.selectedOptionId} = any(${table.optionOrder}) and ${table.selectedOptionIds} is null
        or ${table.selectedOptionId} is null and (${table.selectedOptionIds} is null or ${table.selectedOptionIds} <@ ${table.optionOrder})`,
    ),
  ],
);

export const feedback = pgTable(
  "feedback",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    usnNumber: text("usn_number").notNull(),
    emailId: text("email_id").notNull(),
    section: text("section").notNull(),
    batch: text("batch").notNull(),
    feedback: text("feedback").notNull(),
    hidden: boolean("hidden").notNull().default(false),
    createdByAdminId: uuid("created_by_admin_id").references(() => admins.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (table) => [index("feedback_created_at_idx").on(table.createdAt)],
);

export const contactEnquiries = pgTable(
  "contact_enquiries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    phone: text("phone").notNull(),
    message: text("message").notNull(),
    /** The training programme an enquiry from that programme's page is about; null from the contact page. */
    programme: text("programme"),
    createdAt: createdAt(),
  },
  (table) => [index("contact_enquiries_created_at_idx").on(table.createdAt)],
);

/** Logged-out tokens until they would have expired anyway; shared by every app instance. */
export const revokedTokens = pgTable(
  "revoked_tokens",
  {
    jti: text("jti").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("revoked_tokens_expires_idx").on(table.expiresAt)],
);

/**
 * Single-use tickets for one file download each (decision 022): the browser fetches the export by an address
 * that carries the ticket instead of the admin's token. Only the ticket's sha-256 is stored; redeeming deletes it.
 */
export const downloadTickets = pgTable(
  "download_tickets",
  {
    tokenHash: text("token_hash").primaryKey(),
    adminId: uuid("admin_id")
      .notNull()
      .references(() => admins.id, { onDelete: "cascade" }),
    /** The session the ticket was asked for with: a logout or a revoked session ends its tickets too. */
    sessionId: text("session_id").notNull(),
    /** The one address (path and query under /api, without the ticket) the ticket opens. */
    path: text("path").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("download_tickets_expires_idx").on(table.expiresAt)],
);

/** Values generated once and shared by all instances. (The signing key no longer lives here: decision 008.) */
export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/**
 * Counters of the limits (password guesses, registrations, the contact form, certificate checks), kept here so
 * that every app instance counts together (decision 010). The table is UNLOGGED: no WAL, so counting costs no
 * disk flush; a crash of PostgreSQL empties it, which only forgets who was being slowed down.
 */
export const limitCounters = pgTable(
  "limit_counters",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
    resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("limit_counters_reset_at_idx").on(table.resetAt)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * Images shown in questions, uploaded by admins (docs/decisions/021). Kept here, not on an instance's disk, so
 * every instance serves every image; named by the SHA-256 of the bytes, so one image uploaded twice is stored once
 * and a name never changes what it shows (it is served as immutable).
 */
export const media = pgTable(
  "media",
  {
    sha256: text("sha256").primaryKey(),
    contentType: text("content_type").notNull(),
    bytes: bytea("bytes").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    uploadedBy: uuid("uploaded_by").references(() => admins.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (table) => [
    check("media_sha256_hex", sql`${table.sha256} ~ '^[0-9a-f]{64}$'`),
    check(
      "media_content_type",
      sql`${table.contentType} in (${sql.raw(
        Object.keys(MEDIA_TYPES)
          .map((type) => `'${type}'`)
          .join(", "),
      )})`,
    ),
  ],
);

/**
 * What invigilators told candidates' screens while a drive ran (decision 038): messages to every candidate of the
 * drive, and time added, to one student or to every running attempt. Each instance reads a drive's recent ones
 * about once a second while a candidate of that drive is connected to it, and pushes them down their streams.
 */
export const driveNotices = pgTable(
  "drive_notices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    driveId: uuid("drive_id")
      .notNull()
      .references(() => drives.id, { onDelete: "cascade" }),
    /** The one student it is for (time added to their attempt); null: every candidate of the drive. */
    studentId: uuid("student_id").references(() => students.id, { onDelete: "cascade" }),
    kind: text("kind").$type<NoticeKind>().notNull(),
    /** A message's words; null for time added. */
    text: text("text"),
    createdAt: createdAt(),
  },
  (table) => [
    check("drive_notices_kind", sql`${table.kind} in (${sql.raw(NOTICE_KINDS.map((kind) => `'${kind}'`).join(", "))})`),
    check("drive_notices_text", sql`(${table.kind} = 'message') = (${table.text} is not null)`),
    // A drive's notices from a moment on: the instances' reads, and the latest messages a screen is sent again.
    index("drive_notices_drive_created_idx").on(table.driveId, table.createdAt),
  ],
);

/**
 * Time given back to an attempt for a lost connection (decision 040): the candidate's page was silent from
 * `silentFrom` (its last contact) until `heardAt`; beyond the drive's grace, `seconds` were given back, up to the
 * drive's most in all. Shown to the drive's admins with the attempt.
 */
export const attemptCredits = pgTable(
  "attempt_credits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    attemptId: uuid("attempt_id")
      .notNull()
      .references(() => attempts.id, { onDelete: "cascade" }),
    silentFrom: timestamp("silent_from", { withTimezone: true }).notNull(),
    heardAt: timestamp("heard_at", { withTimezone: true }).notNull(),
    seconds: doublePrecision("seconds").notNull(),
  },
  (table) => [
    check("attempt_credits_seconds", sql`${table.seconds} > 0`),
    check("attempt_credits_order", sql`${table.silentFrom} < ${table.heardAt}`),
    index("attempt_credits_attempt_idx").on(table.attemptId),
  ],
);
