import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { describe, expect, it } from "vitest";
import committedMigrations from "../../drizzle/meta/_journal.json" with { type: "json" };
import { createTestDatabase } from "../test/database.ts";
import { applyMigrations } from "./migrate.ts";
import { attempts, drives, students } from "./schema.ts";

describe("migrations", async () => {
  const database = await createTestDatabase();

  it("create every table of the product", async () => {
    const { rows } = await database.db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(rows.map((row) => row.table_name)).toEqual([
      "admin_invites",
      "admins",
      "app_settings",
      "attempt_questions",
      "attempts",
      "audit_log",
      "contact_enquiries",
      "download_tickets",
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

  it("keeps every question, student and result when drives arrive (migration 0002)", async () => {
    const old = await createTestDatabase({ empty: true });
    // The migrations before drives, from a copy of the folder that stops there.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-migrations-"));
    const source = path.resolve(import.meta.dirname, "../../drizzle");
    fs.mkdirSync(path.join(folder, "meta"));
    const before = committedMigrations.entries.filter((entry) => entry.idx < 2);
    for (const entry of before)
      fs.copyFileSync(path.join(source, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
    fs.writeFileSync(
      path.join(folder, "meta/_journal.json"),
      JSON.stringify({ ...committedMigrations, entries: before }),
    );
    await migrate(old.db, { migrationsFolder: folder });
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

  it("can run again, concurrently, without changing anything", async () => {
    await Promise.all([applyMigrations(database), applyMigrations(database)]);
    const { rows } = await database.db.execute(sql`select count(*)::int as total from drizzle.__drizzle_migrations`);
    expect(rows[0]).toEqual({ total: committedMigrations.entries.length });
  });
});
