-- The admin tables search students by text anywhere in the name, USN or e-mail (trigram indexes answer that)
-- and list students and results newest first (with the id as tie-break, also the export's keyset).
-- pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may create it. (Added by hand: drizzle
-- does not create extensions.)
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "attempts_submitted_id_idx" ON "attempts" USING btree ("submitted_at","id") WHERE "attempts"."submitted_at" is not null;--> statement-breakpoint
CREATE INDEX "students_name_trgm_idx" ON "students" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "students_usn_trgm_idx" ON "students" USING gin ("usn_no" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "students_email_trgm_idx" ON "students" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "students_created_at_id_idx" ON "students" USING btree ("created_at","id");
