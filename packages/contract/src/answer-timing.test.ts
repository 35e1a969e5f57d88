import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ANSWER_TIMING, type AnswerTime, answerTimingSignals } from "./answer-timing.ts";

const at = (seconds: number, msToAnswer: number | null = null): AnswerTime => ({
  answeredAt: Date.UTC(2026, 10, 26, 9, 0, 0) + seconds * 1000,
  msToAnswer,
});
const unanswered: AnswerTime = { answeredAt: null, msToAnswer: null };

describe("what the server sees of when answers came", () => {
  it("counts a question answered in the last quarter of its time as late, only when timed per question", () => {
    const times = [at(0, 22_499), at(40, 22_500), at(80, 30_000), unanswered];
    expect(answerTimingSignals(times, 30).lateAnswers).toBe(2);
    expect(answerTimingSignals(times, null).lateAnswers).toBeNull();
  });

  it("counts answers less than 3 s apart in runs of 3 or more as a burst, in whatever order they are read", () => {
    // 0, 2.9, 5.8: a run of three; 20 and 22: a run of two; 60, 62.99, 65, 67.5: a run of four.
    const times = [at(0), at(2.9), at(5.8), at(20), at(22), at(60), at(62.99), at(65), at(67.5), unanswered];
    expect(answerTimingSignals(times, null).burstAnswers).toBe(7);
    expect(answerTimingSignals([...times].reverse(), null).burstAnswers).toBe(7);
    expect(answerTimingSignals([at(0), at(3), at(6)], null).burstAnswers).toBe(0);
    expect(answerTimingSignals([], 30)).toEqual({ lateAnswers: 0, burstAnswers: 0 });
  });

  it("never counts more answers than arrived, and a steady pace makes no burst", () => {
    const times = fc.array(
      fc.record({
        answeredAt: fc.option(fc.integer({ min: 0, max: 3_600_000 })),
        msToAnswer: fc.option(fc.integer({ min: 0, max: 120_000 })),
      }),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(times, fc.option(fc.integer({ min: 10, max: 600 })), (answers, secondsPerQuestion) => {
        const { lateAnswers, burstAnswers } = answerTimingSignals(answers, secondsPerQuestion);
        const arrived = answers.filter((answer) => answer.answeredAt !== null).length;
        expect(burstAnswers).toBeLessThanOrEqual(arrived);
        expect(burstAnswers === 0 || burstAnswers >= ANSWER_TIMING.burstRun).toBe(true);
        expect(lateAnswers === null).toBe(secondsPerQuestion === null);
        expect(lateAnswers ?? 0).toBeLessThanOrEqual(answers.length);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), (count) => {
        const steady = Array.from({ length: count }, (_, index) => at(index * ANSWER_TIMING.burstGapSeconds));
        expect(answerTimingSignals(steady, null).burstAnswers).toBe(0);
      }),
    );
  });
});
