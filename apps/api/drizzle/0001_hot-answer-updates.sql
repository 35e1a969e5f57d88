-- Each served question's row is updated twice (the answer, then the mark at submit). With half of every page
-- left free, PostgreSQL keeps both new versions on the same page (a HOT update) instead of adding entries to
-- all three indexes; a campus drive measured 11% more students per second. New pages get the setting; a
-- VACUUM FULL would repack existing ones, which a migration should not do to a live table.
ALTER TABLE "attempt_questions" SET (fillfactor = 50);
