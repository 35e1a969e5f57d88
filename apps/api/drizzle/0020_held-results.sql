ALTER TABLE "drives" ADD COLUMN "hold_results" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "results_published_at" timestamp with time zone;