CREATE TYPE "public"."question_type" AS ENUM('single', 'multiple', 'true_false');--> statement-breakpoint
CREATE TYPE "public"."scoring_rule" AS ENUM('all_or_nothing', 'partial');--> statement-breakpoint
DROP INDEX "question_options_one_correct";--> statement-breakpoint
ALTER TABLE "attempt_questions" ADD COLUMN "selected_option_ids" uuid[];--> statement-breakpoint
ALTER TABLE "attempt_questions" ADD COLUMN "mark" real;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "type" "question_type" DEFAULT 'single' NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "scoring" "scoring_rule" DEFAULT 'all_or_nothing' NOT NULL;