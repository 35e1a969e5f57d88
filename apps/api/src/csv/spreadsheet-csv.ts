// Every CSV the product writes goes through `toCsv`, so no cell can run as a spreadsheet formula; the question
// import reads such an escaped cell back with `fromExportedCell`, so an export imports back unchanged.
import { stringify } from "csv-stringify/sync";

/**
 * A cell a spreadsheet would take for a formula (OWASP's list: = + - @ tab and carriage return; the full-width
 * forms, which some spreadsheets accept too), possibly behind quotes that an earlier escape added. Escaping
 * every such cell, quotes or not, keeps the round trip exact: a cell that really starts with `'=` is written
 * `''=` and read back as `'=`.
 */
const FORMULA_LEADING = /^'*[=+\-@\t\r＝＋－＠]/;

/** The cell as a spreadsheet shows it as text: a leading `'` tells it not to evaluate what follows. */
export function neutraliseFormula(cell: string): string {
  return FORMULA_LEADING.test(cell) ? `'${cell}` : cell;
}

/** Undoes `neutraliseFormula`: the one quote it added, and only where it added one. */
export function fromExportedCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_LEADING.test(cell) ? cell.slice(1) : cell;
}

export type CsvCell = string | number | boolean | null | undefined;

/**
 * Rows as CSV with a header line of `columns` (leave it out with `header: false`, for the second and later
 * batches of a streamed export); every text cell is made safe to open in a spreadsheet.
 */
export function toCsv<Column extends string>(
  rows: readonly Partial<Record<Column, CsvCell>>[],
  columns: readonly Column[],
  options: { header?: boolean } = {},
): string {
  return stringify([...rows], {
    header: options.header ?? true,
    columns: [...columns],
    cast: { string: neutraliseFormula },
  });
}
