-- The audit log is append-only for the app's own statements (decision 016): a row, once written, is never changed
-- or removed by an UPDATE, DELETE or TRUNCATE, whoever sends it; triggers hold for the table's owner too, unlike
-- privileges. The owner can still disable a trigger (ALTER TABLE): to hold a stolen app login to this as well,
-- give audit_log another owner (docs/deploy.md).
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_no_update_or_delete" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_append_only"();
