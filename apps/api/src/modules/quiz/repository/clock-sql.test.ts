// The quiz clock exists twice: timing.ts (the reference, for one attempt in the service) and clock-sql.ts (for
// the statements that check it where the row is locked). These properties run both on generated clocks, and the
// statements built from clock-sql.ts on stored attempts, and compare them with timing.ts (decision 004).
//
// The clocks are those the quiz can reach: a start writes the deadline as every window back to back, cut at the
// drive's close when its closing ends running attempts, and only a paced attempt moves, to a later question whose
// window starts no later than scheduled (Next closes a window early; an answer the timer has moved on records the
// scheduled start). Without a cut every paced window ends by the deadline; with one, the deadline ends the attempt
// first, and acceptsAnswer, readClock and their SQL check it on paced attempts too. An attempt timed per section
// (decision 034) runs that clock within its open section: each earlier section closed, early (left) or when its
// time ended, the open one started then and ends by its own time or the attempt's deadline, whichever is first.
import { DEADLINE_GRACE_SECONDS } from "@trainwise/contract/constants";
import { type SQL, sql } from "drizzle-orm";
import { TransactionRollbackError } from "drizzle-orm/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Transaction } from "../../../db/client.ts";
import { createTestApp } from "../../../test/app.ts";
import { registerStudent, seedQuestions } from "../../../test/fixtures.ts";
import {
  type AttemptClock,
  acceptsAnswer,
  deadlineFrom,
  disconnectCredit,
  hasRunOut,
  isRunning,
  nextSectionClock,
  readClock,
  resumedClock,
  type SectionTime,
  sectionClock,
  sectionEndsAt,
  sectionsSeconds,
  windowStart,
  withAddedTime,
} from "../timing.ts";
import { addTime } from "./attempt-writes.ts";
import {
  acceptsAnswerSql,
  clockColumns,
  clockRunningSql,
  deadlineSql,
  endsByCloseSql,
  positionNowSql,
  runOutSql,
  sectionsSecondsSql,
  windowStartSql,
} from "./clock-sql.ts";
import { overdueAttempts, saveAnswerIfOpen } from "./clock-statements.ts";
import { leaveSectionIfOpen } from "./section-statements.ts";

const GRACE_MS = DEADLINE_GRACE_SECONDS * 1000;
const SOME_MORNING = Date.parse("2026-11-26T09:00:00.000Z");

interface ClockCase {
  clock: AttemptClock;
  /** Timed per section (the sections' clocks stored on the attempt), or one section, the attempt's (stored as null). */
  sectioned: boolean;
  sections: SectionTime[];
  totalQuestions: number;
  startedAt: Date;
  /** The attempt's last moment: every section back to back from the start, or the drive's cut. */
  deadlineAt: Date;
  /** A served question's position. */
  position: number;
  /** When the drive's closing cut the deadline, if it did. */
  endsBy: Date | null;
  /** Seconds an invigilator added while the clock ran (withAddedTime), 0 if none. */
  addedSeconds: number;
  now: Date;
}

/** The test's seconds times the student's extra time, rounded as a start rounds them. */
const secondsPerQuestion = fc
  .tuple(fc.integer({ min: 1, max: 120 }), fc.constantFrom(1, 1.25, 1.5, 2, 3))
  .map(([seconds, multiplier]) => Math.max(1, Math.round(seconds * multiplier)));

/** An attempt's sections: one, the attempt's own (not timed per section), or two or three with clocks of their own. */
function sectionsOf(maxQuestions: number) {
  const one = fc
    .record({
      questionCount: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: maxQuestions })),
      paced: fc.boolean(),
      secondsPerQuestion,
    })
    .map((section) => ({ sectioned: false, sections: [section] }));
  const several = fc
    .array(fc.record({ questionCount: fc.integer({ min: 1, max: 3 }), paced: fc.boolean(), secondsPerQuestion }), {
      minLength: 2,
      maxLength: 3,
    })
    .filter((sections) => sections.reduce((total, section) => total + section.questionCount, 0) <= maxQuestions)
    .map((sections) => ({ sectioned: true, sections }));
  return fc.oneof(one, several);
}

/**
 * A clock the quiz can reach (see the top of the file), a served position, and a moment near one of the clock's
 * edges: a window's opening or closing, the grace after it, the section's deadline, its last window's end.
 */
function clockCase(maxQuestions: number): fc.Arbitrary<ClockCase> {
  const shape = fc.record({
    shape: sectionsOf(maxQuestions),
    startedAt: fc.integer({ min: 0, max: 86_400_000 }).map((ms) => SOME_MORNING + ms),
  });
  return shape.chain(({ shape: { sectioned, sections }, startedAt }) => {
    const totalQuestions = sections.reduce((total, section) => total + section.questionCount, 0);
    const allMs = sectionsSeconds(sections) * 1000;
    return fc
      .record({
        open: fc.integer({ min: 0, max: sections.length - 1 }),
        // How much earlier than scheduled the open section started: the time its earlier sections were left early.
        leftEarly: fc.double({ min: 0, max: 1, noNaN: true }),
        // A drive closing that ends running attempts, anywhere from the start to after the last window.
        endsBy: fc.option(fc.integer({ min: startedAt, max: startedAt + allMs + 120_000 }), { nil: null, freq: 3 }),
        position: fc.integer({ min: 0, max: totalQuestions - 1 }),
      })
      .chain(({ open, leftEarly, endsBy, position }) => {
        const first = sections.slice(0, open).reduce((total, section) => total + section.questionCount, 0);
        const earlierMs = sectionsSeconds(sections, 0, first) * 1000;
        const deadlineAt = Math.min(startedAt + allMs, endsBy ?? Number.POSITIVE_INFINITY);
        // A section never starts after the attempt's deadline: it starts when the one before it ended, at the latest.
        const sectionStart = Math.min(startedAt + earlierMs - Math.round(leftEarly * earlierMs), deadlineAt);
        const base = sectionClock(sections, first, new Date(sectionStart), new Date(deadlineAt)) as AttemptClock;
        const windowMs = base.secondsPerQuestion * 1000;
        const current = base.paced
          ? fc.integer({ min: base.sectionFirst, max: base.sectionEnd - 1 })
          : fc.constant(first);
        return current.chain((currentPosition) => {
          // How much earlier than scheduled the current window opened: the time Next presses saved.
          const passed = currentPosition - first;
          const hurried = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: passed * windowMs }));
          return hurried.chain((hurriedMs) => {
            const reached: AttemptClock = {
              ...base,
              currentPosition,
              currentStartedAt: new Date(sectionStart + passed * windowMs - hurriedMs),
            };
            const cut = endsBy === null ? null : new Date(endsBy);
            // Sometimes an invigilator added time at a moment near one of the clock's edges (decision 037).
            const adding = fc.option(
              fc.record({
                at: fc.tuple(edgeOf(reached, position), nearby(windowMs)).map(([edge, offset]) => edge + offset),
                seconds: fc.integer({ min: 1, max: 600 }),
              }),
              { nil: null, freq: 3 },
            );
            return adding.chain((added) => {
              const after =
                added && withAddedTime(reached, new Date(deadlineAt), cut, new Date(added.at), added.seconds);
              const clock = after ? after.clock : reached;
              const at = (moment: number): ClockCase => ({
                clock,
                sectioned,
                sections,
                totalQuestions,
                startedAt: new Date(startedAt),
                deadlineAt: after ? after.deadlineAt : new Date(deadlineAt),
                position,
                now: new Date(moment),
                endsBy: cut,
                addedSeconds: after && added ? added.seconds : 0,
              });
              return fc.tuple(edgeOf(clock, position), nearby(windowMs)).map(([edge, offset]) => at(edge + offset));
            });
          });
        });
      });
  });
}

function edgeOf(clock: AttemptClock, position: number): fc.Arbitrary<number> {
  const windowMs = clock.secondsPerQuestion * 1000;
  const opens = windowStart(clock, position).getTime();
  const deadline = clock.sectionDeadlineAt.getTime();
  const lastEnd = Math.min(deadline, windowStart(clock, clock.sectionEnd).getTime());
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        clock.currentStartedAt.getTime(),
        opens,
        opens + windowMs,
        opens + windowMs + GRACE_MS,
        deadline,
        deadline + GRACE_MS,
        lastEnd + GRACE_MS,
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: clock.currentPosition, max: clock.sectionEnd })
        .map((other) => windowStart(clock, other).getTime()),
    },
  );
}

/** A millisecond either side, a few seconds either side, or anywhere within a few windows. */
function nearby(windowMs: number): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(-1, 0, 1) },
    { weight: 2, arbitrary: fc.integer({ min: -2 * GRACE_MS, max: 2 * GRACE_MS }) },
    { weight: 1, arbitrary: fc.integer({ min: -3 * windowMs, max: 3 * windowMs }) },
  );
}

describe("the quiz clock in SQL", async () => {
  const { app, database } = await createTestApp();
  const { input } = await registerStudent(app);
  const [registered] = (
    await database.pool.query<{ id: string; driveId: string }>(
      `select id, drive_id as "driveId" from students where email = $1`,
      [input.email],
    )
  ).rows;
  if (!registered) throw new Error("The student was not stored.");
  const student = registered;
  const MAX_STORED_QUESTIONS = 6;
  await seedQuestions(database.db, MAX_STORED_QUESTIONS);
  const questions = (
    await database.pool.query<{ id: string; options: string[] }>(
      `select q.id, array_agg(o.id order by o.position) as options
       from questions q join question_options o on o.question_id = q.id group by q.id order by q.id`,
    )
  ).rows;

  /** Runs `work` in a transaction that is rolled back, so every generated attempt starts from the same data. */
  async function rolledBack<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    let outcome: { value: T } | undefined;
    try {
      await database.db.transaction(async (tx) => {
        outcome = { value: await work(tx) };
        tx.rollback();
      });
    } catch (error) {
      if (!(error instanceof TransactionRollbackError)) throw error;
    }
    if (!outcome) throw new Error("The work did not finish.");
    return outcome.value;
  }

  /**
   * Stores the clock as the student's open attempt with its served questions; `at(ms)` is the SQL for the
   * timestamp at `ms` on the clock's own time line.
   */
  async function storeAttempt(tx: Transaction, generated: ClockCase, at: (ms: number) => SQL) {
    const { clock, startedAt, deadlineAt, sectioned, sections, totalQuestions } = generated;
    const timingMode = sectioned ? "per_section" : clock.paced ? "per_question" : "whole_quiz";
    const served = sections.map(({ questionCount, paced, secondsPerQuestion }, index) => ({
      name: `Section ${index + 1}`,
      questionCount,
      negativeMark: 0,
      cutOff: null,
      timing: paced ? "per_question" : "section_clock",
      secondsPerQuestion,
    }));
    const { rows } = await tx.execute<{ id: string }>(sql`
      insert into attempts (student_id, drive_id, started_at, deadline_at, seconds_per_question, total_questions,
                            timing_mode, paced, review_policy, current_position, current_started_at, sections,
                            section_first, section_end, section_deadline_at, added_seconds)
      values (${student.id}::uuid, ${student.driveId}::uuid, ${at(startedAt.getTime())},
              ${at(deadlineAt.getTime())}, ${clock.secondsPerQuestion}, ${totalQuestions},
              ${timingMode}::timing_mode, ${clock.paced}, 'score_and_ticks',
              ${clock.currentPosition}, ${at(clock.currentStartedAt.getTime())},
              ${sectioned ? JSON.stringify(served) : null}::jsonb, ${clock.sectionFirst},
              ${sectioned ? clock.sectionEnd : null}::int,
              ${sectioned ? at(clock.sectionDeadlineAt.getTime()) : null}, ${generated.addedSeconds})
      returning id`);
    const attemptId = rows[0]?.id as string;
    for (let position = 0; position < totalQuestions; position++) {
      const question = questions[position];
      // A PostgreSQL array literal, as a start writes it (the sql tag would spread an array into a list).
      const optionOrder = `{${question?.options.join(",")}}`;
      await tx.execute(sql`
        insert into attempt_questions (attempt_id, position, question_id, option_order)
        values (${attemptId}::uuid, ${position}, ${question?.id}::uuid, ${optionOrder}::uuid[])`);
    }
    return attemptId;
  }

  it("reads a clock in SQL exactly as timing.ts does", async () => {
    const clock = clockColumns("clock");
    const reading = `select
        ${positionNowSql(clock, "$8::timestamptz")} as "positionNow",
        ${windowStartSql(clock, "$7::int")} as "windowStart",
        ${acceptsAnswerSql(clock, { position: "$7::int", now: "$8::timestamptz", graceSeconds: "$9::int" })} as accepts,
        ${runOutSql(clock, "$8::timestamptz", "$9::int")} as "runOut",
        ${clockRunningSql(clock, "$8::timestamptz")} as running,
        ${endsByCloseSql(deadlineSql({ startedAt: "$10::timestamptz", seconds: "$12::int" }), "$11::timestamptz")}
          as deadline
      from (select $1::int as current_position, $2::timestamptz as current_started_at,
                   $3::int as seconds_per_question, $4::int as total_questions, $5::boolean as paced,
                   $6::timestamptz as deadline_at, $13::int as section_first, $14::int as section_end,
                   $15::timestamptz as section_deadline_at) as clock`;
    await fc.assert(
      fc.asyncProperty(clockCase(25), async (generated) => {
        const {
          clock,
          sectioned,
          sections,
          totalQuestions,
          startedAt,
          deadlineAt,
          position,
          now,
          endsBy,
          addedSeconds,
        } = generated;
        const { rows } = await database.pool.query<{
          positionNow: number;
          windowStart: Date;
          accepts: boolean;
          runOut: boolean;
          running: boolean;
          deadline: Date;
        }>(reading, [
          clock.currentPosition,
          clock.currentStartedAt,
          clock.secondsPerQuestion,
          totalQuestions,
          clock.paced,
          deadlineAt,
          position,
          now,
          DEADLINE_GRACE_SECONDS,
          startedAt,
          endsBy,
          sectionsSeconds(sections) + addedSeconds,
          clock.sectionFirst,
          // An attempt not timed per section keeps no section of its own: the clock reads the attempt's.
          sectioned ? clock.sectionEnd : null,
          sectioned ? clock.sectionDeadlineAt : null,
        ]);
        const inSql = rows[0];
        expect(inSql?.windowStart.getTime()).toBe(windowStart(clock, position).getTime());
        expect(inSql?.accepts).toBe(acceptsAnswer(clock, position, now));
        expect(inSql?.runOut).toBe(hasRunOut(clock, now));
        expect(inSql?.running).toBe(isRunning(clock, now));
        // A start's deadline: every window of every section back to back and the time added, unless the drive's
        // closing comes first; and the deadline the generated clocks carry.
        const scheduled = startedAt.getTime() + (sectionsSeconds(sections) + addedSeconds) * 1000;
        expect(inSql?.deadline.getTime()).toBe(endsBy === null ? scheduled : Math.min(scheduled, endsBy.getTime()));
        expect(inSql?.deadline.getTime()).toBe(deadlineAt.getTime());
        if (!sectioned) {
          // One section, the attempt's: its windows back to back from the start, and the time added.
          const fresh = {
            ...clock,
            currentPosition: 0,
            currentStartedAt: new Date(startedAt.getTime() + addedSeconds * 1000),
          };
          expect(Math.min(windowStart(fresh, totalQuestions).getTime(), endsBy?.getTime() ?? Infinity)).toBe(
            clock.sectionDeadlineAt.getTime(),
          );
        }
        // Only the paced statements read the position (Next, adding time), before the current window opened too.
        if (clock.paced) expect(inSql?.positionNow).toBe(readClock(clock, now).position);
      }),
      { numRuns: 600 },
    );
  });

  it("sums sections' time in SQL as timing.ts does, over any range of first positions", async () => {
    const reading = `select ${sectionsSecondsSql("x", "$2::int", "$3::int")} as seconds from (select $1::jsonb as sections) x`;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ questionCount: fc.integer({ min: 1, max: 200 }), paced: fc.boolean(), secondsPerQuestion }),
          {
            maxLength: 8,
          },
        ),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 400 }),
        async (sections, first, end) => {
          const { rows } = await database.pool.query<{ seconds: string }>(reading, [
            JSON.stringify(sections),
            first,
            end,
          ]);
          expect(Number(rows[0]?.seconds)).toBe(sectionsSeconds(sections, first, end));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("saves an answer in one statement exactly when acceptsAnswer takes it, and the clock reads the same after", async () => {
    await fc.assert(
      fc.asyncProperty(clockCase(MAX_STORED_QUESTIONS), async (generated) => {
        const { clock, position, now } = generated;
        const question = questions[position];
        const { saved, stored } = await rolledBack(async (tx) => {
          const attemptId = await storeAttempt(tx, generated, (ms) => sql`${new Date(ms).toISOString()}::timestamptz`);
          const saved = await saveAnswerIfOpen(tx, {
            studentId: student.id,
            questionId: question?.id as string,
            choice: { optionId: question?.options[0] ?? null, optionIds: null },
            now,
            graceSeconds: DEADLINE_GRACE_SECONDS,
          });
          const { rows } = await tx.execute<{ currentPosition: number; currentStartedAt: string; answer: string }>(sql`
            select a.current_position as "currentPosition", a.current_started_at as "currentStartedAt",
                   aq.selected_option_id as answer
            from attempts a join attempt_questions aq on aq.attempt_id = a.id and aq.position = ${position}
            where a.id = ${attemptId}::uuid`);
          return { saved, stored: rows[0] };
        });
        const accepted = acceptsAnswer(clock, position, now);
        expect(saved !== undefined).toBe(accepted);
        expect(stored?.answer ?? null).toBe(accepted ? (question?.options[0] ?? null) : null);
        if (!saved || !stored) return;
        const after: AttemptClock = {
          ...clock,
          currentPosition: stored.currentPosition,
          currentStartedAt: new Date(stored.currentStartedAt),
        };
        expect(saved.currentPosition).toBe(after.currentPosition);
        expect(new Date(saved.currentStartedAt).getTime()).toBe(after.currentStartedAt.getTime());
        // An answer to a window the timer has reached records where the timer took the attempt: the same reading.
        expect(after.currentPosition).toBe(
          clock.paced ? Math.max(clock.currentPosition, position) : clock.sectionFirst,
        );
        expect(readClock(after, now)).toEqual(readClock(clock, now));
        expect(windowStart(after, position)).toEqual(windowStart(clock, position));
      }),
      { numRuns: 200 },
    );
  });

  it("leaves a section in one statement exactly as nextSectionClock opens the next, or leaves it to the long way", async () => {
    const sectioned = clockCase(MAX_STORED_QUESTIONS).filter((generated) => generated.sectioned);
    await fc.assert(
      fc.asyncProperty(sectioned, fc.boolean(), async (generated, carries) => {
        const { clock, sections, totalQuestions, deadlineAt, position, now } = generated;
        // With or without the answer to the question at `position`, as the bench and an API client carry one.
        const question = questions[position];
        const answer = carries
          ? { questionId: question?.id as string, choice: { optionId: question?.options[0] ?? null, optionIds: null } }
          : undefined;
        const { left, stored, answered } = await rolledBack(async (tx) => {
          const attemptId = await storeAttempt(tx, generated, (ms) => sql`${new Date(ms).toISOString()}::timestamptz`);
          const left = await leaveSectionIfOpen(tx, {
            studentId: student.id,
            sectionFirst: clock.sectionFirst,
            now,
            graceSeconds: DEADLINE_GRACE_SECONDS,
            answer,
          });
          const { rows } = await tx.execute<Record<string, string | number | boolean>>(sql`
            select current_position as "currentPosition", current_started_at as "currentStartedAt",
                   seconds_per_question as "secondsPerQuestion", paced, section_first as "sectionFirst",
                   section_end as "sectionEnd", section_deadline_at as "sectionDeadlineAt", deadline_at as "deadlineAt"
            from attempts where id = ${attemptId}::uuid`);
          const { rows: answers } = await tx.execute<{ answer: string | null }>(sql`
            select selected_option_id as answer from attempt_questions
            where attempt_id = ${attemptId}::uuid and position = ${position}`);
          return { left, stored: rows[0], answered: answers[0]?.answer ?? null };
        });
        // The answer is saved whenever the open section closes here and takes it (acceptsAnswer), as saving one
        // would: then the long way, if it is taken, finds it saved.
        const closes = !hasRunOut(clock, now) && clock.sectionEnd < totalQuestions;
        const takes = acceptsAnswer(clock, position, now);
        expect(answered).toBe(carries && closes && takes ? (question?.options[0] ?? null) : null);
        // The common case: the open section, not the last, its time not run out, and the next with time left.
        const startsAt = new Date(Math.min(now.getTime(), sectionEndsAt(clock).getTime()));
        const candidate =
          clock.sectionEnd < totalQuestions
            ? sectionClock(sections, clock.sectionEnd, startsAt, deadlineAt)
            : undefined;
        const common =
          !hasRunOut(clock, now) && candidate && sectionEndsAt(candidate) > now && (!carries || takes)
            ? candidate
            : undefined;
        expect(left !== undefined).toBe(common !== undefined);
        const storedClock = {
          currentPosition: stored?.currentPosition,
          currentStartedAt: new Date(String(stored?.currentStartedAt)),
          secondsPerQuestion: stored?.secondsPerQuestion,
          paced: stored?.paced,
          sectionFirst: stored?.sectionFirst,
          sectionEnd: stored?.sectionEnd,
          sectionDeadlineAt: new Date(String(stored?.sectionDeadlineAt)),
        };
        if (!common || !left) {
          // Nothing changed: the long way decides.
          expect(storedClock).toEqual(clock);
          return;
        }
        expect(nextSectionClock(clock, sections, deadlineAt, now)).toEqual(common);
        expect(storedClock).toEqual(common);
        expect(new Date(String(stored?.deadlineAt))).toEqual(deadlineFrom(common, sections, deadlineAt));
        expect({
          ...left,
          currentStartedAt: new Date(left.currentStartedAt),
          sectionDeadlineAt: new Date(left.sectionDeadlineAt),
        }).toMatchObject(common);
        // The slots it answers with show the answer saved.
        const slot = left.slots.find((candidate) => candidate.questionId === question?.id);
        expect(slot?.selectedOptionId ?? null).toBe(carries ? (question?.options[0] ?? null) : null);
      }),
      { numRuns: 300 },
    );
  });

  it("adds time in one statement exactly as withAddedTime does, a pause's as resumedClock and a lost connection's as disconnectCredit says, cut at the drive's closing", async () => {
    await fc.assert(
      fc.asyncProperty(
        clockCase(MAX_STORED_QUESTIONS),
        fc.integer({ min: 1, max: 600 }),
        fc.constantFrom("invigilator", "pause", "credit"),
        async (generated, seconds, kind) => {
          const { clock, deadlineAt, endsBy, now } = generated;
          const { added, stored } = await rolledBack(async (tx) => {
            const attemptId = await storeAttempt(
              tx,
              generated,
              (ms) => sql`${new Date(ms).toISOString()}::timestamptz`,
            );
            // The drive's closing, when it cuts the attempt: what the statement reads the cut from.
            if (endsBy) {
              await tx.execute(sql`update drives set closes_at = ${endsBy.toISOString()}::timestamptz,
              closing_ends_attempts = true where id = ${student.driveId}::uuid`);
            }
            // A pause from `now` that lasted `seconds` is given back at `now` (decision 039), and so is a silence
            // whose grace ran out at `now` and which lasted `seconds` beyond it (decision 040).
            const given = kind === "invigilator" ? { mostSeconds: 1_000_000 } : kind;
            const added = await addTime(tx, { studentId: student.id }, seconds, now, given);
            const { rows } = await tx.execute<Record<string, string | number | boolean>>(sql`
            select current_position as "currentPosition", current_started_at as "currentStartedAt",
                   coalesce(section_deadline_at, deadline_at) as "sectionDeadlineAt", deadline_at as "deadlineAt",
                   added_seconds as "addedSeconds", paused_seconds as "pausedSeconds",
                   credited_seconds as "creditedSeconds"
            from attempts where id = ${attemptId}::uuid`);
            return { added, stored: rows[0] };
          });
          const graceSeconds = 30;
          const credit = disconnectCredit(
            new Date(now.getTime() - graceSeconds * 1000),
            new Date(now.getTime() + seconds * 1000),
            graceSeconds,
            Number.POSITIVE_INFINITY,
          );
          const expected =
            kind === "pause"
              ? resumedClock(clock, deadlineAt, endsBy, now, new Date(now.getTime() + seconds * 1000))
              : kind === "credit" && credit
                ? withAddedTime(clock, deadlineAt, endsBy, credit.from, credit.seconds)
                : withAddedTime(clock, deadlineAt, endsBy, now, seconds);
          if (kind === "credit") expect(credit).toEqual({ from: now, seconds });
          const storedClock = {
            ...clock,
            currentPosition: stored?.currentPosition,
            currentStartedAt: new Date(String(stored?.currentStartedAt)),
            sectionDeadlineAt: new Date(String(stored?.sectionDeadlineAt)),
          };
          if (!expected) {
            // Not running: nothing written.
            expect(added).toEqual([]);
            expect(storedClock).toEqual(clock);
            expect(new Date(String(stored?.deadlineAt))).toEqual(deadlineAt);
            return;
          }
          expect(added).toEqual([
            { studentId: student.id, movedSeconds: (expected.deadlineAt.getTime() - deadlineAt.getTime()) / 1000 },
          ]);
          expect(storedClock).toEqual(expected.clock);
          expect(new Date(String(stored?.deadlineAt))).toEqual(expected.deadlineAt);
          expect(stored?.addedSeconds).toBe(generated.addedSeconds + (kind === "invigilator" ? seconds : 0));
          expect(stored?.pausedSeconds).toBe(kind === "pause" ? seconds : 0);
          // A lost connection's credit counts what the clock moved, which a closing may cut short (decision 040).
          expect(stored?.creditedSeconds).toBe(
            kind === "credit" ? (expected.deadlineAt.getTime() - deadlineAt.getTime()) / 1000 : 0,
          );
          // The question the student has open keeps its place, with the time added to it unless a closing cuts it.
          const [before, after] = [readClock(clock, now), readClock(expected.clock, now)];
          expect(after.position).toBe(before.position);
          if (endsBy === null) expect(after.secondsLeft).toBe(before.secondsLeft + seconds);
          else expect(after.secondsLeft).toBeGreaterThanOrEqual(before.secondsLeft);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("sweeps exactly the open attempts whose time hasRunOut says is up", async () => {
    await fc.assert(
      fc.asyncProperty(clockCase(MAX_STORED_QUESTIONS), async (generated) => {
        const { clock, now } = generated;
        // The sweep reads the transaction's now(), which has microseconds: the attempt is stored on a time line
        // shifted to it, to the millisecond, so that `now` on the clock's line is now() on the stored one.
        const swept = await rolledBack(async (tx) => {
          const attemptId = await storeAttempt(
            tx,
            generated,
            (ms) => sql`now() + ${ms - now.getTime()}::bigint * interval '1 millisecond'`,
          );
          return (await overdueAttempts(tx, DEADLINE_GRACE_SECONDS)).some((attempt) => attempt.id === attemptId);
        });
        expect(swept).toBe(hasRunOut(clock, now));
      }),
      { numRuns: 200 },
    );
  });
});

describe("a drive's pause (decision 039)", () => {
  it("makes a clock running at the pause read, from its resumption on, what it read from the pause on", () => {
    fc.assert(
      fc.property(
        clockCase(25),
        fc.integer({ min: 1, max: 7200 }),
        fc.integer({ min: 0, max: 4_000_000 }),
        (generated, pauseSeconds, afterMs) => {
          const { clock, deadlineAt, now: pausedAt } = generated;
          const resumedAt = new Date(pausedAt.getTime() + pauseSeconds * 1000);
          const resumed = resumedClock(clock, deadlineAt, null, pausedAt, resumedAt);
          if (!isRunning(clock, pausedAt)) {
            // Its time was up (or in the grace after it) when the drive paused: nothing to give back.
            expect(resumed).toBeUndefined();
            return;
          }
          expect(resumed?.deadlineAt.getTime()).toBe(deadlineAt.getTime() + pauseSeconds * 1000);
          const fromPause = new Date(pausedAt.getTime() + afterMs);
          const fromResumption = new Date(resumedAt.getTime() + afterMs);
          const stood = resumed?.clock as AttemptClock;
          expect(readClock(stood, fromResumption)).toEqual(readClock(clock, fromPause));
          expect(hasRunOut(stood, fromResumption)).toBe(hasRunOut(clock, fromPause));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
