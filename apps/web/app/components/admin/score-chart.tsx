import type { ResultsSummary } from "@trainwise/contract/students";

/** Bars of how many submitted quizzes fall in each score band; the numbers are in the text for screen readers. */
export function ScoreChart({ distribution }: { distribution: ResultsSummary["distribution"] }) {
  const highest = Math.max(1, ...distribution.map((band) => band.count));
  return (
    <figure>
      <figcaption className="font-semibold">Score distribution</figcaption>
      <ul className="mt-3 space-y-2">
        {distribution.map((band) => (
          <li key={band.label} className="grid grid-cols-[5rem_1fr_3rem] items-center gap-2">
            <span className="text-sm">{band.label}</span>
            <span className="h-5 rounded bg-brand-100" aria-hidden="true">
              <span className="block h-5 rounded bg-brand-700" style={{ width: `${(band.count / highest) * 100}%` }} />
            </span>
            <span className="text-sm font-semibold">
              {band.count}
              <span className="sr-only"> quizzes</span>
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
