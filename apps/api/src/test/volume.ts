// A database at volume, for the benchmarks (bench/admin.ts, at campus-drive scale) and for the security suite's cost
// measurements (every list long enough to reach its cap): students with submitted attempts, feedback, enquiries,
// tests and drives.
import pg from "pg";

export interface Volume {
  students: number;
  /** Feedback entries and enquiries each. */
  extra: number;
  /** Extra tests, and as many extra drives spread over them. */
  tests: number;
}

/**
 * Seeds `students` students across six drives, each with a submitted attempt of 25 answered questions, `extra`
 * feedback entries and enquiries, and `tests` tests with as many drives, straight into PostgreSQL with set-based SQL.
 * Answers the ids of one of the six drives and its test.
 */
export async function seedVolume(databaseUrl: string, { students, extra, tests }: Volume) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("begin");
    await client.query(
      `insert into tests (name, question_count, seconds_per_question, pass_mark)
       values ('Bench aptitude', 25, 30, 40)`,
    );
    // Six drives: the default one and five colleges' drives on a test with a pass mark.
    await client.query(
      `insert into drives (test_id, name, organisation, batch, code)
       select (select id from tests where name = 'Bench aptitude'), 'Campus drive ' || n, 'College ' || n, '202' || n,
              'BENCH' || n
       from generate_series(1, 5) n`,
    );
    // 100 questions with four options each, the first right.
    await client.query(
      `insert into questions (text, category, difficulty)
       select 'Bench question ' || n || '?', (array['Aptitude','Programming','Verbal'])[1 + n % 3],
              (array['easy','medium','hard'])[1 + n % 3]::difficulty
       from generate_series(1, 100) n`,
    );
    await client.query(
      `insert into question_options (question_id, text, is_correct, weight, position)
       select q.id, 'Option ' || p, p = 0, case when p = 0 then 100 else 0 end, p from questions q cross join generate_series(0, 3) p
       where q.text like 'Bench question %'`,
    );
    const { rows: drives } = await client.query<{ id: string }>(
      "select id from drives where is_default or code like 'BENCH_' order by is_default desc, name",
    );
    const driveIds = drives.map((drive) => drive.id);
    await client.query(
      `insert into students (name, email, phone, usn_no, college, course, "group", year, drive_id, created_at)
       select 'Student ' || n || ' ' || (array['Sharma','Rao','Iyer','Khan','Das','Nair'])[1 + n % 6],
              'student' || n || '@bench.example', '9876543210', '1TW24CS' || lpad(n::text, 6, '0'),
              'College ' || (1 + n % 5), 'B.E.', 'CSE', '2025', ($1::uuid[])[1 + n % 6],
              now() - make_interval(secs => ${students} - n)
       from generate_series(1, ${students}) n`,
      [driveIds],
    );
    await client.query(
      `insert into attempts (student_id, drive_id, deadline_at, seconds_per_question, total_questions, timing_mode,
         paced, review_policy, pass_mark, started_at, submitted_at, score, marks, passed)
       select s.id, s.drive_id, s.created_at + interval '20 minutes', 30, 25, 'per_question', true, 'score_and_ticks',
              40, s.created_at, s.created_at + interval '15 minutes', sc, sc, sc >= 10
       from (select id, drive_id, created_at, (abs(hashtext(id::text)) % 26) as sc from students) s`,
    );
    // 25 answered questions per attempt (1.25 million rows at 50,000 students): the result detail and the
    // dashboard's per-question analysis read these.
    await client.query(
      `with bank as (
         select q.id, row_number() over (order by q.text) - 1 as k,
                array_agg(o.id order by o.position) as options
         from questions q join question_options o on o.question_id = q.id
         where q.text like 'Bench question %' group by q.id)
       insert into attempt_questions (attempt_id, position, question_id, option_order, selected_option_id,
         answered_at, is_correct)
       select a.id, p, bank.id, bank.options, bank.options[case when p < a.score then 1 else 2 end],
              a.submitted_at, p < a.score
       from attempts a cross join generate_series(0, 24) p
       join bank on bank.k = (abs(hashtext(a.id::text)) + p) % 100`,
    );
    await client.query(
      `insert into feedback (name, usn_number, email_id, section, batch, feedback, created_at)
       select 'Student ' || n, '1TW24CS' || lpad(n::text, 6, '0'), 'student' || n || '@bench.example', 'A',
              '202' || (1 + n % 5), 'The mock drive was useful ' || n, now() - make_interval(secs => n)
       from generate_series(1, ${extra}) n`,
    );
    await client.query(
      `insert into contact_enquiries (name, email, subject, phone, message, created_at)
       select 'Visitor ' || n, 'visitor' || n || '@bench.example', 'Training enquiry ' || n, '9876543210',
              'Please call back.', now() - make_interval(secs => n)
       from generate_series(1, ${extra}) n`,
    );
    // The tests and drives lists at volume: a few hundred of each, drives open, scheduled and closed.
    await client.query(
      `insert into tests (name, question_count, seconds_per_question, categories, created_at)
       select 'Bench test ' || n, 10 + n % 20, 30, case when n % 2 = 0 then array['Aptitude'] else '{}'::text[] end,
              now() - make_interval(mins => n)
       from generate_series(1, ${tests}) n`,
    );
    await client.query(
      `insert into drives (test_id, name, organisation, batch, code, opens_at, closes_at, closed_at, created_at)
       select t.id, 'Bench drive ' || n, 'College ' || (1 + n % 40), '2026', 'BD' || lpad(n::text, 6, '0'),
              case when n % 3 = 1 then now() + make_interval(days => n % 9 + 1) end,
              case when n % 3 = 2 then now() - make_interval(hours => n % 9 + 1) end,
              case when n % 7 = 0 then now() end,
              now() - make_interval(mins => n)
       from generate_series(1, ${tests}) n
       join lateral (select id from tests where name = 'Bench test ' || (1 + n % ${tests})) t on true`,
    );
    await client.query("commit");
    // What autovacuum does after a bulk load: statistics, and the trigram indexes' pending entries merged in.
    await client.query("vacuum analyze");
    const { rows: ids } = await client.query<{ drive: string; test: string }>(
      `select d.id as drive, t.id as test from drives d join tests t on t.id = d.test_id where d.code = 'BENCH3'`,
    );
    return ids[0] as { drive: string; test: string };
  } finally {
    await client.end();
  }
}
