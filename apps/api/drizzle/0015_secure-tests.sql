CREATE TABLE "question_keys" (
	"question_id" uuid NOT NULL,
	"drive_id" uuid NOT NULL,
	"exposed" boolean NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "question_keys_question_id_drive_id_pk" PRIMARY KEY("question_id","drive_id")
);
--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "secure" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "secure" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "question_keys" ADD CONSTRAINT "question_keys_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_keys" ADD CONSTRAINT "question_keys_drive_id_drives_id_fk" FOREIGN KEY ("drive_id") REFERENCES "public"."drives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A test that hides ticks meant to keep its key from candidates; immediate scores gave it away (decision 024).
UPDATE "tests" SET "secure" = true WHERE NOT "is_default" AND "review_policy" <> 'score_and_ticks';--> statement-breakpoint
-- Every attempt so far showed its score at submit: the keys it was served have been seen.
INSERT INTO "question_keys" ("question_id", "drive_id", "exposed")
  SELECT DISTINCT aq."question_id", a."drive_id", true
  FROM "attempt_questions" aq JOIN "attempts" a ON a."id" = aq."attempt_id"
  ON CONFLICT DO NOTHING;
