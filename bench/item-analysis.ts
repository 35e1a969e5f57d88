// `npm run bench:analysis`: the item analysis of one campus drive. Starts an embedded PostgreSQL in a temporary
// folder, applies the migrations, seeds a drive of ATTEMPTS (5,000) submitted attempts of 25 questions drawn
// from a bank of 100 (answers spread over the four options, abler students right more often) with set-based
// SQL, then runs the drive's analysis (both statements) ROUNDS (20) times after a warm-up and prints the times.
// A benchmark: it prints figures and asserts nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { connectDatabase } from "../apps/api/src/db/client.ts";
import { startEmbeddedPostgres } from "../apps/api/src/db/embedded-postgres.ts";
import { applyMigrations } from "../apps/api/src/db/migrate.ts";
import { itemAnalysis } from "../apps/api/src/modules/analysis/repository.ts";
import { percentile } from "./student-connection.ts";

const ATTEMPTS = Number(process.env.ATTEMPTS ?? 5_000);
const ROUNDS = Number(process.env.ROUNDS ?? 20);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-bench-analysis-"));
fs.chmodSync(dataDir, 0o755);
const embedded = await startEmbeddedPostgres(dataDir, () => {});
const handle = connectDatabase(embedded.superuserUrl, { max: 2 });
try {
  await applyMigrations(handle);
  const { pool } = handle;
  const seeded = performance.now();
  await pool.query(`insert into tests (name, question_count, seconds_per_question) values ('Bench analysis', 25, 30)`);
  const { rows } = await pool.query<{ id: string }>(
    `insert into drives (test_id, name, code) select id, 'Bench analysis drive', 'BENCHITEM' from tests
     where name = 'Bench analysis' returning id`,
  );
  const driveId = rows[0]?.id as string;
  await pool.query(`
    insert into questions (text, category) select 'Bench item ' || n || '?', 'Bench' from generate_series(1, 100) n;
    insert into question_options (question_id, text, is_correct, weight, position)
      select q.id, 'Option ' || p, p = 0, case when p = 0 then 100 else 0 end, p from questions q cross join generate_series(0, 3) p;`);
  await pool.query(
    `insert into students (name, email, phone, usn_no, college, course, "group", year, drive_id)
     select 'Student ' || n, 'student' || n || '@bench.example', '9876543210', 'USN' || n, 'College', 'B.E.', 'CSE',
            '2025', $1 from generate_series(1, $2::int) n`,
    [driveId, ATTEMPTS],
  );
  await pool.query(
    `insert into attempts (student_id, deadline_at, seconds_per_question, submitted_at, score, marks, total_questions,
                           drive_id, timing_mode, paced, review_policy)
     select id, now(), 30, now() - random() * interval '1 hour', 0, 0, 25, drive_id, 'per_question', true,
            'score_and_ticks'
     from students where drive_id = $1`,
    [driveId],
  );
  // Each attempt draws 25 of the 100 questions; a student's ability (0–1) sets the chance of the right option.
  await pool.query(
    `with bank as (select id, row_number() over (order by id) as k from questions),
     able as (select id, random() as ability from attempts where drive_id = $1),
     drawn as (
       select a.id as attempt_id, a.ability, b.id as question_id,
              row_number() over (partition by a.id order by random()) as position
       from able a cross join bank b
     )
     insert into attempt_questions (attempt_id, position, question_id, option_order, selected_option_id, answered_at,
                                    is_correct)
     select d.attempt_id, d.position - 1, d.question_id,
            (select array_agg(o.id order by o.position) from question_options o where o.question_id = d.question_id),
            chosen.id, case when chosen.id is null then null else now() end, coalesce(chosen.is_correct, false)
     from drawn d
     left join lateral (
       select o.id, o.is_correct from question_options o
       where o.question_id = d.question_id and random() > 0.05
       order by case when o.is_correct then random() * (1.5 - d.ability) else random() end
       limit 1
     ) chosen on true
     where d.position <= 25`,
    [driveId],
  );
  await pool.query(
    `update attempts a set score = s.right_count, marks = s.right_count
     from (select attempt_id, count(*) filter (where is_correct)::int as right_count from attempt_questions
           group by attempt_id) s
     where s.attempt_id = a.id;
     analyze;`,
  );
  const served = await pool.query<{ count: number }>("select count(*)::int as count from attempt_questions");
  console.log(
    `seeded ${ATTEMPTS} submitted attempts, ${served.rows[0]?.count} served questions in ${Math.round(
      performance.now() - seeded,
    )} ms`,
  );

  const scope = { kind: "drive", id: driveId } as const;
  const warm = await itemAnalysis(handle.db, scope);
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    await itemAnalysis(handle.db, scope);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(
    `item analysis of a ${warm.summary.attempts}-attempt drive (${warm.questions.length} questions, groups of ` +
      `${warm.summary.groupSize}): median ${percentile(times, 50).toFixed(1)} ms, ` +
      `p95 ${percentile(times, 95).toFixed(1)} ms, max ${(times.at(-1) ?? 0).toFixed(1)} ms over ${ROUNDS} rounds`,
  );
  const flagged = warm.questions.filter((question) => question.flags.length > 0).length;
  const mean =
    warm.questions.reduce((sum, question) => sum + (question.discrimination ?? 0), 0) / warm.questions.length;
  console.log(
    `mean ${warm.summary.mean}%, sd ${warm.summary.standardDeviation}, mean D ${mean.toFixed(2)}, ${flagged} flagged`,
  );
} finally {
  await handle.close();
  await embedded.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
