ALTER TABLE "attempts" ADD COLUMN "ended_by" text;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "full_screen_exits" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "late_entry_minutes" integer;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "allowed_addresses" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "focus_loss_limit" integer;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "focus_loss_ends_attempt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "full_screen" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "block_copy_paste" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_ended_by" CHECK ("attempts"."ended_by" is null or "attempts"."ended_by" in ('focus_limit', 'invigilator'));--> statement-breakpoint
ALTER TABLE "drives" ADD CONSTRAINT "drives_focus_loss_limit_range" CHECK ("drives"."focus_loss_limit" is null or "drives"."focus_loss_limit" between 1 and 100);--> statement-breakpoint
ALTER TABLE "drives" ADD CONSTRAINT "drives_focus_loss_ends_needs_limit" CHECK (not "drives"."focus_loss_ends_attempt" or "drives"."focus_loss_limit" is not null);--> statement-breakpoint
ALTER TABLE "drives" ADD CONSTRAINT "drives_late_entry_range" CHECK ("drives"."late_entry_minutes" is null or ("drives"."opens_at" is not null and "drives"."late_entry_minutes" between 1 and 1440));