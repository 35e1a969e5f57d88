CREATE TYPE "public"."review_policy" AS ENUM('score_only', 'score_and_ticks', 'ticks_after_close');--> statement-breakpoint
CREATE TYPE "public"."timing_mode" AS ENUM('per_question', 'whole_quiz');--> statement-breakpoint
CREATE TABLE "drive_roster" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"drive_id" uuid NOT NULL,
	"email" text,
	"usn_no" text
);
--> statement-breakpoint
CREATE TABLE "drives" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"test_id" uuid NOT NULL,
	"name" text NOT NULL,
	"organisation" text DEFAULT '' NOT NULL,
	"batch" text DEFAULT '' NOT NULL,
	"code" text NOT NULL,
	"opens_at" timestamp with time zone,
	"closes_at" timestamp with time zone,
	"time_zone" text DEFAULT 'Asia/Kolkata' NOT NULL,
	"closed_at" timestamp with time zone,
	"roster_only" boolean DEFAULT false NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"difficulty_mix" jsonb,
	"question_count" integer NOT NULL,
	"seconds_per_question" integer NOT NULL,
	"timing_mode" "timing_mode" DEFAULT 'per_question' NOT NULL,
	"attempts_allowed" integer DEFAULT 1 NOT NULL,
	"pass_mark" integer,
	"negative_mark" real DEFAULT 0 NOT NULL,
	"review_policy" "review_policy" DEFAULT 'score_and_ticks' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tests_question_count_range" CHECK ("tests"."question_count" between 1 and 200),
	CONSTRAINT "tests_seconds_range" CHECK ("tests"."seconds_per_question" between 5 and 3600),
	CONSTRAINT "tests_attempts_range" CHECK ("tests"."attempts_allowed" between 1 and 20),
	CONSTRAINT "tests_pass_mark_range" CHECK ("tests"."pass_mark" is null or "tests"."pass_mark" between 0 and 100),
	CONSTRAINT "tests_negative_mark_range" CHECK ("tests"."negative_mark" >= 0 and "tests"."negative_mark" <= 1)
);
--> statement-breakpoint
DROP INDEX "students_email_unique";--> statement-breakpoint
DROP INDEX "students_usn_unique";--> statement-breakpoint
ALTER TABLE "attempt_questions" ADD COLUMN "focus_losses" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "marks" real;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "passed" boolean;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "drive_id" uuid;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "timing_mode" "timing_mode";--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "paced" boolean;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "negative_mark" real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "pass_mark" integer;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "review_policy" "review_policy";--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "drive_id" uuid;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "resume_code_hash" text;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "resume_allowed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "sessions_valid_from" timestamp with time zone;--> statement-breakpoint
-- Everything that existed before drives becomes the default drive on the default test, with the rules the
-- product had: 25 questions of 30 seconds, paced per question, ticks shown at once, one attempt.
INSERT INTO "tests" ("name", "question_count", "seconds_per_question", "timing_mode", "attempts_allowed",
                     "review_policy", "is_default")
VALUES ('Campus quiz', 25, 30, 'per_question', 1, 'score_and_ticks', true);--> statement-breakpoint
INSERT INTO "drives" ("test_id", "name", "code", "is_default")
SELECT "id", 'Open registration', 'OPEN', true FROM "tests" WHERE "is_default";--> statement-breakpoint
UPDATE "students" SET "drive_id" = (SELECT "id" FROM "drives" WHERE "is_default");--> statement-breakpoint
UPDATE "attempts" SET "drive_id" = (SELECT "id" FROM "drives" WHERE "is_default"), "timing_mode" = 'per_question',
  "paced" = true, "review_policy" = 'score_and_ticks', "marks" = "score";--> statement-breakpoint
ALTER TABLE "attempts" ALTER COLUMN "drive_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "attempts" ALTER COLUMN "timing_mode" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "attempts" ALTER COLUMN "paced" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "attempts" ALTER COLUMN "review_policy" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ALTER COLUMN "drive_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "drive_roster" ADD CONSTRAINT "drive_roster_drive_id_drives_id_fk" FOREIGN KEY ("drive_id") REFERENCES "public"."drives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drives" ADD CONSTRAINT "drives_test_id_tests_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."tests"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "drive_roster_email_idx" ON "drive_roster" USING btree ("drive_id",lower("email"));--> statement-breakpoint
CREATE INDEX "drive_roster_usn_idx" ON "drive_roster" USING btree ("drive_id",lower("usn_no"));--> statement-breakpoint
CREATE UNIQUE INDEX "drives_code_unique" ON "drives" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "drives_one_default" ON "drives" USING btree ("is_default") WHERE "drives"."is_default";--> statement-breakpoint
CREATE INDEX "drives_test_idx" ON "drives" USING btree ("test_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tests_one_default" ON "tests" USING btree ("is_default") WHERE "tests"."is_default";--> statement-breakpoint
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_drive_id_drives_id_fk" FOREIGN KEY ("drive_id") REFERENCES "public"."drives"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_drive_id_drives_id_fk" FOREIGN KEY ("drive_id") REFERENCES "public"."drives"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attempts_drive_idx" ON "attempts" USING btree ("drive_id");--> statement-breakpoint
CREATE UNIQUE INDEX "students_drive_email_unique" ON "students" USING btree ("drive_id",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "students_drive_usn_unique" ON "students" USING btree ("drive_id",lower("usn_no"));--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "certificate_code" text;--> statement-breakpoint
CREATE UNIQUE INDEX "attempts_certificate_code_unique" ON "attempts" USING btree ("certificate_code");