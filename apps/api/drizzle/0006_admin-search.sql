-- The admin tables search students by text anywhere in the name, USN or e-mail; trigram indexes answer that.
-- pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may create it. (Added by hand: drizzle
-- does not create extensions.)
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "students_name_trgm_idx" ON "students" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "students_usn_trgm_idx" ON "students" USING gin ("usn_no" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "students_email_trgm_idx" ON "students" USING gin ("email" gin_trgm_ops);
