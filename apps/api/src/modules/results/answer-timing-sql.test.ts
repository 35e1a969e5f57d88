// The answer-timing rule is written twice: in TypeScript (answerTimingSignals, for one attempt's result) and in
// SQL (answer-timing-sql.ts, for the lists of thousands). A property test runs both on generated answers: answers
// saved in runs around the burst gap (exactly on it too, and a fraction of a millisecond either side, which the
// result page's Date values do not hold), times to answer around the late share's mark, unanswered questions,
// answers saved in the same instant, attempts timed per question or not.
import { ANSWER_TIMING, type AnswerTime, answerTimingSignals } from "@trainwise/contract/answer-timing";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/database.ts";
import { BURST_ANSWERS_SQL, lateAnswersSql, withBurstsSql } from "./answer-timing-sql.ts";

describe("answer-timing signals in SQL", async () => {
  const database = await createTestDatabase();
  const gapMs = ANSWER_TIMING.burstGapSeconds * 1000;

  /** The signals in SQL of answers saved at `saved` (timestamps as PostgreSQL reads them) with `times`' ms to answer. */
  async function inSql(times: AnswerTime[], secondsPerQuestion: number | null, saved = savedAsText(times)) {
    const list = (values: (number | string | null)[]) => `{${values.map((value) => value ?? "NULL").join(",")}}`;
    const answers = sql`(select * from unnest(${list(saved)}::timestamptz[],
      ${list(times.map((time) => time.msToAnswer))}::int[],
      ${list(times.map((_, position) => position))}::int[]) as answer(answered_at, ms_to_answer, position))`;
    const { rows } = await database.db.execute<{ late_answers: number | null; burst_answers: number }>(
      sql`select ${lateAnswersSql(sql`${secondsPerQuestion}::int`)} as late_answers, ${BURST_ANSWERS_SQL} as burst_answers
          from ${withBurstsSql(answers)} timed`,
    );
    return { lateAnswers: rows[0]?.late_answers ?? null, burstAnswers: rows[0]?.burst_answers };
  }

  const savedAsText = (times: AnswerTime[]) =>
    times.map((time) => (time.answeredAt === null ? null : new Date(time.answeredAt).toISOString()));

  it("counts late answers and bursts exactly as answerTimingSignals does", async () => {
    const start = Date.parse("2026-11-27T10:00:00.000Z");
    // Gaps between answers that fall either side of the burst gap, or on it.
    const gap = fc.oneof(fc.integer({ min: 0, max: 2 * gapMs }), fc.constantFrom(0, gapMs - 1, gapMs, gapMs + 1));
    const seconds = fc.option(fc.integer({ min: 1, max: 40 }), { nil: null });
    // Times to answer around the mark of a whole number of seconds, so that each attempt's mark can be hit exactly.
    const msToAnswer = fc.option(
      fc
        .tuple(fc.integer({ min: 0, max: 40 }), fc.constantFrom(-1, 0, 1))
        .map(([steps, off]) => Math.max(0, steps * 750 + off)),
      { nil: null },
    );
    // PostgreSQL keeps microseconds; the result page reads the saved time as a Date, to the millisecond.
    const micros = fc.integer({ min: 0, max: 999 });
    const answer = fc.record({ gap, answered: fc.boolean(), msToAnswer, micros });
    await fc.assert(
      fc.asyncProperty(
        fc.array(answer, { maxLength: 30 }),
        seconds,
        fc.boolean(),
        async (drawn, secondsPerQuestion, shuffled) => {
          let at = start;
          const answers = drawn.map(({ gap, answered, msToAnswer, micros }) => {
            at += gap;
            const saved = answered
              ? `${new Date(at).toISOString().slice(0, -1)}${String(micros).padStart(3, "0")}Z`
              : null;
            return { time: { answeredAt: answered ? at : null, msToAnswer }, saved };
          });
          // The positions need not follow the order the answers came in.
          if (shuffled) answers.reverse();
          const times = answers.map((answer) => answer.time);
          const saved = answers.map((answer) => answer.saved);
          expect(await inSql(times, secondsPerQuestion, saved)).toEqual(answerTimingSignals(times, secondsPerQuestion));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("finds a burst and late answers where the rule says so", async () => {
    const at = (seconds: number, msToAnswer: number | null = null) => ({ answeredAt: seconds * 1000, msToAnswer });
    // Three answers 2 s apart, a pause, two more 1 s apart: one burst of three.
    expect(await inSql([at(0), at(2), at(4), at(30), at(31)], null)).toEqual({ lateAnswers: null, burstAnswers: 3 });
    // 30 s a question: 22.5 s is the last quarter's start.
    expect(await inSql([at(0, 22_499), at(40, 22_500), at(80, 29_000)], 30)).toEqual({
      lateAnswers: 2,
      burstAnswers: 0,
    });
    expect(await inSql([], 30)).toEqual({ lateAnswers: 0, burstAnswers: 0 });
  });
});
