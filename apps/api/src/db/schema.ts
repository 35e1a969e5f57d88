// The whole product's tables. `drizzle-kit generate` turns changes here into SQL migrations in ../../drizzle.
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
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

export const admins = pgTable(
  "admins",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    username: text("username").notNull(),
    passwordHash: text("password_hash").notNull(),
    createdAt: createdAt(),
    passwordChangedAt: timestamp("password_changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("admins_username_unique").on(sql`lower(${table.username})`)],
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
    /** Accessibility accommodation: multiplies the seconds per question. */
    timeMultiplier: real("time_multiplier").notNull().default(1),
    /** How many attempts this student may start; an admin raises it to allow another. */
    attemptsAllowed: integer("attempts_allowed").notNull().default(1),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("students_email_unique").on(sql`lower(${table.email})`),
    uniqueIndex("students_usn_unique").on(sql`lower(${table.usnNo})`),
    index("students_created_at_idx").on(table.createdAt),
    check("students_time_multiplier_range", sql`${table.timeMultiplier} >= 1 and ${table.timeMultiplier} <= 4`),
  ],
);

export const difficulty = pgEnum("difficulty", ["easy", "medium", "hard"]);

export const questions = pgTable(
  "questions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    text: text("text").notNull(),
    category: text("category").notNull(),
    difficulty: difficulty("difficulty").notNull().default("medium"),
    /** Set instead of deleting when attempts refer to the question, so results keep what was asked. */
    archivedAt: timestamp("archived_at", { withTimezone: true }),
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
    position: integer("position").notNull(),
  },
  (table) => [
    unique("question_options_position_unique").on(table.questionId, table.position),
    // At most one correct option per question, enforced by the database as well as the contract.
    uniqueIndex("question_options_one_correct").on(table.questionId).where(sql`${table.isCorrect}`),
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
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    score: integer("score"),
    totalQuestions: integer("total_questions").notNull(),
  },
  (table) => [
    index("attempts_student_idx").on(table.studentId),
    // One open attempt per student, and the index every answer and Next finds it by.
    uniqueIndex("attempts_one_open_per_student").on(table.studentId).where(sql`${table.submittedAt} is null`),
    index("attempts_open_deadline_idx").on(table.deadlineAt).where(sql`${table.submittedAt} is null`),
    index("attempts_submitted_idx").on(table.submittedAt),
  ],
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
    selectedOptionId: uuid("selected_option_id").references(() => questionOptions.id, { onDelete: "restrict" }),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    isCorrect: boolean("is_correct"),
  },
  (table) => [
    primaryKey({ columns: [table.attemptId, table.position] }),
    unique("attempt_questions_question_unique").on(table.attemptId, table.questionId),
    index("attempt_questions_question_idx").on(table.questionId),
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

/** Values generated once and shared by all instances, such as the token signing key. */
export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});
