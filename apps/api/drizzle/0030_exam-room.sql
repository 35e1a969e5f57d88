ALTER TABLE "drives" ADD COLUMN "late_entry_minutes" integer;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "allowed_addresses" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "drives" ADD CONSTRAINT "drives_late_entry_range" CHECK ("drives"."late_entry_minutes" is null or ("drives"."opens_at" is not null and "drives"."late_entry_minutes" between 1 and 1440));