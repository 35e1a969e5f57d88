import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import committedMigrations from "../../drizzle/meta/_journal.json" with { type: "json" };
import { scoreAndClose } from "../modules/quiz/repository/attempt-writes.ts";
import { createTestDatabase } from "../test/database.ts";
import { applyMigrations } from "./migrate.ts";
import { attempts, drives, students } from "./schema.ts";

describe("migrations", async () => {
  const database = await createTestDatabase();

  it("connects with just-in-time compiling off", async () => {
    const { rows } = await database.pool.query<{ jit: string }>("show jit");
    expect(rows[0]?.jit).toBe("off");
  });

  it("create every table of the product", async () => {
    const { rows } = await database.db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(rows.map((row) => row.table_name)).toEqual([
      "admin_invites",
      "admins",
      "app_settings",
      "attempt_credits",
      "attempt_questions",
      "attempts",
      "audit_log",
      "contact_enquiries",
      "download_tickets",
      "drive_notices",
      "drive_roster",
      "drives",
      "email_codes",
      "feedback",
      "limit_counters",
      "media",
      "question_keys",
      "question_options",
      "questions",
      "revoked_tokens",
      "students",
      "tests",
    ]);
  });

  it("leaves room on each page of served questions for their updates", async () => {
    const { rows } = await database.db.execute(
      sql`select reloptions as options from pg_class where relname = 'attempt_questions'`,
    );
    expect(rows[0]).toEqual({ options: ["fillfactor=50"] });
  });

  it("allows a student one open attempt at a time", async () => {
    const [drive] = await database.db.select({ id: drives.id }).from(drives).where(eq(drives.isDefault, true));
    const driveId = drive?.id ?? "";
    const [student] = await database.db
      .insert(students)
      .values({
        name: "One Attempt",
        email: "one.attempt@example.com",
        phone: "9876543210",
        usnNo: "ONE-1",
        college: "Test College",
        course: "B.E.",
        group: "CSE",
        year: "2025",
        driveId,
      })
      .returning({ id: students.id });
    const studentId = student?.id ?? "";
    const attempt = {
      studentId,
      driveId,
      deadlineAt: new Date(Date.now() + 60_000),
      secondsPerQuestion: 30,
      totalQuestions: 1,
      timingMode: "per_question" as const,
      paced: true,
      reviewPolicy: "score_and_ticks" as const,
    };
    await database.db.insert(attempts).values(attempt);
    await expect(database.db.insert(attempts).values(attempt)).rejects.toMatchObject({
      cause: { constraint: "attempts_one_open_per_student" },
    });
    await database.db.update(attempts).set({ submittedAt: new Date() }).where(eq(attempts.studentId, studentId));
    await database.db.insert(attempts).values(attempt);
  });

  /** A database with the committed migrations before `idx` applied, from a copy of the folder that stops there. */
  async function migratedUpTo(idx: number) {
    const old = await createTestDatabase({ empty: true });
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-migrations-"));
    const source = path.resolve(import.meta.dirname, "../../drizzle");
    fs.mkdirSync(path.join(folder, "meta"));
    const before = committedMigrations.entries.filter((entry) => entry.idx < idx);
    for (const entry of before)
      fs.copyFileSync(path.join(source, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
    fs.writeFileSync(
      path.join(folder, "meta/_journal.json"),
      JSON.stringify({ ...committedMigrations, entries: before }),
    );
    await migrate(old.db, { migrationsFolder: folder });
    return old;
  }

  it("keeps every question, student and result when drives arrive (migration 0002)", async () => {
    const old = await migratedUpTo(2);
    await old.pool.query(`
      insert into questions (id, text, category) values ('11111111-1111-4111-8111-111111111111', 'Old question?', 'Old');
      insert into question_options (id, question_id, text, is_correct, position) values
        ('22222222-2222-4222-8222-222222222221', '11111111-1111-4111-8111-111111111111', 'yes', true, 0),
        ('22222222-2222-4222-8222-222222222222', '11111111-1111-4111-8111-111111111111', 'no', false, 1);
      insert into students (id, name, email, phone, usn_no, college, course, "group", year)
        values ('33333333-3333-4333-8333-333333333333', 'Old Student', 'old@example.com', '9876543210', 'OLD1',
                'Old College', 'B.E.', 'CSE', '2024');
      insert into attempts (id, student_id, deadline_at, seconds_per_question, total_questions, submitted_at, score)
        values ('44444444-4444-4444-8444-444444444444', '33333333-3333-4333-8333-333333333333', now(), 30, 1, now(), 1);
      insert into attempt_questions (attempt_id, position, question_id, option_order, selected_option_id, is_correct)
        values ('44444444-4444-4444-8444-444444444444', 0, '11111111-1111-4111-8111-111111111111',
                '{22222222-2222-4222-8222-222222222221,22222222-2222-4222-8222-222222222222}',
                '22222222-2222-4222-8222-222222222221', true);`);
    await applyMigrations(old);
    const { rows } = await old.pool.query(`
      select s.name, d.code, d.is_default as "defaultDrive", t.name as "testName", t.question_count as "questionCount",
             a.score, a.marks, a.review_policy as "reviewPolicy", a.paced, aq.is_correct as "isCorrect", q.text
      from students s join drives d on d.id = s.drive_id join tests t on t.id = d.test_id
      join attempts a on a.student_id = s.id and a.drive_id = d.id
      join attempt_questions aq on aq.attempt_id = a.id join questions q on q.id = aq.question_id`);
    expect(rows).toEqual([
      {
        name: "Old Student",
        code: "OPEN",
        defaultDrive: true,
        testName: "Campus quiz",
        questionCount: 25,
        score: 1,
        marks: 1,
        reviewPolicy: "score_and_ticks",
        paced: true,
        isCorrect: true,
        text: "Old question?",
      },
    ]);
  });

  it("gives options the weights that score every attempt exactly as the right/wrong flags did (migration 0021)", async () => {
    const old = await migratedUpTo(21);
    // A bank of every kind with right/wrong flags only, and attempts answering it every which way.
    const questions = fc
      .sample(
        fc.record({
          type: fc.constantFrom("single", "multiple", "true_false"),
          scoring: fc.constantFrom("all_or_nothing", "partial"),
          correct: fc.array(fc.boolean(), { minLength: 2, maxLength: 10 }),
          right: fc.nat(9),
        }),
        { numRuns: 60, seed: 23 },
      )
      .map(({ type, scoring, correct, right }, index) => {
        const count = type === "true_false" ? 2 : correct.length;
        const flags = correct
          .slice(0, count)
          .map((isCorrect, position) => position === right % count || (type === "multiple" && isCorrect));
        return { index, type, scoring: type === "multiple" ? scoring : "all_or_nothing", flags };
      });
    await old.pool.query(
      `insert into questions (id, text, category, type, scoring)
       select ('00000000-0000-4000-8000-' || lpad(q.index::text, 12, '0'))::uuid, 'Q' || q.index, 'Old',
              q.type::question_type, q.scoring::scoring_rule
       from jsonb_to_recordset($1::jsonb) as q(index int, type text, scoring text)`,
      [JSON.stringify(questions)],
    );
    await old.pool.query(
      `insert into question_options (id, question_id, text, is_correct, position)
       select ('00000000-0000-4000-9000-' || lpad((q.index * 100 + f.position - 1)::text, 12, '0'))::uuid,
              ('00000000-0000-4000-8000-' || lpad(q.index::text, 12, '0'))::uuid, 'o' || f.position,
              f.value::boolean, f.position
       from jsonb_to_recordset($1::jsonb) as q(index int, flags jsonb),
            jsonb_array_elements(q.flags) with ordinality as f(value, position)`,
      [JSON.stringify(questions)],
    );
    const attemptsMade = fc.sample(
      fc.record({
        questions: fc.uniqueArray(fc.nat(questions.length - 1), { minLength: 1, maxLength: 12 }),
        chosen: fc.array(fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }), { minLength: 12, maxLength: 12 }),
        negativeMark: fc.constantFrom(0, 0.25, 1),
        passMark: fc.constantFrom(null, 40, 60),
      }),
      { numRuns: 40, seed: 20 },
    );
    const attemptIds: string[] = [];
    for (const [number, made] of attemptsMade.entries()) {
      const { rows } = await old.pool.query<{ id: string }>(
        `with student as (
           insert into students (name, email, phone, usn_no, college, course, "group", year, drive_id)
           select 'Old ' || $1::int, 'old' || $1::int || '@example.com', '9876543210', 'OLD' || $1::int, 'College',
                  'B.E.', 'CSE', '2024', id from drives where is_default returning id, drive_id)
         insert into attempts (student_id, drive_id, deadline_at, seconds_per_question, total_questions, timing_mode,
                               paced, review_policy, negative_mark, pass_mark)
         select id, drive_id, now() + interval '1 hour', 30, $2::int, 'per_question', true, 'score_and_ticks', $3, $4
         from student returning id`,
        [number, made.questions.length, made.negativeMark, made.passMark],
      );
      const attemptId = rows[0]?.id as string;
      attemptIds.push(attemptId);
      for (const [position, questionIndex] of made.questions.entries()) {
        const question = questions[questionIndex];
        if (!question) continue;
        const optionIds = question.flags.map(
          (_, option) => `00000000-0000-4000-9000-${String(questionIndex * 100 + option).padStart(12, "0")}`,
        );
        const chosen = made.chosen[position] ?? [];
        // Unanswered, one option (as single answers and the original client store it), or a list of options.
        const picked = optionIds.filter((_, option) => chosen[option]);
        const single = question.type !== "multiple" || chosen[9];
        await old.pool.query(
          `insert into attempt_questions (attempt_id, position, question_id, option_order, selected_option_id,
                                          selected_option_ids)
           values ($1, $2, $3, $4, $5, $6)`,
          [
            attemptId,
            position,
            `00000000-0000-4000-8000-${String(questionIndex).padStart(12, "0")}`,
            optionIds,
            single && !chosen[8] ? (picked[0] ?? null) : null,
            single || chosen[8] ? null : picked,
          ],
        );
      }
    }
    // Scored as it was before options had weights (the statement of migration 0019's code).
    for (const attemptId of attemptIds) await old.pool.query(SCORED_BEFORE_WEIGHTS, [attemptId, new Date()]);
    const marksNow = async () =>
      (
        await old.pool.query(`
          select a.id, a.score, a.marks, a.passed,
                 array_agg(aq.mark order by aq.position) as marks_each,
                 array_agg(aq.is_correct order by aq.position) as right_each
          from attempts a join attempt_questions aq on aq.attempt_id = a.id group by a.id order by a.id`)
      ).rows;
    const before = await marksNow();
    expect(before.some((row) => row.marks_each.some((mark: number) => mark > 0 && mark < 1))).toBe(true);

    await applyMigrations(old);
    await old.pool.query("update attempts set submitted_at = null, score = null, marks = null, passed = null");
    await old.pool.query("update attempt_questions set mark = null, is_correct = null");
    for (const attemptId of attemptIds) await scoreAndClose(old.db, attemptId, new Date());
    const after = await marksNow();
    // Every question's mark, right or wrong, the score and pass or fail are what they were; the marks only as close
    // as reals added in another order come (the old statement added them as reals, in whatever order they came).
    const exactly = (rows: typeof before) => rows.map(({ marks: _, ...row }) => row);
    expect(exactly(after)).toEqual(exactly(before));
    for (const [index, row] of after.entries()) expect(row.marks).toBeCloseTo(before[index]?.marks, 5);
  });

  it("can run again, concurrently, without changing anything", async () => {
    await Promise.all([applyMigrations(database), applyMigrations(database)]);
    const { rows } = await database.db.execute(sql`select count(*)::int as total from drizzle.__drizzle_migrations`);
    expect(rows[0]).toEqual({ total: committedMigrations.entries.length });
  });
});

/** The scoring statement as it was before options had weights, kept to compare the migrated bank's marks with. */
const SCORED_BEFORE_WEIGHTS = `with chosen as (
    select aq.position, q.scoring,
           coalesce(aq.selected_option_ids, case when aq.selected_option_id is null then null
                                                 else array[aq.selected_option_id] end) as picks,
           aq.question_id
    from attempt_questions aq join questions q on q.id = aq.question_id
    where aq.attempt_id = $1::uuid
  ), graded as (
    select c.position, c.picks is not null as answered, coalesce((
      select case
        when bool_and(o.is_correct = (o.id = any(c.picks))) then 1
        when c.scoring = 'partial' then greatest(0,
          (count(*) filter (where o.is_correct and o.id = any(c.picks))
            - count(*) filter (where not o.is_correct and o.id = any(c.picks)))::real
          / nullif(count(*) filter (where o.is_correct), 0))
        else 0 end
      from question_options o where o.question_id = c.question_id and c.picks is not null), 0)::real as mark
    from chosen c
  ), marked as (
    update attempt_questions aq set is_correct = g.mark = 1, mark = g.mark
    from graded g where aq.attempt_id = $1::uuid and aq.position = g.position
    returning aq.is_correct, aq.mark, g.answered
  ), tally as (
    select count(*) filter (where is_correct)::int as correct,
           coalesce(sum(mark), 0)::real as credit,
           count(*) filter (where answered and mark = 0)::int as wrong
    from marked
  )
  update attempts set submitted_at = $2::timestamptz, score = tally.correct,
    marks = tally.credit - negative_mark * tally.wrong,
    passed = case when pass_mark is null then null
                  else (tally.credit - negative_mark * tally.wrong) * 100 >= pass_mark * total_questions end
  from tally
  where id = $1::uuid and submitted_at is null`;
