// What the server itself sees of how an attempt was answered, beside the focus losses the quiz page reports. A
// page can be made never to report a lost focus; it cannot hide when its answers arrive. Two signals come from
// the answers that stand (each question's latest save), both shown to admins to compare candidates and never used
// to block or mark anyone:
//
// - late answers: on a per-question timed attempt, a question whose answer was saved in the last quarter of its
//   time (time spent reading, or looking the answer up; a placeholder saved at once and changed late counts by
//   its change);
// - answers in a burst: answers saved less than 3 seconds after the one before, in a run of at least 3 (faster
//   than a question can be read: typed in from somewhere else, or placeholders all changed in a rush).
//
// Decision 023 says what they cannot show.
import { z } from "zod";

export const ANSWER_TIMING = {
  /** A question answered after this share of its time is a late answer. */
  lateShare: 0.75,
  /** Answers saved less than this many seconds after the one before follow it closely... */
  burstGapSeconds: 3,
  /** ...and a run of at least this many such answers (counting the first) is a burst. */
  burstRun: 3,
} as const;

/** When one served question's answer was last saved, as the server recorded it; nulls for an unanswered one. */
export interface AnswerTime {
  /** Milliseconds since the epoch. */
  answeredAt: number | null;
  /** From the question's window opening to that save; null unless the attempt is timed per question. */
  msToAnswer: number | null;
}

/** The signals as admins are sent them, beside the attempt's focus losses. */
export const answerTimingSchema = z.object({
  /** Questions answered in the last quarter of their time; null when the attempt is not timed per question. */
  lateAnswers: z.number().int().nullable(),
  /** Answers that arrived in a burst. */
  burstAnswers: z.number().int(),
});
export type AnswerTimingSignals = z.infer<typeof answerTimingSchema>;

/** The signals of one attempt from its questions' answer times (any order); `secondsPerQuestion` when paced. */
export function answerTimingSignals(
  times: readonly AnswerTime[],
  secondsPerQuestion: number | null,
): AnswerTimingSignals {
  const late =
    secondsPerQuestion === null
      ? null
      : times.filter(
          (time) => time.msToAnswer !== null && time.msToAnswer >= ANSWER_TIMING.lateShare * secondsPerQuestion * 1000,
        ).length;
  const arrivals = times
    .map((time) => time.answeredAt)
    .filter((at): at is number => at !== null)
    .sort((a, b) => a - b);
  let burstAnswers = 0;
  let run = 1;
  for (let index = 1; index <= arrivals.length; index++) {
    const close =
      index < arrivals.length &&
      (arrivals[index] as number) - (arrivals[index - 1] as number) < ANSWER_TIMING.burstGapSeconds * 1000;
    if (close) {
      run++;
      continue;
    }
    if (run >= ANSWER_TIMING.burstRun) burstAnswers += run;
    run = 1;
  }
  return { lateAnswers: late, burstAnswers };
}
