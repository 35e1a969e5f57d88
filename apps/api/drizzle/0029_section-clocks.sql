ALTER TYPE "public"."timing_mode" ADD VALUE 'per_section';--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "section_first" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "section_end" integer;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "section_deadline_at" timestamp with time zone;--> statement-breakpoint
-- Sections gain their own timing, read only when their test is timed per section: a section clock at the test's
-- seconds per question, so that switching an existing test to per-section timing starts from its own figures.
UPDATE "tests" t SET "sections" = (
  SELECT jsonb_agg(s.value || jsonb_build_object('timing', 'section_clock', 'secondsPerQuestion', t."seconds_per_question")
    ORDER BY s.ordinality)
  FROM jsonb_array_elements(t."sections") WITH ORDINALITY s
) WHERE jsonb_array_length(t."sections") > 0;
