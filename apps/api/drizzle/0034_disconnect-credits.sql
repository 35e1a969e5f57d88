CREATE TABLE "attempt_credits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"attempt_id" uuid NOT NULL,
	"silent_from" timestamp with time zone NOT NULL,
	"heard_at" timestamp with time zone NOT NULL,
	"seconds" double precision NOT NULL,
	CONSTRAINT "attempt_credits_seconds" CHECK ("attempt_credits"."seconds" > 0),
	CONSTRAINT "attempt_credits_order" CHECK ("attempt_credits"."silent_from" < "attempt_credits"."heard_at")
);
--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "last_contact_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "credited_seconds" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "disconnect_grace_seconds" integer;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "disconnect_credit_minutes" integer;--> statement-breakpoint
ALTER TABLE "attempt_credits" ADD CONSTRAINT "attempt_credits_attempt_id_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attempt_credits_attempt_idx" ON "attempt_credits" USING btree ("attempt_id");--> statement-breakpoint
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_credited_seconds" CHECK ("attempts"."credited_seconds" >= 0);--> statement-breakpoint
ALTER TABLE "drives" ADD CONSTRAINT "drives_disconnect_credits" CHECK (("drives"."disconnect_grace_seconds" is null and "drives"."disconnect_credit_minutes" is null) or ("drives"."disconnect_grace_seconds" between 30 and 600 and "drives"."disconnect_credit_minutes" between 1 and 60));