CREATE TABLE "drive_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"drive_id" uuid NOT NULL,
	"student_id" uuid,
	"kind" text NOT NULL,
	"text" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "drive_notices_kind" CHECK ("drive_notices"."kind" in ('message', 'time-added')),
	CONSTRAINT "drive_notices_text" CHECK (("drive_notices"."kind" = 'message') = ("drive_notices"."text" is not null))
);
--> statement-breakpoint
ALTER TABLE "drive_notices" ADD CONSTRAINT "drive_notices_drive_id_drives_id_fk" FOREIGN KEY ("drive_id") REFERENCES "public"."drives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drive_notices" ADD CONSTRAINT "drive_notices_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "drive_notices_drive_created_idx" ON "drive_notices" USING btree ("drive_id","created_at");