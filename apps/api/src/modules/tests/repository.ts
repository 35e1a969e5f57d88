// Tests in the database: the admin's lists and edits. A test is the recipe of an attempt (which questions, how
// many, timing, marking, what students see afterwards); drives give it to a cohort.
import type { testTableQuerySchema } from "@trainwise/contract/admin-tables";
import { LIST_CAP } from "@trainwise/contract/common";
import type { TestSettings } from "@trainwise/contract/drives";
import { and, asc, count, desc, eq, ilike, isNull, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Executor } from "../../db/client.ts";
import { containsPattern, type ListQuery, listWindow, orderBy, TOTAL_OVER_ALL, toPage } from "../../db/paging.ts";
import { tests } from "../../db/schema.ts";
import { drawableSql, keySeenSql } from "../drives/key-release.ts";

export type TestRow = typeof tests.$inferSelect;
type TestValues = TestSettings;

/** Tests, the default first, then newest; each with how many current questions it can draw from. */
export async function listTests(db: Executor, query: ListQuery & { includeArchived?: boolean }) {
  const { limit, offset } = listWindow(query);
  const where = query.includeArchived ? undefined : isNull(tests.archivedAt);
  const [rows, [counted]] = await Promise.all([
    db
      .select({ test: tests, available: availableQuestions, sectionsAvailable })
      .from(tests)
      .where(where)
      .orderBy(desc(tests.isDefault), desc(tests.createdAt), desc(tests.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(tests).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

type TestTableQuery = z.output<typeof testTableQuerySchema>;

function testFilters(query: Pick<TestTableQuery, "search">): SQL {
  const conditions: SQL[] = [isNull(tests.archivedAt) as SQL];
  if (query.search) conditions.push(ilike(tests.name, containsPattern(query.search)) as SQL);
  return and(...conditions) as SQL;
}

const TEST_SORTS = { date: sql`${tests.createdAt}`, name: sql`${tests.name}` } as const;

/**
 * How many current questions a test can draw from now (a correlated count over the bank): a secure test only
 * those whose key no candidate has seen, a practice test those no secure drive still needs (decision 024).
 */
const availableQuestions = sql<number>`(select count(*)::int from questions q where q.archived_at is null
  and (cardinality("tests"."categories") = 0 or q.category = any("tests"."categories"))
  and ${sql.raw(drawableSql("q", '"tests"."secure"'))})`;

/** The same count for each of a sectioned test's sections, in order, from its own categories (none: empty). */
const sectionsAvailable = sql<number[]>`(select coalesce(array_agg((
    select count(*)::int from questions q where q.archived_at is null
      and (jsonb_array_length(s.value->'categories') = 0
        or q.category in (select jsonb_array_elements_text(s.value->'categories')))
      and ${sql.raw(drawableSql("q", '"tests"."secure"'))}) order by s.ordinality), '{}')
  from jsonb_array_elements("tests"."sections") with ordinality s)`;

/**
 * One page of the current tests in one query: the page's ids with `count(*) over ()` first, then the page's
 * rows with how many questions each can draw from, so that count runs for the page only.
 */
export async function testTable(db: Executor, query: TestTableQuery) {
  const order = orderBy(TEST_SORTS[query.sort], sql`${tests.id}`, query.order);
  const matched = db.$with("matched").as(
    db
      .select({ id: sql<string>`${tests.id}`.as("matched_id"), total: sql<string>`${TOTAL_OVER_ALL}`.as("total") })
      .from(tests)
      .where(testFilters(query))
      .orderBy(order)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
  );
  const rows = await db
    .with(matched)
    .select({ test: tests, available: availableQuestions, sectionsAvailable, total: matched.total })
    .from(matched)
    .innerJoin(tests, eq(tests.id, matched.id))
    .orderBy(order);
  return toPage(
    rows,
    query,
    ({ total: _total, ...row }) => row,
    async () => {
      const [counted] = await db.select({ total: sql<number>`count(*)::int` }).from(tests).where(testFilters(query));
      return counted?.total ?? 0;
    },
  );
}

/** The current tests for a picker, the default first, then by name: no counts, however many tests there are. */
export function testChoices(db: Executor) {
  return db
    .select({ id: tests.id, name: tests.name, questionCount: tests.questionCount, sections: tests.sections })
    .from(tests)
    .where(isNull(tests.archivedAt))
    .orderBy(desc(tests.isDefault), asc(tests.name), asc(tests.id))
    .limit(LIST_CAP);
}

/**
 * A test's sections as its outline gives them to candidates (the `sections` of testOutlineSchema): what each one
 * is called, how many questions it has and how it is marked, never what it draws from. `alias` names the tests row.
 */
export function outlineSectionsSql(alias: string): string {
  return `(select coalesce(jsonb_agg(jsonb_build_object('name', s.value->'name',
      'questionCount', s.value->'questionCount', 'negativeMark', s.value->'negativeMark', 'cutOff', s.value->'cutOff',
      'timing', s.value->'timing', 'secondsPerQuestion', s.value->'secondsPerQuestion')
      order by s.ordinality), '[]'::jsonb)
    from jsonb_array_elements(${alias}.sections) with ordinality s)`;
}

/** One test by its id, archived or not, with how many current questions it can draw from. */
export async function findTest(db: Executor, id: string) {
  const [row] = await db
    .select({ test: tests, available: availableQuestions, sectionsAvailable })
    .from(tests)
    .where(eq(tests.id, id));
  return row;
}

export async function insertTest(db: Executor, values: TestValues) {
  const [row] = await db.insert(tests).values(values).returning({ id: tests.id });
  if (!row) throw new Error("The test was not stored.");
  return row.id;
}

/** Edits apply to attempts started from now on: each attempt keeps the rules it started with. */
export async function updateTest(db: Executor, id: string, values: TestValues) {
  const [row] = await db
    .update(tests)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(tests.id, id))
    .returning({ id: tests.id });
  return row;
}

export async function archiveTest(db: Executor, id: string) {
  const [row] = await db
    .update(tests)
    .set({ archivedAt: new Date() })
    .where(and(eq(tests.id, id), eq(tests.isDefault, false)))
    .returning({ id: tests.id });
  return row;
}

/** The test's drives that still keep a key secret (decision 024): a secure drive not yet released, by name. */
export async function drivesKeepingKeys(db: Executor, testId: string): Promise<string[]> {
  const { rows } = await db.execute<{ name: string }>(sql`
    select distinct kd.name from question_keys k join drives kd on kd.id = k.drive_id
    where kd.test_id = ${testId} and not ${sql.raw(keySeenSql("k", "kd"))} order by kd.name`);
  return rows.map((row) => row.name);
}
