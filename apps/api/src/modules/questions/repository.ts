// The question bank: questions with their ordered options.
import { randomUUID } from "node:crypto";
import type { questionTableQuerySchema } from "@trainwise/contract/admin-tables";
import { LIST_CAP } from "@trainwise/contract/common";
import {
  KEY_DRIVES_LISTED,
  type KeyExposure,
  type QuestionInput,
  type QuestionListQuery,
  withWeights,
} from "@trainwise/contract/questions";
import { and, asc, count, desc, eq, ilike, isNull, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { type Database, type Executor, type NamedStatement, runNamed, type Transaction } from "../../db/client.ts";
import {
  containsPattern,
  keysetBatches,
  limitOffset,
  listWindow,
  orderBy,
  TOTAL_OVER_ALL,
  toPage,
} from "../../db/paging.ts";
import { attemptQuestions, questionOptions, questions } from "../../db/schema.ts";
import { renderOptionText, renderQuestionText } from "../../rich-text/render.ts";
import { keySeenSql } from "../drives/key-release.ts";
import { findMediaBytes, type NewMedia, saveMedia } from "../media/repository.ts";

// keyDrawn is the quiz's lock for first draws (schema.ts), not part of a question as the bank shows it.
type QuestionRow = Omit<typeof questions.$inferSelect, "keyDrawn">;
type OptionRow = typeof questionOptions.$inferSelect;
export type QuestionWithOptions = QuestionRow & { options: OptionRow[] };
/**
 * A validated question; one without a type is a single-answer question, as every question once was, and an option
 * without a weight weighs what its correctness gives (decision 018).
 */
export type NewQuestion = Omit<QuestionInput, "type" | "scoring" | "options"> &
  Partial<Pick<QuestionInput, "type" | "scoring">> & {
    options: { text: string; isCorrect: boolean; weight?: number | undefined }[];
  };

/** The rows of a question's options, each with its weight. */
function optionRows(input: NewQuestion, questionId: string) {
  const weighed = withWeights({
    type: input.type ?? "single",
    scoring: input.scoring ?? "all_or_nothing",
    options: input.options,
  });
  return weighed.map((option, position) => ({
    text: option.text,
    isCorrect: option.isCorrect,
    weight: option.weight,
    questionId,
    position,
  }));
}

/** Stores questions with their options, all or nothing (one from the form, or a whole CSV import). */
export async function createQuestions(db: Database, inputs: NewQuestion[]): Promise<QuestionWithOptions[]> {
  return db.transaction(async (tx) => {
    const created: QuestionWithOptions[] = [];
    for (const input of inputs) created.push(await createQuestion(tx, input));
    return created;
  });
}

/**
 * An imported file, all or nothing: the images its questions show (stored once by their hash, as uploads are;
 * docs/decisions/021), then its questions.
 */
export async function importQuestions(
  db: Database,
  inputs: NewQuestion[],
  images: Omit<NewMedia, "uploadedBy">[],
  uploadedBy: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const image of images) await saveMedia(tx, { ...image, uploadedBy });
    if (inputs.length === 0) return;
    const ids = inputs.map(() => randomUUID());
    await runNamed(tx, importQuestionsStatement, [
      ids,
      inputs.map((input) => input.text),
      inputs.map((input) => input.category),
      inputs.map((input) => input.difficulty),
      inputs.map((input) => input.type ?? "single"),
      inputs.map((input) => input.scoring ?? "all_or_nothing"),
    ]);
    const options = inputs.flatMap((input, index) => optionRows(input, ids[index] as string));
    await runNamed(tx, importOptionsStatement, [
      options.map((option) => option.questionId),
      options.map((option) => option.text),
      options.map((option) => option.isCorrect),
      options.map((option) => option.weight),
      options.map((option) => option.position),
    ]);
  });
}

// A file's questions and their options in two statements, not two per question: building a thousand inserts with
// the query builder cost a 500-question import about 0.9 ms of CPU each (the cost suite's GIFT import went over
// its budget). The ids are made here so the options can name their questions.
const importQuestionsStatement: NamedStatement = {
  name: "questions.import-questions",
  text: `insert into questions (id, text, category, difficulty, type, scoring)
    select * from unnest($1::uuid[], $2::text[], $3::text[], $4::difficulty[], $5::question_type[], $6::scoring_rule[])`,
};
const importOptionsStatement: NamedStatement = {
  name: "questions.import-options",
  text: `insert into question_options (question_id, text, is_correct, weight, position)
    select * from unnest($1::uuid[], $2::text[], $3::boolean[], $4::float8[], $5::int[])`,
};

export async function createQuestion(db: Executor, input: NewQuestion): Promise<QuestionWithOptions> {
  const [question] = await db
    .insert(questions)
    .values({
      text: input.text,
      category: input.category,
      difficulty: input.difficulty,
      type: input.type ?? "single",
      scoring: input.scoring ?? "all_or_nothing",
    })
    .returning();
  if (!question) throw new Error("The question was not created.");
  const options = await db.insert(questionOptions).values(optionRows(input, question.id)).returning();
  return { ...question, options: options.sort((a, b) => a.position - b.position) };
}

/** The filters of the bank's list and its exports: category, difficulty, text. */
type BankFilters = Pick<QuestionListQuery, "category" | "difficulty" | "search">;

function bankFilters(query: BankFilters) {
  const conditions: SQL[] = [isNull(questions.archivedAt) as SQL];
  if (query.category) conditions.push(eq(questions.category, query.category));
  if (query.difficulty) conditions.push(eq(questions.difficulty, query.difficulty));
  if (query.search) conditions.push(ilike(questions.text, containsPattern(query.search)));
  return and(...conditions);
}

/** Active questions, newest first, filtered; paged when the query asks for a page. */
export async function listQuestions(
  db: Executor,
  query: QuestionListQuery = {},
): Promise<{ questions: QuestionWithOptions[]; total: number }> {
  const where = bankFilters(query);
  const [totalRow] = await db.select({ total: count() }).from(questions).where(where);
  const { limit, offset } = listWindow(query);
  const rows = await db
    .select()
    .from(questions)
    .where(where)
    .orderBy(desc(questions.createdAt), desc(questions.id))
    .limit(limit)
    .offset(offset);
  return { questions: await withOptions(db, rows), total: totalRow?.total ?? 0 };
}

/**
 * The active questions a filter picks, grouped by category (then by id), in keyset batches with their options:
 * the CSV export streams these, holding one batch in memory however large the bank.
 */
export function questionBatches(db: Executor, filters: BankFilters, size?: number) {
  return keysetBatches<QuestionWithOptions, { category: string; id: string }>(
    async (after, batchSize) => {
      const rows = await db
        .select()
        .from(questions)
        .where(
          and(
            bankFilters(filters),
            after ? sql`(${questions.category}, ${questions.id}) > (${after.category}, ${after.id}::uuid)` : undefined,
          ),
        )
        .orderBy(asc(questions.category), asc(questions.id))
        .limit(batchSize);
      return withOptions(db, rows);
    },
    (question) => ({ category: question.category, id: question.id }),
    size,
  );
}

type QuestionTableQuery = z.output<typeof questionTableQuerySchema>;

function questionFilters(query: QuestionTableQuery): SQL {
  const conditions: SQL[] = [sql`q.archived_at is null`];
  if (query.search) conditions.push(sql`q.text ilike ${containsPattern(query.search)}`);
  if (query.category) conditions.push(sql`q.category = ${query.category}`);
  if (query.difficulty) conditions.push(sql`q.difficulty = ${query.difficulty}`);
  return sql.join(conditions, sql` and `);
}

const QUESTION_SORTS = { date: sql`q.created_at`, name: sql`q.text` } as const;

/** One page of the question bank table with `count(*) over ()`, then the page's options. */
export async function questionTable(db: Executor, query: QuestionTableQuery) {
  const order = orderBy(QUESTION_SORTS[query.sort], sql`q.id`, query.order);
  const { rows } = await db.execute<{
    id: string;
    text: string;
    category: string;
    difficulty: QuestionRow["difficulty"];
    type: QuestionRow["type"];
    scoring: QuestionRow["scoring"];
    archived_at: Date | null;
    created_at: Date;
    updated_at: Date;
    total: string;
  }>(sql`
    select q.id, q.text, q.category, q.difficulty, q.type, q.scoring, q.archived_at, q.created_at, q.updated_at, ${TOTAL_OVER_ALL} as total
    from questions q
    where ${questionFilters(query)}
    order by ${order}
    ${limitOffset(query)}`);
  const withTheirOptions = await withOptions(
    db,
    rows.map((row) => ({
      id: row.id,
      text: row.text,
      category: row.category,
      difficulty: row.difficulty,
      type: row.type,
      scoring: row.scoring,
      archivedAt: row.archived_at,
      createdAt: new Date(row.created_at),
      updatedAt: new Date(row.updated_at),
    })),
  );
  const keys = await keyExposures(
    db,
    rows.map((row) => row.id),
  );
  const totals = rows.map((row, index) => ({ total: row.total, question: withTheirOptions[index] }));
  return toPage(
    totals,
    query,
    (row) => {
      const question = row.question as QuestionWithOptions;
      return { ...toQuestionResponse(question), key: keys.get(question.id) ?? NO_EXPOSURE };
    },
    async () => {
      const { rows: counted } = await db.execute<{ total: number }>(
        sql`select count(*)::int as total from questions q where ${questionFilters(query)}`,
      );
      return counted[0]?.total ?? 0;
    },
  );
}

export async function findQuestion(db: Executor, id: string): Promise<QuestionWithOptions | undefined> {
  const rows = await db
    .select()
    .from(questions)
    .where(and(eq(questions.id, id), isNull(questions.archivedAt)));
  return (await withOptions(db, rows))[0];
}

/** Distinct categories of the active bank, for the filter. */
export async function listCategories(db: Executor): Promise<string[]> {
  const rows = await db
    .selectDistinct({ category: questions.category })
    .from(questions)
    .where(isNull(questions.archivedAt))
    .orderBy(asc(questions.category))
    .limit(LIST_CAP);
  return rows.map((row) => row.category);
}

async function withOptions(db: Executor, rows: QuestionRow[]): Promise<QuestionWithOptions[]> {
  if (rows.length === 0) return [];
  // The ids as one array parameter, not one parameter each (the query builder spent about 10 ms on a thousand),
  // and the options grouped once, not filtered once per question (a thousand questions by four thousand options).
  const options = await db
    .select()
    .from(questionOptions)
    .where(sql`${questionOptions.questionId} = any(${sql.param(rows.map((row) => row.id))}::uuid[])`)
    .orderBy(asc(questionOptions.position));
  const byQuestion = Map.groupBy(options, (option) => option.questionId);
  return rows.map((row) => ({ ...row, options: byQuestion.get(row.id) ?? [] }));
}

/**
 * Locks an active question for a change. One that attempts refer to is archived on the spot (the caller then
 * adds its replacement, if any), so results keep what was asked.
 */
async function lockForChange(tx: Transaction, id: string): Promise<"not-found" | "archived" | "unused"> {
  const [question] = await tx
    .select({ id: questions.id })
    .from(questions)
    .where(and(eq(questions.id, id), isNull(questions.archivedAt)))
    .for("update");
  if (!question) return "not-found";
  const [asked] = await tx
    .select({ questionId: attemptQuestions.questionId })
    .from(attemptQuestions)
    .where(eq(attemptQuestions.questionId, id))
    .limit(1);
  if (!asked) return "unused";
  await tx.update(questions).set({ archivedAt: new Date() }).where(eq(questions.id, id));
  return "archived";
}

/**
 * Changes a question. One nobody was asked is changed in place; one that attempts refer to is archived and
 * replaced by a new question, so past results keep what was asked.
 */
export async function updateQuestion(db: Database, id: string, input: NewQuestion) {
  return db.transaction(async (tx) => {
    const state = await lockForChange(tx, id);
    if (state === "not-found") return undefined;
    if (state === "archived") return createQuestion(tx, input);
    await tx
      .update(questions)
      .set({
        text: input.text,
        category: input.category,
        difficulty: input.difficulty,
        type: input.type ?? "single",
        scoring: input.scoring ?? "all_or_nothing",
        updatedAt: new Date(),
      })
      .where(eq(questions.id, id));
    await tx.delete(questionOptions).where(eq(questionOptions.questionId, id));
    await tx.insert(questionOptions).values(optionRows(input, id));
    return findQuestion(tx, id);
  });
}

/** Deletes a question nobody was asked; archives one that attempts refer to, so results keep what was asked. */
export async function archiveOrDeleteQuestion(db: Database, id: string): Promise<"deleted" | "archived" | "not-found"> {
  return db.transaction(async (tx) => {
    const state = await lockForChange(tx, id);
    if (state !== "unused") return state;
    await tx.delete(questions).where(eq(questions.id, id));
    return "deleted";
  });
}

const NO_EXPOSURE: KeyExposure = { seenBy: 0, seenInCount: 0, seenIn: [], keptSecretByCount: 0, keptSecretBy: [] };

/**
 * Where the keys of these questions (a page of the bank) stand, per drive that drew them (question_keys), newest
 * drive first, with the candidates of each drive where the key is out: read for the page's rows only.
 */
async function keyExposures(db: Executor, questionIds: string[]): Promise<Map<string, KeyExposure>> {
  if (questionIds.length === 0) return new Map();
  const { rows } = await db.execute<{ question_id: string; drive: string; seen: boolean; candidates: number }>(sql`
    select k.question_id, kd.name as drive, ${sql.raw(keySeenSql("k", "kd"))} as seen,
      (select count(*)::int from attempt_questions aq join attempts a on a.id = aq.attempt_id
        where aq.question_id = k.question_id and a.drive_id = k.drive_id and a.submitted_at is not null) as candidates
    from question_keys k join drives kd on kd.id = k.drive_id
    where k.question_id = any(${`{${questionIds.join(",")}}`}::uuid[])
    order by kd.created_at desc, kd.id`);
  const exposures = new Map<string, KeyExposure>();
  for (const row of rows) {
    const key = exposures.get(row.question_id) ?? structuredClone(NO_EXPOSURE);
    if (row.seen) {
      key.seenBy += row.candidates;
      key.seenInCount++;
      if (key.seenIn.length < KEY_DRIVES_LISTED) key.seenIn.push(row.drive);
    } else {
      key.keptSecretByCount++;
      if (key.keptSecretBy.length < KEY_DRIVES_LISTED) key.keptSecretBy.push(row.drive);
    }
    exposures.set(row.question_id, key);
  }
  return exposures;
}

export function toQuestionResponse(question: QuestionWithOptions) {
  return {
    _id: question.id,
    text: question.text,
    html: renderQuestionText(question.text),
    category: question.category,
    difficulty: question.difficulty,
    type: question.type,
    scoring: question.scoring,
    createdAt: question.createdAt.toISOString(),
    options: question.options.map((option) => ({
      _id: option.id,
      text: option.text,
      html: renderOptionText(option.text),
      isCorrect: option.isCorrect,
      weight: option.weight,
    })),
  };
}

/** Whether the bank holds any question at all, archived ones included. */
export async function hasQuestions(db: Executor): Promise<boolean> {
  const rows = await db.select({ id: questions.id }).from(questions).limit(1);
  return rows.length > 0;
}

/** Our media images a text shows: their names (`<sha256>.<ext>`) in its Markdown. */
const SHOWN_IMAGE = /\/api\/media\/([0-9a-f]{64})\.(png|jpg|webp|gif)/g;

/**
 * The bytes of every stored image the questions show, by media name (`<sha256>.<ext>`): an export to a format that
 * carries files (Moodle XML) writes them in, since the site it goes to cannot reach our media.
 */
export async function imagesShownBy(db: Executor, shown: QuestionWithOptions[]): Promise<Map<string, Buffer>> {
  const names = new Map<string, string>();
  for (const question of shown) {
    for (const text of [question.text, ...question.options.map((option) => option.text)]) {
      for (const [, sha256 = "", extension = ""] of text.matchAll(SHOWN_IMAGE))
        names.set(`${sha256}.${extension}`, sha256);
    }
  }
  const bytes = await findMediaBytes(db, [...new Set(names.values())]);
  const images = new Map<string, Buffer>();
  for (const [name, sha256] of names) {
    const found = bytes.get(sha256);
    if (found) images.set(name, found);
  }
  return images;
}
