// The palette of a quiz timed as a whole: every question's number and state (not visited, not answered, answered,
// marked for review, answered and marked), grouped by section when the test has sections; any number opens its
// question. Each state has its own shape as well as its colour, and each button says its state in words. On a test
// timed per section it shows the open section's questions only: an earlier section says it is closed, a later one
// that it is not open yet.
import {
  openQuestions,
  PALETTE_LABELS,
  type PaletteStatus,
  paletteStatus,
  type QuizState,
  timedPerSection,
} from "./quiz-machine.ts";

const LOOK: Record<PaletteStatus, { className: string; mark: string }> = {
  not_visited: { className: "border-slate-400 bg-white text-slate-800", mark: "" },
  not_answered: { className: "border-red-700 bg-red-50 text-red-800", mark: "" },
  answered: { className: "border-green-800 bg-green-700 text-white", mark: "✓" },
  marked: { className: "border-purple-800 bg-purple-100 text-purple-900 rounded-full", mark: "⚑" },
  answered_marked: { className: "border-purple-900 bg-purple-700 text-white rounded-full", mark: "✓⚑" },
};
const ORDER: PaletteStatus[] = ["answered", "not_answered", "not_visited", "marked", "answered_marked"];

/** A state's shape: a question's button (`size` "button"), or the smaller key of the summary, never taken for one. */
function Swatch({
  status,
  size = "button",
  children,
}: {
  status: PaletteStatus;
  size?: "button" | "key";
  children?: React.ReactNode;
}) {
  const look = LOOK[status];
  const box = size === "button" ? "h-11 min-w-11 font-semibold" : "h-6 min-w-6 text-xs";
  return (
    <span className={`relative inline-flex items-center justify-center rounded border-2 px-1 ${box} ${look.className}`}>
      {children}
      {look.mark && (
        <span
          aria-hidden="true"
          className="absolute -top-1.5 -right-1.5 rounded bg-white px-0.5 text-xs text-slate-900"
        >
          {look.mark}
        </span>
      )}
    </span>
  );
}

/**
 * How many questions are in each state: the summary a student reads before leaving the quiz (or the section, on a
 * test timed per section, whose counts are the open section's).
 */
export function paletteCounts(state: QuizState): Record<PaletteStatus, number> {
  const counts: Record<PaletteStatus, number> = {
    not_visited: 0,
    not_answered: 0,
    answered: 0,
    marked: 0,
    answered_marked: 0,
  };
  for (const { question } of openQuestions(state)) counts[paletteStatus(state, question._id)] += 1;
  return counts;
}

export function PaletteSummary({ state }: { state: QuizState }) {
  const counts = paletteCounts(state);
  return (
    <ul aria-label="Questions in each state" className="mt-3 grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
      {ORDER.map((status) => (
        <li key={status} className="flex items-center gap-2">
          <Swatch status={status} size="key" />
          <span>
            {PALETTE_LABELS[status]}: <strong>{counts[status]}</strong>
          </span>
        </li>
      ))}
    </ul>
  );
}

export function QuestionPalette({ state, onGo }: { state: QuizState; onGo: (index: number) => void }) {
  const groups =
    state.sections.length > 0
      ? state.sections.map((section) => ({
          name: section.name,
          from: section.firstPosition,
          to: section.firstPosition + section.questionCount,
        }))
      : [{ name: "", from: 0, to: state.total }];
  const perSection = timedPerSection(state);
  return (
    <nav aria-labelledby="palette-title" className="mt-8 rounded border border-slate-200 p-4">
      {/* A landmark, not a heading: the question's own heading stays the page's only second-level one. */}
      <p id="palette-title" className="text-lg font-semibold">
        Question palette
      </p>
      {groups.map((group) => (
        <div key={`${group.from}-${group.name}`} className="mt-3">
          {group.name && (
            <p id={`palette-section-${group.from}`} className="font-semibold text-slate-800">
              {group.name}
            </p>
          )}
          {perSection && group.to <= state.sectionFirst ? (
            <p className="mt-1 text-sm text-slate-700">Closed: you have left this section.</p>
          ) : perSection && group.from >= state.sectionEnd ? (
            <p className="mt-1 text-sm text-slate-700">Not open yet: it opens when you leave the section you are in.</p>
          ) : (
            <ol
              aria-labelledby={group.name ? `palette-section-${group.from}` : undefined}
              className="mt-2 flex flex-wrap gap-2"
            >
              {state.questions.slice(group.from, group.to).map((question, offset) => {
                if (!question) return null;
                const index = group.from + offset;
                const status = paletteStatus(state, question._id);
                const current = index === state.index;
                return (
                  <li key={question._id}>
                    <button
                      type="button"
                      aria-current={current ? "step" : undefined}
                      aria-label={`Question ${index + 1}: ${PALETTE_LABELS[status]}${current ? " (open now)" : ""}`}
                      onClick={() => onGo(index)}
                      disabled={state.leaving}
                      // The open question is underlined by a bar; the keyboard's focus is a ring: the two never look alike.
                      className={`rounded pb-1.5 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${current ? "border-b-4 border-slate-900" : "border-b-4 border-transparent"}`}
                    >
                      <Swatch status={status}>{index + 1}</Swatch>
                    </button>
                  </li>
                );
              })}
            </ol>
          )}
        </div>
      ))}
      <p className="mt-4 font-semibold text-slate-800">Summary</p>
      <PaletteSummary state={state} />
    </nav>
  );
}
