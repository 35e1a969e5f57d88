ALTER TABLE "drives" ADD COLUMN "key_shown_at" timestamp with time zone;--> statement-breakpoint
-- A drive set to both checks its students by its roster, as registration already does; its e-mail codes go.
UPDATE "drives" SET "verify_email" = false WHERE "verify_email" AND "roster_only";--> statement-breakpoint
ALTER TABLE "drives" ADD CONSTRAINT "drives_email_codes_without_roster" CHECK (not ("drives"."verify_email" and "drives"."roster_only"));