-- Attempts already stored predate mailed scorecards: added as not due, so an upgrade mails nobody about an old
-- drive. Attempts started from now on are due (the column's default from the next statement on).
ALTER TABLE "attempts" ADD COLUMN "scorecard_mail_due" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "attempts" ALTER COLUMN "scorecard_mail_due" SET DEFAULT true;--> statement-breakpoint
CREATE INDEX "attempts_scorecard_mail_due_idx" ON "attempts" USING btree ("drive_id") WHERE "attempts"."scorecard_mail_due" and "attempts"."submitted_at" is not null;
