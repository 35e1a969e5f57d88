// `npm run bench:live`: what one read of a live board costs at campus scale. Makes a fresh database on the
// PostgreSQL server in DATABASE_URL (default: the machine's, postgres@127.0.0.1:5432), applies the migrations,
// seeds one running drive of STUDENTS (5,000) students — a tenth not started, 40% in progress at every question
// with their answers and focus losses, half submitted — on a roster that lists each of them (by email and USN) and
// NO_SHOWS (500) more who never registered, beside OTHER (45,000) students of earlier drives with
// 25 answered questions each, then times ROUNDS (50) runs of each part of the board's reading (live-board.ts)
// and prints PostgreSQL's plans. KEEP=1 keeps the database for a closer look. A benchmark: it prints figures and asserts nothing.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { connectDatabase } from "../apps/api/src/db/client.ts";
import { applyMigrations } from "../apps/api/src/db/migrate.ts";
import { LiveBoards } from "../apps/api/src/modules/drives/live-board.ts";
import { answerTallies, liveAttempts, rosterNoShows } from "../apps/api/src/modules/drives/repository.ts";
import { databaseUrlFor } from "../apps/api/src/test/database-url.ts";
import { percentile } from "./student-connection.ts";

const STUDENTS = Number(process.env.STUDENTS ?? 5000);
const OTHER = Number(process.env.OTHER ?? 45_000);
const NO_SHOWS = Number(process.env.NO_SHOWS ?? 500);
const ROUNDS = Number(process.env.ROUNDS ?? 50);
const serverUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

// REUSE=name measures a database an earlier KEEP=1 run left, without seeding it again.
const reused = process.env.REUSE;
const name = reused ?? `trainwise_live_bench_${randomBytes(4).toString("hex")}`;
const server = new pg.Client({ connectionString: serverUrl });
await server.connect();
if (!reused) await server.query(`create database ${name}`);
const database = connectDatabase(databaseUrlFor(serverUrl, name), { max: 2 });
const client = database.pool;
try {
  if (!reused) await seed();

  const { rows } = await client.query<{ id: string }>("select id from drives where code = 'LIVE0'");
  const driveId = rows[0]?.id as string;
  const attempts = await liveAttempts(database.db, driveId, new Date());
  const open = attempts.flatMap((row) => (row.attemptId && !row.submittedAt ? [row.attemptId] : []));
  const all = attempts.flatMap((row) => (row.attemptId ? [row.attemptId] : []));
  const boards = new LiveBoards(database.db);
  const parts: [string, () => Promise<unknown>][] = [
    ["every second: students and latest attempts", () => liveAttempts(database.db, driveId, new Date())],
    [`every 5 s: tallies of the ${open.length} open attempts`, () => answerTallies(database.db, open)],
    [
      "every 5 s and after a registration: roster lines nobody registered by",
      () => rosterNoShows(database.db, driveId),
    ],
    [`once: tallies of all ${all.length} attempts`, () => answerTallies(database.db, all)],
    ["the JSON answer: the whole board, read and built", () => boards.read(driveId)],
  ];
  const fixed = (ms: number | undefined) => `${(ms ?? 0).toFixed(1)} ms`;
  for (const [label, run] of parts) {
    const times: number[] = [];
    // The first rounds warm the caches and the connection.
    for (let round = 0; round < ROUNDS + 3; round++) {
      const started = performance.now();
      await run();
      if (round >= 3) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`${label}: p50 ${fixed(percentile(times, 50))}, p99 ${fixed(percentile(times, 99))}`);
  }
  const bytes = JSON.stringify(await boards.read(driveId)).length;
  console.log(`the whole board as JSON: ${(bytes / 1024).toFixed(0)} KB (sent once per stream; then changes only)`);
  for (const [label, text] of [
    ["students and latest attempts", liveAttemptsForExplain(driveId)],
    ["roster lines nobody registered by", noShowsForExplain(driveId)],
    ["tallies of the open attempts", talliesForExplain(open)],
  ]) {
    const plan = await client.query(`explain (analyze, buffers, costs off) ${text}`);
    console.log(`${label}:\n${plan.rows.map((row) => row["QUERY PLAN"]).join("\n")}`);
  }
} finally {
  await database.close();
  if (process.env.KEEP || reused) console.log(`kept the database ${name}`);
  else await server.query(`drop database if exists ${name} with (force)`);
  await server.end();
}

// The statements of repository.ts with their values in place, for EXPLAIN (repository.ts holds the real ones).
function liveAttemptsForExplain(driveId: string): string {
  return `with latest as (
      select distinct on (a.student_id) a.id, a.student_id, a.current_position, a.current_started_at, a.started_at,
        a.submitted_at, a.score, a.marks, a.total_questions, a.paced, a.seconds_per_question, a.deadline_at,
        a.reloads, a.reloaded_at
      from attempts a where a.drive_id = '${driveId}'
      order by a.student_id, a.submitted_at is null desc, a.started_at desc)
    select s.id, null::uuid, s.name, s.usn_no, l.id,
      case when l.paced then greatest(l.current_position, least(case when coalesce(l.submitted_at, now())
        >= l.deadline_at then l.total_questions else least(l.current_position + floor(extract(epoch from
        (coalesce(l.submitted_at, now()) - l.current_started_at)) / l.seconds_per_question)::int, l.total_questions)
        end, l.total_questions - 1)) else l.current_position end,
      l.submitted_at, l.score, l.marks, l.total_questions,
      greatest(l.started_at, l.current_started_at, l.reloaded_at), l.reloads
    from students s left join latest l on l.student_id = s.id
    where s.drive_id = '${driveId}'`;
}

function noShowsForExplain(driveId: string): string {
  return `select null, r.id, coalesce(r.email, r.usn_no), r.usn_no
    from drive_roster r
    where r.drive_id = '${driveId}'
      and not exists (select 1 from students s where s.drive_id = r.drive_id and lower(s.email) = lower(r.email)
        and (r.email is null or lower(r.email) = lower(s.email)) and (r.usn_no is null or lower(r.usn_no) = lower(s.usn_no)))
      and not exists (select 1 from students s where s.drive_id = r.drive_id and lower(s.usn_no) = lower(r.usn_no)
        and (r.email is null or lower(r.email) = lower(s.email)) and (r.usn_no is null or lower(r.usn_no) = lower(s.usn_no)))`;
}

function talliesForExplain(attemptIds: string[]): string {
  return `select aq.attempt_id, array_agg(aq.position) filter (where aq.selected_option_id is not null),
      sum(aq.focus_losses)::int, max(aq.answered_at)
    from attempt_questions aq where aq.attempt_id = any('{${attemptIds.join(",")}}'::uuid[])
    group by aq.attempt_id`;
}

async function seed() {
  await applyMigrations(database);
  const seeding = performance.now();
  await client.query(`insert into tests (name, question_count, seconds_per_question) values ('Bench', 25, 30)`);
  await client.query(
    `insert into drives (test_id, name, code) select (select id from tests where name = 'Bench'), 'Drive ' || n,
       'LIVE' || n from generate_series(0, 9) n`,
  );
  await client.query(
    `insert into questions (text, category) select 'Bench question ' || n || '?', 'Aptitude'
     from generate_series(1, 100) n`,
  );
  await client.query(
    `insert into question_options (question_id, text, is_correct, weight, position)
     select q.id, 'Option ' || p, p = 0, case when p = 0 then 100 else 0 end, p from questions q cross join generate_series(0, 3) p`,
  );
  // Drive 0 is running; the others ran earlier.
  await client.query(
    `insert into students (name, email, phone, usn_no, college, course, "group", year, drive_id)
     select 'Student ' || n, 'student' || n || '@bench.example', '9876543210', 'USN' || n, 'College', 'B.E.', 'CSE',
       '2025', (select id from drives where code = 'LIVE' || case when n <= ${STUDENTS} then 0 else 1 + n % 9 end)
     from generate_series(1, ${STUDENTS + OTHER}) n`,
  );
  // Student n of the running drive: n % 10 = 0 not started, 1–4 in progress at question n % 25, 5–9 submitted.
  await client.query(
    `insert into attempts (student_id, drive_id, deadline_at, seconds_per_question, total_questions, timing_mode,
       paced, review_policy, started_at, current_position, current_started_at, submitted_at, score, marks)
     select s.id, s.drive_id, now() + interval '10 minutes', 30, 25, 'per_question', true, 'score_and_ticks',
       now() - interval '5 minutes', case when k % 10 between 1 and 4 then k % 25 else 24 end, now() - interval '10 seconds',
       case when k % 10 between 1 and 4 then null else now() - interval '1 minute' end,
       case when k % 10 between 1 and 4 then null else k % 26 end,
       case when k % 10 between 1 and 4 then null else k % 26 end
     from (select id, drive_id, substring(usn_no from 4)::int as k from students) s
     where s.k > ${STUDENTS} or s.k % 10 <> 0`,
  );
  await client.query(
    `with bank as (select id, row_number() over (order by text) - 1 as k from questions)
     insert into attempt_questions (attempt_id, position, question_id, option_order, selected_option_id, answered_at,
       focus_losses)
     select a.id, p, b.id, array[]::uuid[],
       case when a.submitted_at is not null or p < a.current_position
         then (select o.id from question_options o where o.question_id = b.id and o.position = 0) end,
       case when a.submitted_at is not null or p < a.current_position then now() - interval '20 seconds' end,
       case when p = 3 and a.submitted_at is null then 1 else 0 end
     from attempts a cross join generate_series(0, 24) p join bank b on b.k = p`,
  );
  await client.query(
    `insert into drive_roster (drive_id, email, usn_no)
     select (select id from drives where code = 'LIVE0'), 'student' || n || '@bench.example', 'USN' || n
     from generate_series(1, ${STUDENTS}) n
     union all
     select (select id from drives where code = 'LIVE0'), 'absent' || n || '@bench.example', 'ABS' || n
     from generate_series(1, ${NO_SHOWS}) n`,
  );
  await client.query("analyze");
  console.log(`seeded ${STUDENTS} + ${OTHER} students in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
}
