// The product's CSV writer writes what csv-stringify writes with the same options (header line, the formula
// escaping as its string cast): the same text for any rows of text, numbers, booleans and empty cells.
import { stringify } from "csv-stringify/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CsvCell, neutraliseFormula, toCsv } from "./spreadsheet-csv.ts";

const COLUMNS = ["name", "email", "score", "passed", "note"] as const;
type Column = (typeof COLUMNS)[number];

const viaCsvStringify = (rows: Partial<Record<Column, CsvCell>>[], header: boolean) =>
  stringify(rows, { header, columns: [...COLUMNS], cast: { string: neutraliseFormula } });

describe("toCsv", () => {
  it("writes what csv-stringify writes", () => {
    const text = fc.stringMatching(/^[ a-z0-9,"'\n\r\t=+\-@＝.é]{0,10}$/);
    const cell: fc.Arbitrary<CsvCell> = fc.oneof(
      text,
      fc.integer({ min: -1000, max: 1000 }),
      fc.double({ noNaN: false }),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
    );
    const row = fc.record(Object.fromEntries(COLUMNS.map((column) => [column, cell])), { requiredKeys: [] });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 6 }), fc.boolean(), (rows, header) => {
        const typed = rows as Partial<Record<Column, CsvCell>>[];
        expect(toCsv(typed, COLUMNS, { header })).toBe(viaCsvStringify(typed, header));
      }),
      { numRuns: 2000 },
    );
  });
});
