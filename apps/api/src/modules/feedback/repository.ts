// Student feedback: the home page's carousel reads the visible entries; admins add, hide, delete and page them.
import type { feedbackTableQuerySchema } from "@trainwise/contract/admin-tables";
import type { FeedbackInput } from "@trainwise/contract/feedback";
import { count, desc, eq, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Executor } from "../../db/client.ts";
import {
  containsPattern,
  keysetBatches,
  type ListQuery,
  limitOffset,
  listWindow,
  orderBy,
  TOTAL_OVER_ALL,
  toPage,
} from "../../db/paging.ts";
import { feedback } from "../../db/schema.ts";

export type FeedbackRow = typeof feedback.$inferSelect;

export async function createFeedback(db: Executor, input: FeedbackInput, createdByAdminId: string | null) {
  const [row] = await db
    .insert(feedback)
    .values({ ...input, createdByAdminId })
    .returning();
  if (!row) throw new Error("The feedback was not stored.");
  return row;
}

/** The newest visible feedback, at most `limit`: what the carousel shows. */
export function visibleFeedback(db: Executor, limit: number) {
  return db.select().from(feedback).where(eq(feedback.hidden, false)).orderBy(desc(feedback.createdAt)).limit(limit);
}

/** Every entry, hidden ones too, newest first. */
/** Every entry, hidden ones too, newest first: a window of them (`listWindow`) and how many there are in all. */
export async function allFeedback(db: Executor, query: ListQuery) {
  const { limit, offset } = listWindow(query);
  const [rows, [counted]] = await Promise.all([
    db.select().from(feedback).orderBy(desc(feedback.createdAt), desc(feedback.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(feedback),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

export async function setFeedbackHidden(db: Executor, id: string, hidden: boolean) {
  const [row] = await db.update(feedback).set({ hidden }).where(eq(feedback.id, id)).returning();
  return row;
}

export async function deleteFeedback(db: Executor, id: string) {
  const [row] = await db.delete(feedback).where(eq(feedback.id, id)).returning({ id: feedback.id });
  return row;
}

type FeedbackTableQuery = z.output<typeof feedbackTableQuerySchema>;
/** The filters of the feedback table (and its export), without paging or sorting. */
export type FeedbackFilters = Pick<FeedbackTableQuery, "search" | "batch" | "visibility">;

function feedbackFilters(query: FeedbackFilters): SQL {
  const conditions: SQL[] = [sql`true`];
  if (query.search) {
    const pattern = containsPattern(query.search);
    conditions.push(sql`(f.name ilike ${pattern} or f.usn_number ilike ${pattern} or f.email_id ilike ${pattern})`);
  }
  if (query.batch) conditions.push(sql`f.batch ilike ${containsPattern(query.batch)}`);
  if (query.visibility) conditions.push(sql`f.hidden = ${query.visibility === "hidden"}`);
  return sql.join(conditions, sql` and `);
}

const FEEDBACK_SORTS = { date: sql`f.created_at`, name: sql`f.name` } as const;

/** One page of the feedback table with `count(*) over ()`. */
export async function feedbackTable(db: Executor, query: FeedbackTableQuery) {
  const order = orderBy(FEEDBACK_SORTS[query.sort], sql`f.id`, query.order);
  const { rows } = await db.execute<{
    id: string;
    name: string;
    usn_number: string;
    email_id: string;
    section: string;
    batch: string;
    feedback: string;
    hidden: boolean;
    created_at: Date;
    total: string;
  }>(sql`
    select f.id, f.name, f.usn_number, f.email_id, f.section, f.batch, f.feedback, f.hidden, f.created_at,
           ${TOTAL_OVER_ALL} as total
    from feedback f
    where ${feedbackFilters(query)}
    order by ${order}
    ${limitOffset(query)}`);
  return toPage(
    rows,
    query,
    (row) => ({
      _id: row.id,
      name: row.name,
      usnNumber: row.usn_number,
      emailId: row.email_id,
      section: row.section,
      batch: row.batch,
      feedback: row.feedback,
      hidden: row.hidden,
      timestamp: new Date(row.created_at).toISOString(),
    }),
    async () => {
      const { rows: counted } = await db.execute<{ total: number }>(
        sql`select count(*)::int as total from feedback f where ${feedbackFilters(query)}`,
      );
      return counted[0]?.total ?? 0;
    },
  );
}

export type FeedbackExportRow = {
  id: string;
  name: string;
  usn_number: string;
  email_id: string;
  section: string;
  batch: string;
  feedback: string;
  hidden: boolean;
  created_at: string;
};

/** Every entry matching the filters, newest first, in keyset batches: the export streams these. */
export function feedbackBatches(db: Executor, filters: FeedbackFilters) {
  return keysetBatches<FeedbackExportRow, { createdAt: string; id: string }>(
    async (after, size) => {
      const { rows } = await db.execute<FeedbackExportRow>(sql`
        select f.id, f.name, f.usn_number, f.email_id, f.section, f.batch, f.feedback, f.hidden,
               f.created_at::text as created_at
        from feedback f
        where ${feedbackFilters(filters)}
          ${after ? sql`and (f.created_at, f.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql``}
        order by f.created_at desc, f.id desc
        limit ${size}`);
      return rows;
    },
    (row) => ({ createdAt: row.created_at, id: row.id }),
  );
}

/** Whether any feedback has been stored, hidden entries included. */
export async function hasFeedback(db: Executor): Promise<boolean> {
  const rows = await db.select({ id: feedback.id }).from(feedback).limit(1);
  return rows.length > 0;
}
