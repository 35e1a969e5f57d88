// How a student answers one question: a radio group for a single-answer or true/false question, checkboxes for
// a multiple-answer one ("choose all that apply"), in a fieldset whose legend is the question. The choice is one
// string, as the quiz's state keeps it: an option's id, or a multiple answer's ids joined by "," (see
// quiz-machine.ts `answerOf`).
import type { QuizQuestion } from "@trainwise/contract/quiz";
import { useId } from "react";
import { RichText } from "../ui/rich-text.tsx";

const LETTERS = "ABCDEFGHIJ";

export function AnswerOptions({
  question,
  legend,
  choice,
  onChoose,
  disabled = false,
}: {
  question: QuizQuestion;
  /** The question as the fieldset's legend (the page puts its heading there). */
  legend: React.ReactNode;
  choice: string | undefined;
  onChoose: (choice: string) => void;
  /** Held still: the answer can no longer change (the page is leaving the question's section). */
  disabled?: boolean;
}) {
  const hintId = useId();
  const multiple = question.type === "multiple";
  const chosen = new Set(choice ? choice.split(",") : []);

  function toggle(optionId: string, checked: boolean) {
    const next = question.options
      .map((option) => option._id)
      .filter((id) => (id === optionId ? checked : chosen.has(id)));
    // Like a radio group, a multiple answer once given cannot be emptied: the last ticked box stays ticked.
    if (next.length > 0) onChoose(next.join(","));
  }

  return (
    // min-w-0: a fieldset is at least as wide as its content by default, so a long code line would widen the page.
    <fieldset aria-describedby={multiple ? hintId : undefined} disabled={disabled} className="min-w-0">
      <legend className="w-full min-w-0">{legend}</legend>
      {multiple && (
        <p id={hintId} className="mt-2 font-medium text-slate-700">
          Choose all that apply.
        </p>
      )}
      <div className="mt-4 space-y-3">
        {question.options.map((option, optionIndex) => (
          <label
            key={option._id}
            className="flex cursor-pointer items-center gap-3 rounded border border-slate-300 px-4 py-3 hover:bg-brand-50 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
          >
            <input
              type={multiple ? "checkbox" : "radio"}
              name={`question-${question._id}`}
              value={option._id}
              checked={chosen.has(option._id)}
              onChange={(event) => (multiple ? toggle(option._id, event.target.checked) : onChoose(option._id))}
              className="h-5 w-5 accent-brand-700"
            />
            {/* The label's text, so the input's accessible name, is the letter and the option's rendered text. */}
            <span className="min-w-0 flex-1">
              {LETTERS[optionIndex]}. <RichText inline html={option.html} />
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
