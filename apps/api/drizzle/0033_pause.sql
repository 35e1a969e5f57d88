ALTER TABLE "drive_notices" DROP CONSTRAINT "drive_notices_kind";--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "paused_seconds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_paused_seconds" CHECK ("attempts"."paused_seconds" >= 0);--> statement-breakpoint
ALTER TABLE "drive_notices" ADD CONSTRAINT "drive_notices_kind" CHECK ("drive_notices"."kind" in ('message', 'time-added', 'paused', 'resumed'));