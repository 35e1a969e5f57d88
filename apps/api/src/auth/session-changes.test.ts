// Ending a student's sessions on one instance takes effect on the others at once: two apps on one database stand
// for two instances, each caching the student's sessions and listening for the database's announcements.
import { describe, expect, it } from "vitest";
import { createSecondInstance, createTestApp } from "../test/app.ts";
import { adminToken, bearer, registerStudent, seedQuestions } from "../test/fixtures.ts";

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("student sessions across instances", async () => {
  const first = await createTestApp();
  await seedQuestions(first.database.db, 3);
  const { app: second } = await createSecondInstance(first);
  const listening = () => first.app.studentSessionChanges.listening && second.studentSessionChanges.listening;
  const questionsOnSecond = (token: string) =>
    second.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(token) });

  it("refuses a student on every instance as soon as an admin on one ends their sessions", async () => {
    await waitFor(listening, 10_000, "both instances listen");
    const student = await registerStudent(first.app);
    expect((await questionsOnSecond(student.token)).statusCode, "the second instance caches the session").toBe(200);
    const [row] = (
      await first.database.pool.query<{ id: string }>("select id from students where email = $1", [student.input.email])
    ).rows;
    const admin = await adminToken(first.app, first.database.db);
    const ended = await first.app.inject({
      method: "POST",
      url: `/api/students/${row?.id}/end-sessions`,
      headers: bearer(admin),
    });
    expect(ended.statusCode).toBe(200);
    // Announced on commit and heard in milliseconds; the cache alone would keep the session for minutes.
    await waitFor(async () => (await questionsOnSecond(student.token)).statusCode === 401, 2_000, "refused");
  });

  it("listens again after losing its connection, forgetting what it cached meanwhile", async () => {
    await waitFor(listening, 10_000, "both instances listen");
    const student = await registerStudent(first.app);
    expect((await questionsOnSecond(student.token)).statusCode).toBe(200);
    // A database restart or a terminated backend, as an operator might cause: every listener's connection dies.
    await first.database.pool.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'trainwise-session-listener' and datname = current_database()",
    );
    await waitFor(() => !second.studentSessionChanges.listening, 5_000, "the loss is noticed");
    // Announcements made while nobody listens are lost; the instance must not trust its old copy.
    await first.database.pool.query("update students set sessions_valid_from = now() where email = $1", [
      student.input.email,
    ]);
    await waitFor(() => second.studentSessionChanges.listening, 10_000, "listening again");
    expect((await questionsOnSecond(student.token)).statusCode).toBe(401);
  });
});
