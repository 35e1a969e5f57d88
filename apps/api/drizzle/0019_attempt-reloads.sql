ALTER TABLE "attempts" ADD COLUMN "reloads" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "reloaded_at" timestamp with time zone;