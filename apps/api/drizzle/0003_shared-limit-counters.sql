-- UNLOGGED: counting a login or a registration writes no WAL and waits for no disk flush. A crash of PostgreSQL
-- empties the table, which only forgets who was being slowed down (decision 010).
CREATE UNLOGGED TABLE "limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "limit_counters_reset_at_idx" ON "limit_counters" USING btree ("reset_at");