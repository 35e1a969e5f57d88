// A drive's roster as an admin uploads it: a CSV whose header names an email column, a USN column, or both.

import { ROSTER_MAX_ENTRIES } from "@trainwise/contract/drives";
import { parse } from "csv-parse";
import { chunkedSource } from "../../csv/chunks.ts";
import { HttpError } from "../../http/http-error.ts";
import { Turns } from "../../http/turns.ts";

export interface RosterEntry {
  email: string;
  usnNo: string;
}

/** A header cell as the roster reads it: "E-mail ID" is `emailid`, "USN No." is `usnno`. */
const columnName = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replaceAll(/[^a-z]/g, "");

/**
 * A roster without a double quote in it, read line by line: without quotes no cell holds a comma or a line break,
 * so this reads what csv-parse reads (roster.test.ts pins the two together) in a fifth of the time. Rosters come
 * from spreadsheets, which quote only cells that need it, so this is nearly every roster.
 */
async function unquotedRecords(csv: string, turns: Turns): Promise<Record<string, string>[]> {
  const lines = csv.replace(/^\uFEFF/, "").split(/\r?\n/);
  const header = (lines.shift() ?? "").split(",").map(columnName);
  const records: Record<string, string>[] = [];
  for (const line of lines) {
    if (turns.due()) await turns.pass();
    if (line.trim() === "") continue;
    if (records.length === ROSTER_MAX_ENTRIES) throw tooLarge();
    const cells = line.split(",");
    const record: Record<string, string> = {};
    for (const [place, column] of header.entries()) {
      const cell = cells[place];
      if (cell !== undefined) record[column] = cell.trim();
    }
    records.push(record);
  }
  return records;
}

const tooLarge = () =>
  new HttpError(413, `A roster can have at most ${ROSTER_MAX_ENTRIES.toLocaleString("en")} students.`);

/** Any roster, quoted cells and all, through csv-parse. */
async function csvRecords(csv: string): Promise<Record<string, string>[]> {
  const parser = parse({
    bom: true,
    columns: (header: string[]) => header.map(columnName),
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
  });
  const source = chunkedSource(csv);
  source.pipe(parser);
  const records: Record<string, string>[] = [];
  try {
    for await (const record of parser as AsyncIterable<Record<string, string>>) {
      if (records.length === ROSTER_MAX_ENTRIES) throw tooLarge();
      records.push(record);
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, `The roster is not valid CSV: ${(error as Error).message}`);
  } finally {
    source.destroy();
  }
  return records;
}

/**
 * Email and USN columns of a roster CSV (a header row names them); each line needs one or both. Read a piece per
 * turn of the event loop: the largest roster, 2 MB, held the loop 270 ms in one parse.
 */
export async function parseRoster(csv: string): Promise<RosterEntry[]> {
  // Lines end in \n or \r\n there; csv-parse reads the rest (a lone \r may end its lines).
  const turns = new Turns();
  const unquoted = !csv.includes('"') && !/\r(?!\n)/.test(csv);
  const records = unquoted ? await unquotedRecords(csv, turns) : await csvRecords(csv);
  const columns = Object.keys(records[0] ?? {});
  if (records.length > 0 && !columns.some((column) => ["email", "emailid", "usn", "usnno"].includes(column))) {
    throw new HttpError(400, "The roster needs a header row with an email column, a usn column, or both.");
  }
  // In turns here too: the largest roster's 20,000 lines held the loop about 10 ms in one go.
  const entries: RosterEntry[] = [];
  for (const record of records) {
    if (turns.due()) await turns.pass();
    const entry = {
      email: (record.email ?? record.emailid ?? "").slice(0, 254),
      usnNo: (record.usn ?? record.usnno ?? "").slice(0, 50),
    };
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
    if (/[\u0000-\u001f\u007f]/.test(entry.email + entry.usnNo)) {
      throw new HttpError(400, "The roster contains control characters; save it again as plain CSV.");
    }
    if (entry.email || entry.usnNo) entries.push(entry);
  }
  return entries;
}
