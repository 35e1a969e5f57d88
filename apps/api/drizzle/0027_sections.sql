ALTER TABLE "attempts" ADD COLUMN "sections" jsonb;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "section_marks" jsonb;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "tie_break_sections" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "sections" jsonb DEFAULT '[]'::jsonb NOT NULL;