CREATE TABLE "email_codes" (
	"drive_id" uuid NOT NULL,
	"email" text NOT NULL,
	"code_hash" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"wrong_tries" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "email_codes_drive_id_email_pk" PRIMARY KEY("drive_id","email")
);
--> statement-breakpoint
ALTER TABLE "drive_roster" ADD COLUMN "link_token_hash" text;--> statement-breakpoint
ALTER TABLE "drive_roster" ADD COLUMN "link_made_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "drive_roster" ADD COLUMN "link_emailed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "drive_roster" ADD COLUMN "link_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "personal_links_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "drives" ADD COLUMN "verify_email" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_codes" ADD CONSTRAINT "email_codes_drive_id_drives_id_fk" FOREIGN KEY ("drive_id") REFERENCES "public"."drives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_codes_expires_idx" ON "email_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "drive_roster_link_token_unique" ON "drive_roster" USING btree ("link_token_hash");--> statement-breakpoint
ALTER TABLE "drives" ADD CONSTRAINT "drives_personal_links_need_roster" CHECK (not "drives"."personal_links_only" or "drives"."roster_only");