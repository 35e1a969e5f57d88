// Nexts sent in batches (repository/next-batches.ts, decision 032): when they go, what goes together, what one
// failure costs the others; and, through the API on PostgreSQL, that Nexts sent together each save their own
// answer and move their own clock, and that a student whose attempt another transaction holds keeps nobody else
// waiting.
import type { QuizQuestion } from "@trainwise/contract/quiz";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { Executor } from "../../db/client.ts";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, seedCategory, studentInput } from "../../test/fixtures.ts";
import { lockOpenAttempt } from "./repository/attempt-reads.ts";
import { recordFocusLoss } from "./repository/attempt-writes.ts";
import { nextInOneGoStatement } from "./repository/clock-statements.ts";
import { BATCHES_IN_FLIGHT, Batches, MOST_PER_BATCH } from "./repository/next-batches.ts";

/** A runner whose batches end when the test says, each request answered with its text upper-cased. */
function heldRunner() {
  const sent: string[][] = [];
  const ends: (() => void)[] = [];
  const runBatch = (requests: string[]) => {
    sent.push(requests);
    return new Promise<string[]>((resolve) => ends.push(() => resolve(requests.map((r) => r.toUpperCase()))));
  };
  /** Ends the batch sent first of those still running. */
  const endNext = async () => {
    ends.shift()?.();
    // Lets the batch's answers and the next send run.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { sent, runBatch, endNext };
}

const studentOf = (request: string) => request.split(":")[0] as string;

describe("batches of Nexts", () => {
  it("sends a Next at once when nothing runs, and what arrives meanwhile together when the batch ends", async () => {
    const { sent, runBatch, endNext } = heldRunner();
    const batches = new Batches(runBatch, studentOf, 1);
    const first = batches.take("a:1");
    expect(sent).toEqual([["a:1"]]);
    const later = ["b:1", "c:1", "d:1"].map((request) => batches.take(request));
    expect(sent).toHaveLength(1);
    await endNext();
    expect(await first).toBe("A:1");
    expect(sent).toEqual([["a:1"], ["b:1", "c:1", "d:1"]]);
    await endNext();
    expect(await Promise.all(later)).toEqual(["B:1", "C:1", "D:1"]);
  });

  it("runs as many batches at once as it is allowed, the next formed when one of them ends", async () => {
    const { sent, runBatch, endNext } = heldRunner();
    const batches = new Batches(runBatch, studentOf, 2);
    const all = ["a:1", "b:1", "c:1", "d:1", "e:1"].map((request) => batches.take(request));
    expect(sent).toEqual([["a:1"], ["b:1"]]);
    await endNext();
    expect(sent).toEqual([["a:1"], ["b:1"], ["c:1", "d:1", "e:1"]]);
    await endNext();
    await endNext();
    expect(await Promise.all(all)).toEqual(["A:1", "B:1", "C:1", "D:1", "E:1"]);
  });

  it("never puts two Nexts of one student in a batch, and keeps the order of arrival", async () => {
    const { sent, runBatch, endNext } = heldRunner();
    const batches = new Batches(runBatch, studentOf, 1);
    const all = ["a:1", "b:1", "a:2", "c:1", "a:3", "b:2"].map((request) => batches.take(request));
    await endNext();
    await endNext();
    await endNext();
    expect(sent).toEqual([["a:1"], ["b:1", "a:2", "c:1"], ["a:3", "b:2"]]);
    await endNext();
    expect(await Promise.all(all)).toEqual(["A:1", "B:1", "A:2", "C:1", "A:3", "B:2"]);
  });

  it(`sends at most ${MOST_PER_BATCH} in one statement`, async () => {
    const { sent, runBatch, endNext } = heldRunner();
    const batches = new Batches(runBatch, studentOf, 1);
    const all = Array.from({ length: MOST_PER_BATCH + 3 }, (_, index) => batches.take(`s${index}:1`));
    await endNext();
    expect(sent.map((batch) => batch.length)).toEqual([1, MOST_PER_BATCH]);
    await endNext();
    expect(sent.map((batch) => batch.length)).toEqual([1, MOST_PER_BATCH, 2]);
    await endNext();
    expect(await Promise.all(all)).toHaveLength(MOST_PER_BATCH + 3);
  });

  it("answers a queue of 150,000 Nexts in batches, each student's in their order", async () => {
    // The queue was once rebuilt with a spread call, which overflowed the stack past about 130,000 waiting.
    const sent: string[][] = [];
    const runBatch = async (requests: string[]) => {
      sent.push(requests);
      return requests.map((request) => request.toUpperCase());
    };
    const batches = new Batches(runBatch, studentOf, 1);
    // 50,000 students, three Nexts each, one after another as a flood would send them.
    const requests = Array.from({ length: 150_000 }, (_, index) => `s${index % 50_000}:${Math.floor(index / 50_000)}`);
    const answers = await Promise.all(requests.map((request) => batches.take(request)));
    expect(answers).toEqual(requests.map((request) => request.toUpperCase()));
    expect(Math.max(...sent.map((batch) => batch.length))).toBe(MOST_PER_BATCH);
    const order = new Map<string, number>();
    for (const request of sent.flat()) {
      const [student, position] = request.split(":") as [string, string];
      expect(Number(position)).toBe((order.get(student) ?? -1) + 1);
      order.set(student, Number(position));
    }
  });

  it("runs each Next of a failed batch again alone, so that only the one at fault hears of it", async () => {
    const sent: string[][] = [];
    let hold: (() => void) | undefined;
    const runBatch = async (requests: string[]) => {
      sent.push(requests);
      if (sent.length === 1) await new Promise<void>((resolve) => (hold = resolve));
      if (requests.includes("bad:1")) throw new Error("refused by the database");
      return requests.map((request) => request.toUpperCase());
    };
    const batches = new Batches(runBatch, studentOf, 1);
    const first = batches.take("a:1");
    const rest = ["b:1", "bad:1", "c:1"].map((request) =>
      batches.take(request).catch((error: Error) => `error: ${error.message}`),
    );
    hold?.();
    expect(await first).toBe("A:1");
    expect(await Promise.all(rest)).toEqual(["B:1", "error: refused by the database", "C:1"]);
    expect(sent).toEqual([["a:1"], ["b:1", "bad:1", "c:1"], ["b:1"], ["bad:1"], ["c:1"]]);
    // A Next alone that fails is not run twice.
    await expect(batches.take("bad:1")).rejects.toThrow("refused by the database");
    expect(sent.at(-1)).toEqual(["bad:1"]);
    expect(sent.at(-2)).toEqual(["c:1"]);
  });
});

describe("Nexts sent together, on PostgreSQL", async () => {
  const { app, database, config } = await createTestApp();
  const asAdmin = bearer(await adminToken(app, database.db));
  let addresses = 0;
  const nextAddress = () => `10.32.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

  async function pacedDrive(name: string) {
    await seedCategory(database.pool, name, 3);
    const test = await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: asAdmin,
      payload: { name, categories: [name], questionCount: 3, timingMode: "per_question", secondsPerQuestion: 60 },
    });
    expect(test.statusCode, test.body).toBe(201);
    const drive = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: asAdmin,
      payload: { name: `${name} drive`, testId: test.json()._id },
    });
    expect(drive.statusCode, drive.body).toBe(201);
    return drive.json().code as string;
  }

  /** A student of the drive who has started: their token, attempt and first question. */
  async function started(driveCode: string): Promise<Started> {
    const registered = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: studentInput({ driveCode }),
      remoteAddress: nextAddress(),
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const token = registered.json().token as string;
    const start = await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) });
    expect(start.statusCode, start.body).toBe(200);
    return { token, attemptId: start.json().attemptId as string, first: start.json().question as QuizQuestion };
  }

  const optionStarting = (question: QuizQuestion, prefix: string) =>
    question.options.find((option) => option.text.startsWith(prefix))?._id as string;

  const next = (token: string, question: QuizQuestion, optionId: string) =>
    app.inject({
      method: "POST",
      url: "/api/quiz/next",
      headers: bearer(token),
      payload: { position: 1, answer: { questionId: question._id, optionId } },
    });

  async function storedFirst(attemptId: string) {
    const { rows } = await database.pool.query<{ selected: string | null; position: number }>(
      `select aq.selected_option_id as selected, a.current_position as position
       from attempts a join attempt_questions aq on aq.attempt_id = a.id and aq.position = 0 where a.id = $1`,
      [attemptId],
    );
    return rows[0];
  }

  it("saves each student's own answer and moves each one's own clock", async () => {
    const code = await pacedDrive("Batched Nexts");
    const students = await Promise.all(Array.from({ length: 12 }, () => started(code)));
    // Half answer rightly and half not, so that an answer given to the wrong attempt would show.
    const chosen = students.map((student, index) => optionStarting(student.first, index % 2 ? "right" : "wrong A"));
    const replies = await Promise.all(
      students.map((student, index) => next(student.token, student.first, chosen[index] as string)),
    );
    for (const [index, reply] of replies.entries()) {
      expect(reply.statusCode, reply.body).toBe(200);
      expect(reply.json()).toMatchObject({ currentIndex: 1 });
      expect(reply.json().question._id).not.toBe(students[index]?.first._id);
      expect(await storedFirst(students[index]?.attemptId as string)).toEqual({
        selected: chosen[index],
        position: 1,
      });
    }
    // Where each student stands is their own: the served second question is the one stored at their position 1.
    for (const [index, reply] of replies.entries()) {
      const { rows } = await database.pool.query<{ question_id: string }>(
        "select question_id from attempt_questions where attempt_id = $1 and position = 1",
        [students[index]?.attemptId],
      );
      expect(reply.json().question._id).toBe(rows[0]?.question_id);
    }
  });

  /** A connection of its own (not the app's pool), for a transaction the test holds open. */
  async function ownConnection() {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    return client;
  }

  /** Resolves once `count` of the app's statements wait for a row lock. */
  async function lockWaits(count: number) {
    for (;;) {
      const { rows } = await database.pool.query<{ waiting: number }>(
        `select count(*)::int as waiting from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock'`,
      );
      if ((rows[0]?.waiting ?? 0) >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * Sends the Nexts of `held`, whose attempts the test holds, until each of them waits on its lock (one per batch
   * the instance may run); then everyone else's Nexts must be answered before the locks go.
   */
  async function othersAnsweredWhileHeld(held: Started[], others: Started[], release: () => Promise<void>) {
    let heldAnswered = 0;
    const heldNexts = held.map((student) =>
      next(student.token, student.first, optionStarting(student.first, "right")).then((reply) => {
        heldAnswered++;
        return reply;
      }),
    );
    await lockWaits(held.length);
    // Everyone else's Next (and a second, repeated one of the first of them) is answered while the rows are held.
    const [twice] = others;
    if (!twice) throw new Error("no student");
    const replies = await Promise.all([
      ...others.map((student) => next(student.token, student.first, optionStarting(student.first, "right"))),
      next(twice.token, twice.first, optionStarting(twice.first, "wrong A")),
    ]);
    for (const reply of replies) expect(reply.json(), reply.body).toMatchObject({ currentIndex: 1 });
    // Both of the double click are answered with question 2; the first answer stands (a repeated Next changes
    // nothing), whichever of the two reached the server first.
    const twiceStored = await storedFirst(twice.attemptId);
    expect(twiceStored?.position).toBe(1);
    expect([optionStarting(twice.first, "right"), optionStarting(twice.first, "wrong A")]).toContain(
      twiceStored?.selected,
    );
    expect(heldAnswered).toBe(0);
    await release();
    for (const [index, reply] of (await Promise.all(heldNexts)).entries()) {
      expect(reply.statusCode, reply.body).toBe(200);
      expect(reply.json()).toMatchObject({ currentIndex: 1 });
      const student = held[index] as Started;
      expect(await storedFirst(student.attemptId)).toEqual({
        selected: optionStarting(student.first, "right"),
        position: 1,
      });
    }
  }

  /**
   * On a drive of its own, holds one student's attempt per batch in flight with `hold`, each in a transaction of its
   * own connection, and checks othersAnsweredWhileHeld.
   */
  async function whileHeld(name: string, hold: (holder: pg.Client, studentId: string) => Promise<void>) {
    const code = await pacedDrive(name);
    const students = await Promise.all(Array.from({ length: BATCHES_IN_FLIGHT + 5 }, () => started(code)));
    const held = students.slice(0, BATCHES_IN_FLIGHT);
    const holders = await Promise.all(held.map(() => ownConnection()));
    try {
      for (const [index, holder] of holders.entries()) {
        await holder.query("begin");
        const { rows } = await holder.query<{ student_id: string }>("select student_id from attempts where id = $1", [
          held[index]?.attemptId,
        ]);
        await hold(holder, rows[0]?.student_id as string);
      }
      await othersAnsweredWhileHeld(held, students.slice(BATCHES_IN_FLIGHT), async () => {
        for (const holder of holders) await holder.query("commit");
      });
    } finally {
      await Promise.all(holders.map((holder) => holder.end()));
    }
  }

  it("takes a student's double click once, and keeps nobody waiting for attempts other transactions hold", async () => {
    // The student's submit, or an admin ending the attempt, holds the attempt's row.
    await whileHeld("Held attempt", async (holder, studentId) => {
      await holder.query("select 1 from attempts where student_id = $1 and submitted_at is null for update", [
        studentId,
      ]);
    });
  });

  it("keeps nobody waiting for students whose lost focus is being counted", async () => {
    // The page reports a lost focus on question 1; its transaction is still open when the Nexts arrive. The app's
    // own statements, in noteFocusLoss's order, run on the test's connection (runNamed needs only Drizzle's session,
    // not a pool).
    await whileHeld("Focus counted", async (holder, studentId) => {
      const executor = drizzle(holder) as unknown as Executor;
      const attempt = await lockOpenAttempt(executor, studentId);
      expect(await recordFocusLoss(executor, attempt?.id as string, 0)).toMatchObject({ focusLosses: 1 });
    });
  });

  /** Rows that the plan's scans of attempt_questions and its indexes returned, over every loop. */
  function servedRowsRead(plan: PlanNode): number {
    const own =
      plan["Relation Name"] === "attempt_questions" || plan["Index Name"]?.startsWith("attempt_questions")
        ? plan["Actual Rows"] * plan["Actual Loops"]
        : 0;
    return own + (plan.Plans ?? []).reduce((sum, child) => sum + servedRowsRead(child), 0);
  }

  it("reads a few served rows per Next, however many attempts were served the same questions", async () => {
    const code = await pacedDrive("Shared questions");
    const students = await Promise.all(Array.from({ length: 8 }, () => started(code)));
    const model = students[0]?.attemptId;
    // 1,500 more candidates of the drive, in the middle of the same three questions (copies of the first).
    await database.pool.query(
      `with copies as (
         insert into students
         select (json_populate_record(s, json_build_object('id', gen_random_uuid(), 'email', n || '.' || s.email,
           'usn_no', n || '.' || s.usn_no, 'resume_code_hash', null, 'registration_key_hash', null))).*
         from students s join attempts a on a.student_id = s.id, generate_series(1, 1500) n where a.id = $1
         returning id
       ), copied as (
         insert into attempts
         select (json_populate_record(a, json_build_object('id', gen_random_uuid(), 'student_id', c.id))).*
         from attempts a, copies c where a.id = $1
         returning id
       )
       insert into attempt_questions
       select (json_populate_record(aq, json_build_object('attempt_id', copied.id))).*
       from attempt_questions aq, copied where aq.attempt_id = $1`,
      [model],
    );
    await database.pool.query("analyze students, attempts, attempt_questions");
    const client = await database.pool.connect();
    try {
      await client.query("begin");
      await client.query(`prepare batch_next as ${nextInOneGoStatement.text}`);
      const { rows: owners } = await client.query<{ student_id: string }>(
        "select student_id from attempts where id = any($1::uuid[]) order by array_position($1::uuid[], id)",
        [students.map((student) => student.attemptId)],
      );
      // EXPLAIN takes no parameters: the batch is written into it.
      const uuids = (values: string[]) => client.escapeLiteral(`{${values.join(",")}}`);
      const count = students.length;
      const execute = `execute batch_next(${uuids(owners.map((owner) => owner.student_id))}, array_fill(1, array[${count}]),
        array_fill(now(), array[${count}]), ${uuids(students.map((student) => student.first._id))},
        ${uuids(students.map((student) => optionStarting(student.first, "right")))}, 10,
        array_fill(null::text, array[${count}]))`;
      // After five runs PostgreSQL may switch to a generic plan, chosen without the values: both are read.
      for (let run = 0; run < 7; run++) {
        await client.query("savepoint run");
        const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
          `explain (analyze, format json) ${execute}`,
        );
        const plan = rows[0]?.["QUERY PLAN"][0].Plan as PlanNode;
        expect(servedRowsRead(plan), `run ${run + 1}`).toBeLessThanOrEqual(students.length * 4);
        await client.query("rollback to savepoint run");
      }
    } finally {
      await client.query("rollback");
      client.release();
    }
  });
});

interface PlanNode {
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  Plans?: PlanNode[];
}

interface Started {
  token: string;
  attemptId: string;
  first: QuizQuestion;
}
