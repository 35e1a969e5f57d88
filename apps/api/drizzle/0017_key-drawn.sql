ALTER TABLE "questions" ADD COLUMN "key_drawn" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "questions" SET "key_drawn" = true WHERE "id" IN (SELECT "question_id" FROM "question_keys");
