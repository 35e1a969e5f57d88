// What the database did for the students of a bench run, from pg_stat_statements (decision 030): statements and
// transactions per student, the costliest statements by execution time, and WAL bytes per student. The embedded
// server preloads the module; the bench creates the extension as the superuser and resets it before the drive.
// Against an external server without the module, the figures are skipped with a note.
import pg from "pg";

interface TableWrites {
  table: string;
  inserts: string;
  updates: string;
  hot: string;
}

interface StatementRow {
  query: string;
  calls: string;
  total_ms: number;
  rows: string;
  wal_bytes: string;
}

export interface StatementCounter {
  /** Prints the figures since the counter was made, per student. */
  report(students: number): Promise<void>;
  /** Prints rows inserted and updated per table since the counter was made, per student, and the HOT share. */
  reportTableWrites(students: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Times the server has flushed WAL to disk (a commit waits for one; several commits can share it): pg_stat_io from
 * PostgreSQL 18, pg_stat_wal before it; undefined where neither counts them.
 */
async function walSyncs(client: pg.Client): Promise<number | undefined> {
  for (const query of [
    "select sum(fsyncs)::bigint as syncs from pg_stat_io where object = 'wal'",
    "select wal_sync as syncs from pg_stat_wal",
  ]) {
    try {
      const { rows } = await client.query<{ syncs: string | null }>(query);
      if (rows[0]?.syncs != null) return Number(rows[0].syncs);
    } catch {
      // Not this version's view or column: try the next.
    }
  }
  return undefined;
}

/** Counts from now on, or undefined (with the reason printed) when pg_stat_statements cannot be read. */
export async function countStatements(superuserUrl: string): Promise<StatementCounter | undefined> {
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  try {
    await client.query("create extension if not exists pg_stat_statements");
    await client.query("select pg_stat_statements_reset()");
  } catch (error) {
    console.log(`  statements          not counted: ${(error as Error).message}`);
    await client.end();
    return undefined;
  }
  const commits = async () =>
    Number(
      (
        await client.query<{ commits: string }>(
          "select xact_commit as commits from pg_stat_database where datname = current_database()",
        )
      ).rows[0]?.commits ?? 0,
    );
  // Rows written per table, and how many updates were HOT (the new version on the same page, no index entries):
  // an update that is not HOT adds an entry to every index of its table.
  const tableWrites = async () =>
    new Map(
      (
        await client.query<TableWrites>(
          `select relname as table, n_tup_ins as inserts, n_tup_upd as updates, n_tup_hot_upd as hot
           from pg_stat_user_tables`,
        )
      ).rows.map((row) => [row.table, row]),
    );
  // pg_stat_database is read from a snapshot taken once per transaction; a fresh read needs it cleared.
  await client.query("select pg_stat_clear_snapshot()");
  const commitsBefore = await commits();
  const walSyncsBefore = await walSyncs(client);
  const writesBefore = await tableWrites();
  return {
    async report(students) {
      await client.query("select pg_stat_clear_snapshot()");
      // The counter's own connection commits a few: not the students'.
      const transactions = (await commits()) - commitsBefore;
      const walSyncsAfter = await walSyncs(client);
      const { rows } = await client.query<StatementRow>(
        `select regexp_replace(query, '\\s+', ' ', 'g') as query, calls, total_exec_time as total_ms, rows, wal_bytes
         from pg_stat_statements s join pg_database d on d.oid = s.dbid
         where d.datname = current_database() and query not like '%pg_stat%'
         order by total_exec_time desc`,
      );
      const sum = (pick: (row: StatementRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
      const calls = sum((row) => Number(row.calls));
      const executionMs = sum((row) => row.total_ms);
      const walBytes = sum((row) => Number(row.wal_bytes));
      const per = (value: number, digits = 1) => (value / students).toFixed(digits);
      console.log(
        `  statements          ${per(calls)} per student (${calls} in all, ${rows.length} distinct), ${per(transactions)} commits, ${walSyncsAfter === undefined || walSyncsBefore === undefined ? "?" : per(walSyncsAfter - walSyncsBefore)} WAL flushes, ${per(executionMs, 2)} ms executing, ${(walBytes / students / 1024).toFixed(1)} KiB WAL`,
      );
      console.log("  costliest statements (per student: calls, ms executing, rows, WAL bytes):");
      for (const row of rows.slice(0, Number(process.env.STATEMENTS_SHOWN ?? 12))) {
        console.log(
          `    ${per(Number(row.calls), 2).padStart(6)} × ${per(row.total_ms, 3).padStart(7)} ms ${per(Number(row.rows), 1).padStart(6)} rows ${per(Number(row.wal_bytes), 0).padStart(6)} B  ${row.query.slice(0, Number(process.env.STATEMENT_CHARS ?? 110))}`,
        );
      }
    },
    async reportTableWrites(students) {
      // Backends report table counters at most once a second.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await client.query("select pg_stat_clear_snapshot()");
      const per = (value: number) => (value / students).toFixed(1);
      const written = [...(await tableWrites()).values()]
        .map((row) => {
          const before = writesBefore.get(row.table);
          const since = (pick: (writes: TableWrites) => string) =>
            Number(pick(row)) - Number(before ? pick(before) : 0);
          return {
            table: row.table,
            inserts: since((w) => w.inserts),
            updates: since((w) => w.updates),
            hot: since((w) => w.hot),
          };
        })
        .filter((row) => row.inserts + row.updates > 0)
        .sort((a, b) => b.inserts + b.updates - (a.inserts + a.updates));
      console.log("  rows written per student (inserts, updates, of which HOT):");
      for (const row of written) {
        const hotShare = row.updates ? `${Math.round((100 * row.hot) / row.updates)} %` : "-";
        console.log(
          `    ${row.table.padEnd(20)} ${per(row.inserts).padStart(6)} ${per(row.updates).padStart(6)} ${hotShare.padStart(6)}`,
        );
      }
    },
    close: () => client.end(),
  };
}
