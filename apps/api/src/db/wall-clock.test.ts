// An instant is written in ISO 8601 twice: by Date.prototype.toISOString on a Date read from a timestamptz (as
// Drizzle's columns and node-postgres's own parser make it), and by PostgreSQL itself (isoInstantSql) for the lists
// it writes as the contract names them. A property test pins the two together on instants with microseconds, which
// PostgreSQL keeps and a Date does not.
import { sql } from "drizzle-orm";
import fc from "fast-check";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../test/database.ts";
import { isoInstantSql } from "./wall-clock.ts";

describe("an instant in ISO 8601, written by PostgreSQL", async () => {
  const database = await createTestDatabase();

  const pgDate = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => Date;

  it("reads exactly as the Date made of the same timestamptz", async () => {
    const instant = fc.record({
      // From 1970 to 2100, with the last millisecond of a second and a day among them.
      ms: fc.oneof(
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        fc.constantFrom(1_764_287_999_999, 1_764_288_000_000, 0),
      ),
      micros: fc.oneof(fc.integer({ min: 0, max: 999 }), fc.constantFrom(0, 499, 500, 999)),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(instant, { minLength: 1, maxLength: 20 }), async (drawn) => {
        const written = drawn.map(
          ({ ms, micros }) => `${new Date(ms).toISOString().slice(0, -1)}${String(micros).padStart(3, "0")}Z`,
        );
        const { rows } = await database.db.execute<{ instant: string; iso: string }>(sql`
          select t.instant, ${isoInstantSql("t.instant")} as iso
          from unnest(${`{${written.join(",")}}`}::timestamptz[]) with ordinality as t(instant, position)
          order by t.position`);
        const iso = rows.map((row) => row.iso);
        // Drizzle's timestamptz column reads PostgreSQL's text with `new Date`; node-postgres with its own parser.
        expect(iso).toEqual(rows.map((row) => new Date(row.instant).toISOString()));
        expect(iso).toEqual(rows.map((row) => pgDate(row.instant).toISOString()));
        expect(rows).toHaveLength(drawn.length);
      }),
      { numRuns: 60 },
    );
  });
});
