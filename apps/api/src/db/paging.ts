// Written once for every admin table: a search term made safe for LIKE, the LIMIT/OFFSET of a page, and the
// page answer built from rows that carry `count(*) over ()`, so a page and its total cost one query.
import { LIST_CAP } from "@trainwise/contract/common";
import { type SQL, sql } from "drizzle-orm";

/** `value` with LIKE's wildcards and its escape character taken literally (PostgreSQL's default escape is `\`). */
export function escapeLike(value: string): string {
  return value.replaceAll(/[\\%_]/g, (character) => `\\${character}`);
}

/** An ILIKE pattern matching text that contains `value` anywhere, wildcards in it taken literally. */
export function containsPattern(value: string): string {
  return `%${escapeLike(value)}%`;
}

/** `column` contains `value`, case-insensitively: one of the searches every table offers. */
export function ilikeContains(column: SQL | SQL.Aliased | unknown, value: string): SQL {
  return sql`${column} ilike ${containsPattern(value)}`;
}

/** The paging an older list may be asked for; without it, the list answers its first `LIST_CAP` rows. */
export interface ListQuery {
  page?: number | undefined;
  pageSize?: number | undefined;
}

/** How many rows an older list skips and answers: the page asked for, else its first `LIST_CAP` rows. */
export function listWindow(query: ListQuery): {
  limit: number;
  offset: number;
} {
  if (query.page === undefined && query.pageSize === undefined) return { limit: LIST_CAP, offset: 0 };
  const size = query.pageSize ?? 50;
  return { limit: size, offset: ((query.page ?? 1) - 1) * size };
}

export interface PageRequest {
  page: number;
  pageSize: number;
}

/** The LIMIT and OFFSET of a page. */
export function limitOffset({ page, pageSize }: PageRequest): SQL {
  return sql`limit ${pageSize} offset ${(page - 1) * pageSize}`;
}

/** The window column every paged query selects: how many rows matched before LIMIT. */
export const TOTAL_OVER_ALL = sql`count(*) over ()`;

export interface Page<Row> {
  rows: Row[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * The page answer from rows that each carry the total. A page past the end has no rows to carry it, so only then
 * `countAll` is asked (a second query, for a URL nobody reaches by the pager).
 */
export async function toPage<Row extends { total: number | string }, Out>(
  rows: Row[],
  request: PageRequest,
  shape: (row: Row) => Out,
  countAll: () => Promise<number>,
): Promise<Page<Out>> {
  const first = rows[0];
  const total = first ? Number(first.total) : request.page > 1 ? await countAll() : 0;
  return { rows: rows.map(shape), total, page: request.page, pageSize: request.pageSize };
}

/**
 * ORDER BY a table's sort column, then its id in the same direction, so that rows with equal sort keys keep one
 * order and no row appears on two pages. `nullsLast` only for a column that can be null: it stops an index on
 * the column from giving the order.
 */
export function orderBy(column: SQL, id: SQL, order: "asc" | "desc", options: { nullsLast?: boolean } = {}): SQL {
  const direction = order === "asc" ? sql`asc` : sql`desc`;
  return options.nullsLast
    ? sql`${column} ${direction} nulls last, ${id} ${direction}`
    : sql`${column} ${direction}, ${id} ${direction}`;
}

/**
 * Reads a long list in batches by keyset (the last row's sort key), each batch one short query: an export of
 * 50,000 rows holds one batch in memory at a time and starts sending after the first.
 */
export async function* keysetBatches<Row, Key>(
  readBatch: (after: Key | undefined, size: number) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
  size = 1000,
): AsyncGenerator<Row[]> {
  let after: Key | undefined;
  for (;;) {
    const rows = await readBatch(after, size);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (rows.length < size || last === undefined) return;
    after = keyOf(last);
  }
}
