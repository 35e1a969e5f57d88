ALTER TABLE "attempts" ADD COLUMN "ended_for_focus_loss" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "focus_loss_limit" integer;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "focus_loss_ends_attempt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "drives" ADD CONSTRAINT "drives_focus_loss_limit_range" CHECK ("drives"."focus_loss_limit" is null or "drives"."focus_loss_limit" between 1 and 100);--> statement-breakpoint
ALTER TABLE "drives" ADD CONSTRAINT "drives_focus_loss_ends_needs_limit" CHECK (not "drives"."focus_loss_ends_attempt" or "drives"."focus_loss_limit" is not null);