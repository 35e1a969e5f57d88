ALTER TABLE "attempts" ADD COLUMN "full_screen_exits" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "full_screen" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "block_copy_paste" boolean DEFAULT false NOT NULL;