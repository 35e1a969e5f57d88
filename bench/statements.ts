// What the database did for the students of a bench run, from pg_stat_statements (decision 030): statements and
// transactions per student, the costliest statements by execution time, and WAL bytes per student. The embedded
// server preloads the module; the bench creates the extension as the superuser and resets it before the drive.
// Against an external server without the module, the figures are skipped with a note.
import pg from "pg";

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
  close(): Promise<void>;
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
  // pg_stat_database is read from a snapshot taken once per transaction; a fresh read needs it cleared.
  await client.query("select pg_stat_clear_snapshot()");
  const commitsBefore = await commits();
  return {
    async report(students) {
      await client.query("select pg_stat_clear_snapshot()");
      // The counter's own connection commits a few: not the students'.
      const transactions = (await commits()) - commitsBefore;
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
        `  statements          ${per(calls)} per student (${calls} in all, ${rows.length} distinct), ${per(transactions)} commits, ${per(executionMs, 2)} ms executing, ${(walBytes / students / 1024).toFixed(1)} KiB WAL`,
      );
      console.log("  costliest statements (per student: calls, ms executing, rows, WAL bytes):");
      for (const row of rows.slice(0, Number(process.env.STATEMENTS_SHOWN ?? 12))) {
        console.log(
          `    ${per(Number(row.calls), 2).padStart(6)} × ${per(row.total_ms, 3).padStart(7)} ms ${per(Number(row.rows), 1).padStart(6)} rows ${per(Number(row.wal_bytes), 0).padStart(6)} B  ${row.query.slice(0, 110)}`,
        );
      }
    },
    close: () => client.end(),
  };
}
