ALTER TABLE "tests" ADD COLUMN "rules_first" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "students_resume_code_idx" ON "students" USING btree ("resume_code_hash");