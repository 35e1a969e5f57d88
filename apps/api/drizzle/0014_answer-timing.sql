ALTER TABLE "attempt_questions" ADD COLUMN "first_answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "attempt_questions" ADD COLUMN "ms_to_answer" integer;