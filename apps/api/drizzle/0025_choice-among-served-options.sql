ALTER TABLE "attempt_questions" DROP CONSTRAINT "attempt_questions_selected_option_id_question_options_id_fk";
--> statement-breakpoint
-- NOT VALID: rows already stored were saved under the same rule by the quiz's statements; checking them all would
-- hold the table locked through the upgrade. Every row written from now on is checked.
ALTER TABLE "attempt_questions" ADD CONSTRAINT "attempt_questions_choice_served" CHECK ("attempt_questions"."selected_option_id" = any("attempt_questions"."option_order") and "attempt_questions"."selected_option_ids" is null
        or "attempt_questions"."selected_option_id" is null and ("attempt_questions"."selected_option_ids" is null or "attempt_questions"."selected_option_ids" <@ "attempt_questions"."option_order")) NOT VALID;
