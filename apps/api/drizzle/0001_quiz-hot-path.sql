CREATE UNIQUE INDEX "attempts_one_open_per_student" ON "attempts" USING btree ("student_id") WHERE "attempts"."submitted_at" is null;--> statement-breakpoint
-- Each served question's row is updated twice (the answer, then the mark at submit). With half of every page
-- left free, PostgreSQL keeps the new versions on the same page (a HOT update) instead of adding entries to
-- all three indexes. New pages get the setting; existing ones keep their packing until rewritten.
ALTER TABLE "attempt_questions" SET (fillfactor = 50);
