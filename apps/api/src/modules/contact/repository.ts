// Contact enquiries: stored from the public form, read by admins a page at a time.
import type { enquiryTableQuerySchema } from "@trainwise/contract/admin-tables";
import type { ContactInput, TrainingProgramme } from "@trainwise/contract/contact";
import { count, desc, type SQL, sql } from "drizzle-orm";
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
import { contactEnquiries } from "../../db/schema.ts";

export async function storeEnquiry(db: Executor, input: ContactInput) {
  await db.insert(contactEnquiries).values({ ...input, programme: input.programme ?? null });
}

/** Enquiries, newest first: a window of them (`listWindow`) and how many there are in all. */
export async function latestEnquiries(db: Executor, query: ListQuery) {
  const { limit, offset } = listWindow(query);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(contactEnquiries)
      .orderBy(desc(contactEnquiries.createdAt), desc(contactEnquiries.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(contactEnquiries),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

type EnquiryTableQuery = z.output<typeof enquiryTableQuerySchema>;
/** The filters of the enquiries table (and its export), without paging or sorting. */
export type EnquiryFilters = Pick<EnquiryTableQuery, "search">;

function enquiryFilters(query: EnquiryFilters): SQL {
  if (!query.search) return sql`true`;
  const pattern = containsPattern(query.search);
  return sql`(e.name ilike ${pattern} or e.email ilike ${pattern} or e.subject ilike ${pattern} or e.programme ilike ${pattern})`;
}

const ENQUIRY_SORTS = { date: sql`e.created_at`, name: sql`e.name` } as const;

/** One page of the enquiries table with `count(*) over ()`. */
export async function enquiryTable(db: Executor, query: EnquiryTableQuery) {
  const order = orderBy(ENQUIRY_SORTS[query.sort], sql`e.id`, query.order);
  const { rows } = await db.execute<{
    id: string;
    name: string;
    email: string;
    subject: string;
    phone: string;
    message: string;
    programme: string | null;
    created_at: Date;
    total: string;
  }>(sql`
    select e.id, e.name, e.email, e.subject, e.phone, e.message, e.programme, e.created_at, ${TOTAL_OVER_ALL} as total
    from contact_enquiries e
    where ${enquiryFilters(query)}
    order by ${order}
    ${limitOffset(query)}`);
  return toPage(
    rows,
    query,
    (row) => ({
      _id: row.id,
      name: row.name,
      email: row.email,
      subject: row.subject,
      phone: row.phone,
      message: row.message,
      programme: row.programme as TrainingProgramme | null,
      createdAt: new Date(row.created_at).toISOString(),
    }),
    async () => {
      const { rows: counted } = await db.execute<{ total: number }>(
        sql`select count(*)::int as total from contact_enquiries e where ${enquiryFilters(query)}`,
      );
      return counted[0]?.total ?? 0;
    },
  );
}

export type EnquiryExportRow = {
  id: string;
  name: string;
  email: string;
  subject: string;
  phone: string;
  message: string;
  programme: string | null;
  created_at: string;
};

/** Every enquiry matching the filters, newest first, in keyset batches: the export streams these. */
export function enquiryBatches(db: Executor, filters: EnquiryFilters) {
  return keysetBatches<EnquiryExportRow, { createdAt: string; id: string }>(
    async (after, size) => {
      const { rows } = await db.execute<EnquiryExportRow>(sql`
        select e.id, e.name, e.email, e.subject, e.phone, e.message, e.programme, e.created_at::text as created_at
        from contact_enquiries e
        where ${enquiryFilters(filters)}
          ${after ? sql`and (e.created_at, e.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql``}
        order by e.created_at desc, e.id desc
        limit ${size}`);
      return rows;
    },
    (row) => ({ createdAt: row.created_at, id: row.id }),
  );
}
