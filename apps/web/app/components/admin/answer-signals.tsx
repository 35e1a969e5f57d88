// What the admin screens say beside focus losses, late answers and answers in a burst (decision 023): what each
// signal is, where it comes from, and what it cannot show, so that nobody reads a figure as proof.
import type { AnswerTimingSignals } from "@trainwise/contract/answer-timing";

export function AnswerSignalsNote() {
  return (
    <p className="mt-2 text-sm text-slate-700">
      <strong>Left the quiz</strong> is what the quiz page reports when it loses focus; a page can be changed so that it
      never reports it. <strong>Late</strong> counts answers saved in the last quarter of a question's time, and{" "}
      <strong>in a burst</strong> answers saved under 3 seconds apart, 3 or more in a row: these the server sees itself.
      None of them proves anything: a careful student answers late, a dropped connection delivers held answers in a
      burst, and answers read elsewhere at an ordinary pace show nowhere. Compare candidates with them; never mark
      anyone on them alone.
    </p>
  );
}

/** "2 late, 5 in a burst", or null when there is nothing to say (late is null unless timed per question). */
export function answerSignalsText({ lateAnswers, burstAnswers }: AnswerTimingSignals): string | null {
  const parts = [
    ...(lateAnswers ? [`${lateAnswers} late`] : []),
    ...(burstAnswers ? [`${burstAnswers} in a burst`] : []),
  ];
  return parts.length > 0 ? parts.join(", ") : null;
}
