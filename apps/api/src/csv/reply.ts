// How the API answers with a CSV file: whole (a small list) or streamed batch by batch (an export of thousands
// of rows), both through `toCsv`, so no cell ever leaves as a spreadsheet formula.
import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";
import { type CsvCell, toCsv } from "./spreadsheet-csv.ts";

const CSV_TYPE = "text/csv; charset=utf-8";

/**
 * A download's Content-Disposition. A name beyond printable ASCII (a college named in Kannada) goes as RFC 6266's
 * `filename*` in UTF-8, with an ASCII stand-in for old clients: written raw, it is not a valid header value.
 */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  if (ascii === filename) return `attachment; filename="${filename}"`;
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The headers of every file download the API answers: its type, and the name the browser saves it under. */
function asAttachment(reply: FastifyReply, filename: string, contentType = CSV_TYPE) {
  return reply.type(contentType).header("content-disposition", contentDisposition(filename));
}

/** Answers with `csv` as a download named `filename`. */
export function sendCsv(reply: FastifyReply, filename: string, csv: string) {
  return asAttachment(reply, filename).send(csv);
}

/** Answers with a file of another format (GIFT, Aiken, Moodle XML, a PDF) as a download, with the same headers. */
export function sendDownload(
  reply: FastifyReply,
  file: { fileName: string; contentType: string },
  body: string | Buffer,
) {
  return asAttachment(reply, file.fileName, file.contentType).send(body);
}

/**
 * Answers with a CSV download written batch by batch as `batches` yields rows, each shaped into a record by
 * `shape`: the header goes out at once, and memory holds one batch, however long the list.
 */
export function streamCsv<Row, Column extends string>(
  reply: FastifyReply,
  filename: string,
  columns: readonly Column[],
  batches: AsyncIterable<Row[]>,
  shape: (row: Row) => Partial<Record<Column, CsvCell>>,
) {
  async function* lines() {
    yield toCsv([], columns);
    for await (const rows of batches) yield toCsv(rows.map(shape), columns, { header: false });
  }
  return asAttachment(reply, filename).send(Readable.from(lines(), { objectMode: false }));
}

/** An ISO timestamp for a CSV cell; empty for none. */
export function csvDate(date: Date | null | undefined): string {
  return date ? date.toISOString() : "";
}
