ALTER TABLE "attempt_questions" ADD COLUMN "visited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "attempt_questions" ADD COLUMN "marked_for_review" boolean DEFAULT false NOT NULL;