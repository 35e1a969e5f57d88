// Which section a served position falls in is written twice: in TypeScript (section-positions.ts, for the quiz page,
// the quiz service and the live board) and in SQL (SERVED_SECTIONS, for item analysis over thousands of attempts).
// A property test runs both on generated sections (some empty, as a practice draw that ran short can leave them)
// and every position, one past the end included.
import { sectionAtPosition, sectionPlaces } from "@trainwise/contract/section-positions";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/database.ts";
import { SERVED_SECTIONS } from "./repository.ts";

describe("a served position's section in SQL", async () => {
  const database = await createTestDatabase();

  it("is the section sectionAtPosition names, for every position", async () => {
    const sections = fc.array(
      fc.record({ name: fc.string({ minLength: 1, maxLength: 8 }), questionCount: fc.integer({ min: 0, max: 4 }) }),
      { maxLength: 8 },
    );
    await fc.assert(
      fc.asyncProperty(sections, async (served) => {
        const total = served.reduce((sum, section) => sum + section.questionCount, 0);
        const { rows } = await database.db.execute<{ position: number; name: string | null }>(sql`
          select p.position, (
            select s.value->>'name' from (select ${JSON.stringify(served)}::jsonb as sections) a ${SERVED_SECTIONS}
            where p.position >= s.first_position and p.position < s.end_position
          ) as name
          from generate_series(0, ${total}::int) p(position)
          order by p.position`);
        const places = sectionPlaces(served);
        for (const row of rows) {
          // Past the last question no section holds the position in SQL; in TypeScript the last one is named.
          const expected = row.position < total ? (sectionAtPosition(places, row.position)?.name ?? null) : null;
          expect(row.name, `position ${row.position}`).toBe(expected);
        }
      }),
      { numRuns: 150 },
    );
  });
});
