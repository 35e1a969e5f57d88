// Nexts sent in batches (repository/next-batches.ts, decision 032): when they go, what goes together, what one
// failure costs the others; and, through the API on PostgreSQL, that Nexts sent together each save their own
// answer and move their own clock, and that a student whose attempt another transaction holds keeps nobody else
// waiting.
import type { QuizQuestion } from "@trainwise/contract/quiz";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, seedCategory, studentInput } from "../../test/fixtures.ts";
import { recordFocusLoss } from "./repository/attempt-writes.ts";
import { nextInOneGoStatement } from "./repository/clock-statements.ts";
import { Batches, MOST_PER_BATCH } from "./repository/next-batches.ts";

/** A runner whose batches end when the test says, each request answered with its text upper-cased. */
function heldRunner() {
  const sent: string[][] = [];
  const ends: (() => void)[] = [];
  const runBatch = (requests: string[]) => {
    sent.push(requests);
    return new Promise<string[]>((resolve) => ends.push(() => resolve(requests.map((r) => r.toUpperCase()))));
  };
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
    const batches = new Batches(runBatch, studentOf);
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

  it("never puts two Nexts of one student in a batch, and keeps the order of arrival", async () => {
    const { sent, runBatch, endNext } = heldRunner();
    const batches = new Batches(runBatch, studentOf);
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
    const batches = new Batches(runBatch, studentOf);
    const all = Array.from({ length: MOST_PER_BATCH + 3 }, (_, index) => batches.take(`s${index}:1`));
    await endNext();
    expect(sent.map((batch) => batch.length)).toEqual([1, MOST_PER_BATCH]);
    await endNext();
    expect(sent.map((batch) => batch.length)).toEqual([1, MOST_PER_BATCH, 2]);
    await endNext();
    expect(await Promise.all(all)).toHaveLength(MOST_PER_BATCH + 3);
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
    const batches = new Batches(runBatch, studentOf);
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
  const { app, database } = await createTestApp();
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
  async function started(driveCode: string) {
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

  it("takes a student's double click once, and keeps nobody waiting for an attempt another transaction holds", async () => {
    const code = await pacedDrive("Held attempt");
    const [held, ...others] = await Promise.all(Array.from({ length: 6 }, () => started(code)));
    if (!held) throw new Error("no student");
    // The held student's submit (or an admin ending the attempt) holds the attempt's row.
    const holder = await database.pool.connect();
    try {
      await holder.query("begin");
      await holder.query("select 1 from attempts where id = $1 for update", [held.attemptId]);
      let heldAnswered = false;
      const heldNext = next(held.token, held.first, optionStarting(held.first, "right")).then((reply) => {
        heldAnswered = true;
        return reply;
      });
      // Everyone else's Next (and a second, repeated one of the first of them) is answered while the row is held.
      const [twice] = others;
      if (!twice) throw new Error("no student");
      const replies = await Promise.all([
        ...others.map((student) => next(student.token, student.first, optionStarting(student.first, "right"))),
        next(twice.token, twice.first, optionStarting(twice.first, "wrong A")),
      ]);
      for (const reply of replies) expect(reply.json(), reply.body).toMatchObject({ currentIndex: 1 });
      // Both of the double click are answered with question 2; the first answer stands (a repeated Next
      // changes nothing), whichever of the two reached the server first.
      const twiceStored = await storedFirst(twice.attemptId);
      expect(twiceStored?.position).toBe(1);
      expect([optionStarting(twice.first, "right"), optionStarting(twice.first, "wrong A")]).toContain(
        twiceStored?.selected,
      );
      expect(heldAnswered).toBe(false);
      await holder.query("commit");
      const heldReply = await heldNext;
      expect(heldReply.statusCode, heldReply.body).toBe(200);
      expect(heldReply.json()).toMatchObject({ currentIndex: 1 });
      expect(await storedFirst(held.attemptId)).toEqual({
        selected: optionStarting(held.first, "right"),
        position: 1,
      });
    } finally {
      holder.release();
    }
  });

  it("keeps nobody waiting for a student whose lost focus is being counted", async () => {
    const code = await pacedDrive("Focus counted");
    const [held, ...others] = await Promise.all(Array.from({ length: 5 }, () => started(code)));
    if (!held) throw new Error("no student");
    const { rows } = await database.pool.query<{ student_id: string }>(
      "select student_id from attempts where id = $1",
      [held.attemptId],
    );
    // The page reports a lost focus on question 1; its transaction is still open when the Nexts arrive.
    let counted: () => void = () => {};
    const countedNow = new Promise<void>((resolve) => (counted = resolve));
    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const counting = database.db.transaction(async (tx) => {
      await recordFocusLoss(tx, rows[0]?.student_id as string, 0);
      counted();
      await finished;
    });
    await countedNow;
    let heldAnswered = false;
    const heldNext = next(held.token, held.first, optionStarting(held.first, "right")).then((reply) => {
      heldAnswered = true;
      return reply;
    });
    const replies = await Promise.all(
      others.map((student) => next(student.token, student.first, optionStarting(student.first, "right"))),
    );
    for (const reply of replies) expect(reply.json(), reply.body).toMatchObject({ currentIndex: 1 });
    expect(heldAnswered).toBe(false);
    finish();
    await counting;
    expect((await heldNext).json()).toMatchObject({ currentIndex: 1 });
    expect(await storedFirst(held.attemptId)).toEqual({ selected: optionStarting(held.first, "right"), position: 1 });
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
