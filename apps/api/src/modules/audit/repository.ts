// The audit log: writing an entry, reading an entity as it stands (for the entry's before and after), and the
// owners' paged table.
import type { AuditAction, AuditEntry, auditTableQuerySchema } from "@trainwise/contract/admin-roles";
import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Executor } from "../../db/client.ts";
import { limitOffset, orderBy, TOTAL_OVER_ALL, toPage } from "../../db/paging.ts";
import { auditLog } from "../../db/schema.ts";

/**
 * How each audited entity is read, as JSON, by its id. Secrets are left out here and again by `withoutSecrets`:
 * a hash or token must never reach a log that owners read.
 */
const SNAPSHOTS: Record<string, (id: string) => SQL> = {
  question: (id) => sql`
    select to_jsonb(q) || jsonb_build_object('options', coalesce((
      select jsonb_agg(jsonb_build_object('text', o.text, 'isCorrect', o.is_correct, 'weight', o.weight)
        order by o.position)
      from question_options o where o.question_id = q.id), '[]'::jsonb)) as snapshot
    from questions q where q.id = ${id}::uuid`,
  test: (id) => sql`select to_jsonb(t) as snapshot from tests t where t.id = ${id}::uuid`,
  drive: (id) => sql`
    select to_jsonb(d) || jsonb_build_object('rosterEntries',
      (select count(*) from drive_roster r where r.drive_id = d.id),
      -- The time invigilators have added to its attempts: what "add time for everyone" changes.
      'addedSeconds', (select coalesce(sum(a.added_seconds), 0) from attempts a where a.drive_id = d.id)) as snapshot
    from drives d where d.id = ${id}::uuid`,
  // With the attempts' outcomes: removing a registration takes its attempts with it, and the log keeps them.
  student: (id) => sql`
    select to_jsonb(s) - 'resume_code_hash' - 'registration_key_hash' || jsonb_build_object('attempts', coalesce((
      select jsonb_agg(jsonb_build_object('id', a.id, 'startedAt', a.started_at, 'submittedAt', a.submitted_at,
        'score', a.score, 'marks', a.marks, 'totalQuestions', a.total_questions, 'passed', a.passed,
        'endedBy', a.ended_by, 'addedSeconds', a.added_seconds)
        order by a.started_at)
      from attempts a where a.student_id = s.id), '[]'::jsonb)) as snapshot
    from students s where s.id = ${id}::uuid`,
  feedback: (id) => sql`select to_jsonb(f) as snapshot from feedback f where f.id = ${id}::uuid`,
  admin: (id) => sql`select to_jsonb(a) - 'password_hash' as snapshot from admins a where a.id = ${id}::uuid`,
};

/**
 * Keys of secrets: a password itself (not when it changed), any hash, token, download ticket or key, an invitation's
 * path.
 */
const SECRET_KEY = /password$|password_?hash|hash|token|ticket|secret|resume_?code|registration_?key|invite_?path/i;

/** The value with every key that names a secret removed, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !SECRET_KEY.test(key))
      .map(([key, inner]) => [key, withoutSecrets(inner)]),
  );
}

export function hasSnapshot(entity: string): boolean {
  return entity in SNAPSHOTS;
}

/** The entity as stored now, or null when it does not exist (deleted, or never was). */
export async function snapshotOf(db: Executor, entity: string, id: string): Promise<unknown> {
  const read = SNAPSHOTS[entity];
  if (!read) return null;
  const { rows } = await db.execute<{ snapshot: unknown }>(read(id));
  return withoutSecrets(rows[0]?.snapshot ?? null);
}

export interface AuditRecord {
  /** The admin who acted, or whose account a sign-in named; null for a username no account has. */
  adminId: string | null;
  adminUsername: string;
  action: AuditAction;
  entity: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
  /** The client's address; null from the command line. */
  clientAddress: string | null;
}

export async function recordAudit(db: Executor, record: AuditRecord): Promise<void> {
  await db.insert(auditLog).values({
    ...record,
    before: withoutSecrets(record.before) ?? null,
    after: withoutSecrets(record.after) ?? null,
  });
}

type AuditTableQuery = z.output<typeof auditTableQuerySchema>;

function auditFilters(query: AuditTableQuery): SQL {
  const filters: SQL[] = [sql`true`];
  if (query.adminId) filters.push(sql`l.admin_id = ${query.adminId}::uuid`);
  if (query.action) filters.push(sql`l.action = ${query.action}`);
  return sql.join(filters, sql` and `);
}

/** One page of the log, newest first, with `count(*) over ()`. */
export async function auditTable(db: Executor, query: AuditTableQuery) {
  const { rows } = await db.execute<{
    id: string;
    at: Date;
    admin_id: string | null;
    admin_username: string;
    action: string;
    entity: string;
    entity_id: string | null;
    before: unknown;
    after: unknown;
    client_address: string | null;
    total: string;
  }>(sql`
    select l.id, l.at, l.admin_id, l.admin_username, l.action, l.entity, l.entity_id, l.before, l.after,
      l.client_address, ${TOTAL_OVER_ALL} as total
    from audit_log l
    where ${auditFilters(query)}
    order by ${orderBy(sql`l.at`, sql`l.id`, "desc")}
    ${limitOffset(query)}`);
  return toPage(
    rows,
    query,
    (row): AuditEntry => ({
      id: row.id,
      at: new Date(row.at).toISOString(),
      adminId: row.admin_id,
      adminUsername: row.admin_username,
      action: row.action,
      entity: row.entity,
      entityId: row.entity_id,
      before: row.before,
      after: row.after,
      clientAddress: row.client_address,
    }),
    async () => {
      const { rows: counted } = await db.execute<{ total: number }>(
        sql`select count(*)::int as total from audit_log l where ${auditFilters(query)}`,
      );
      return counted[0]?.total ?? 0;
    },
  );
}
