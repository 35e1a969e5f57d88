ALTER TABLE "attempt_questions" ADD COLUMN "first_answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "attempt_questions" ADD COLUMN "ms_to_answer" integer;--> statement-breakpoint
CREATE INDEX "attempts_open_drive_deadline_idx" ON "attempts" USING btree ("drive_id","deadline_at") WHERE "attempts"."submitted_at" is null;