// A released result's review, as the test's review policy allows it: each question with a tick or a cross, the
// student's choice, and the right option once the drive has released what hides its key (decision 026). Shown on
// the result page and on the results page a student reaches later.
import type { ReleasedResult } from "@trainwise/contract/quiz";
import { formatInZone } from "../../lib/zoned-time.ts";
import { RichText } from "../ui/rich-text.tsx";

/** What the review leaves out and when it comes, in a sentence; nothing when everything is shown. */
export function reviewNote(review: ReleasedResult["review"]): string | null {
  if (!review.ticksShown) {
    if (review.policy === "score_only") return "This test shows your score only.";
    return review.ticksFrom
      ? `Which answers were right is shown after the test closes, on ${formatInZone(review.ticksFrom, review.timeZone)}.`
      : "Which answers were right is shown after the test closes.";
  }
  if (review.rightShown) return null;
  return review.rightFrom
    ? `The right answers are shown after the test closes, on ${formatInZone(review.rightFrom, review.timeZone)}, when nobody can still use them.`
    : "The right answers are shown after the test closes, when nobody can still use them.";
}

function Options({ label, options }: { label: string; options: string[] }) {
  return (
    <p className="mt-1 text-sm text-slate-700">
      <span className="font-semibold">{label}:</span>{" "}
      {options.map((html, place) => (
        // The option's server-rendered, sanitised inline HTML, as the quiz showed it; one answer's options, in order.
        <span key={place}>
          {place > 0 && "; "}
          <RichText html={html} inline />
        </span>
      ))}
    </p>
  );
}

export function AnswerReview({ result }: { result: ReleasedResult }) {
  return (
    <ol className="mt-6 space-y-2">
      {result.answers.map((answer, position) => (
        <li key={answer.questionId} className="flex items-start gap-3 rounded border border-slate-200 px-4 py-3">
          {/* One width for the three marks, so the question numbers after them line up. */}
          <span
            aria-hidden="true"
            className={`w-4 shrink-0 text-center font-bold ${answer.isCorrect ? "text-green-700" : answer.answered ? "text-red-700" : "text-slate-600"}`}
          >
            {answer.isCorrect ? "✓" : answer.answered ? "✗" : "–"}
          </span>
          <div className="min-w-0 flex-1">
            <span className="sr-only">
              {answer.isCorrect
                ? "Correct: "
                : !answer.answered
                  ? "Not answered: "
                  : answer.mark > 0
                    ? "Partly right: "
                    : "Wrong: "}
            </span>
            <div className="flex gap-1">
              <span className="shrink-0">{position + 1}.</span>
              <RichText html={answer.question.html} className="flex-1" />
            </div>
            {answer.chosen.length > 0 && <Options label="Your answer" options={answer.chosen} />}
            {answer.right.length > 0 && <Options label="Right answer" options={answer.right} />}
          </div>
          {answer.answered && !answer.isCorrect && answer.mark !== 0 && (
            <span
              className={`shrink-0 rounded px-2 py-0.5 text-sm ${answer.mark > 0 ? "bg-amber-100 text-amber-900" : "bg-red-100 text-red-900"}`}
            >
              {/* A partly right answer's share of the question's mark, or what an option weighted below 0 cost. */}
              {answer.mark.toFixed(2)} of 1
            </span>
          )}
          {!answer.answered && (
            <span aria-hidden="true" className="shrink-0 rounded bg-slate-100 px-2 py-0.5 text-sm text-slate-700">
              Not answered
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}
