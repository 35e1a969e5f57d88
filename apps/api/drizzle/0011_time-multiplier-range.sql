ALTER TABLE "students" DROP CONSTRAINT "students_time_multiplier_range";--> statement-breakpoint
ALTER TABLE "tests" DROP CONSTRAINT "tests_negative_mark_range";--> statement-breakpoint
-- The API never accepted more than 3× (the contract's TIME_MULTIPLIER); the database allowed 4×. Nothing stored
-- can be above 3, but a value that somehow is would stop this migration, so it is brought to the bound first.
UPDATE "students" SET "time_multiplier" = 3 WHERE "time_multiplier" > 3;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_time_multiplier_range" CHECK ("students"."time_multiplier" between 1 and 3);--> statement-breakpoint
ALTER TABLE "tests" ADD CONSTRAINT "tests_negative_mark_range" CHECK ("tests"."negative_mark" between 0 and 1);