ALTER TABLE "drive_roster" ADD COLUMN "link_token_hash" text;--> statement-breakpoint
ALTER TABLE "drive_roster" ADD COLUMN "link_made_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "drive_roster" ADD COLUMN "link_emailed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "drive_roster" ADD COLUMN "link_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "personal_links_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "drive_roster_link_token_unique" ON "drive_roster" USING btree ("link_token_hash");--> statement-breakpoint
ALTER TABLE "drives" ADD CONSTRAINT "drives_personal_links_need_roster" CHECK (not "drives"."personal_links_only" or "drives"."roster_only");