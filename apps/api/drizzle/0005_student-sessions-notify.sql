-- Every app instance caches when each student's sessions became valid; a change (an admin ended the sessions,
-- let the student resume, allowed another attempt) or a deleted student is announced on the channel
-- student_sessions, so each instance forgets its copy at once (apps/api/src/auth/session-changes.ts). NOTIFY is
-- sent when the transaction commits, and not at all if it rolls back.
CREATE FUNCTION "notify_student_sessions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('student_sessions', OLD.id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "students_sessions_changed"
  AFTER UPDATE OF "sessions_valid_from" ON "students"
  FOR EACH ROW WHEN (OLD."sessions_valid_from" IS DISTINCT FROM NEW."sessions_valid_from")
  EXECUTE FUNCTION "notify_student_sessions"();
--> statement-breakpoint
CREATE TRIGGER "students_deleted"
  AFTER DELETE ON "students"
  FOR EACH ROW EXECUTE FUNCTION "notify_student_sessions"();
