ALTER TABLE "question_options" ADD COLUMN "weight" double precision;--> statement-breakpoint
-- Every option gets the weight that marks it exactly as the right/wrong flags did (decision 018): a single or
-- true/false question's correct option 100 and the others 0; a multiple-answer question's k right options
-- +100/k and its wrong ones -100/k, as Moodle writes them (33.33333): all or nothing looks at which options weigh
-- more than 0, partial credit adds the weights up, (right chosen - wrong chosen) / k, never below 0.
UPDATE "question_options" o SET "weight" = CASE
    WHEN q."type" = 'multiple' THEN (CASE WHEN o."is_correct" THEN 1 ELSE -1 END) * round(100.0 / greatest(k.right_options, 1), 5)::double precision
    WHEN o."is_correct" THEN 100
    ELSE 0 END
  FROM "questions" q,
       (SELECT "question_id", count(*) FILTER (WHERE "is_correct") AS right_options FROM "question_options" GROUP BY "question_id") k
  WHERE q."id" = o."question_id" AND k."question_id" = o."question_id";--> statement-breakpoint
ALTER TABLE "question_options" ALTER COLUMN "weight" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "question_options" ADD CONSTRAINT "question_options_weight_range" CHECK ("question_options"."weight" between -100 and 100);--> statement-breakpoint
ALTER TABLE "question_options" ADD CONSTRAINT "question_options_weight_agrees" CHECK (case when "question_options"."is_correct" then "question_options"."weight" > 0 else "question_options"."weight" < 100 end);
