// A drive's roster as an admin uploads it: a CSV whose header names an email column, a USN column, or both.
import { ROSTER_MAX_ENTRIES } from "@trainwise/contract/drives";
import { parse } from "csv-parse";
import { chunkedSource } from "../../csv/chunks.ts";
import { HttpError } from "../../http/http-error.ts";

export interface RosterEntry {
  email: string;
  usnNo: string;
}

/**
 * Email and USN columns of a roster CSV (a header row names them); each line needs one or both. Parsed a chunk
 * per turn of the event loop (csv/chunks.ts): the largest roster, 2 MB, held the loop 270 ms in one parse.
 */
export async function parseRoster(csv: string): Promise<RosterEntry[]> {
  const parser = parse({
    bom: true,
    columns: (header: string[]) =>
      header.map((name) =>
        name
          .trim()
          .toLowerCase()
          .replaceAll(/[^a-z]/g, ""),
      ),
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
  });
  const source = chunkedSource(csv);
  source.pipe(parser);
  const records: Record<string, string>[] = [];
  try {
    for await (const record of parser as AsyncIterable<Record<string, string>>) {
      if (records.length === ROSTER_MAX_ENTRIES) {
        throw new HttpError(413, `A roster can have at most ${ROSTER_MAX_ENTRIES.toLocaleString("en")} students.`);
      }
      records.push(record);
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, `The roster is not valid CSV: ${(error as Error).message}`);
  } finally {
    source.destroy();
  }
  const entries = records.map((record) => ({
    email: (record.email ?? record.emailid ?? "").slice(0, 254),
    usnNo: (record.usn ?? record.usnno ?? "").slice(0, 50),
  }));
  const columns = Object.keys(records[0] ?? {});
  if (records.length > 0 && !columns.some((column) => ["email", "emailid", "usn", "usnno"].includes(column))) {
    throw new HttpError(400, "The roster needs a header row with an email column, a usn column, or both.");
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (entries.some((entry) => /[\u0000-\u001f\u007f]/.test(entry.email + entry.usnNo))) {
    throw new HttpError(400, "The roster contains control characters; save it again as plain CSV.");
  }
  return entries.filter((entry) => entry.email || entry.usnNo);
}
