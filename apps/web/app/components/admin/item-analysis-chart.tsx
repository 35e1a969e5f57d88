import type { AnalysisQuestion } from "@trainwise/contract/analysis";
import { formatShare } from "../../lib/format.ts";

const WIDTH = 320;
const HEIGHT = 220;
const LEFT = 44;
const RIGHT = 292;
const TOP = 12;
const BOTTOM = 184;

const xOf = (facility: number) => LEFT + (facility / 100) * (RIGHT - LEFT);
const yOf = (discrimination: number) => TOP + ((1 - discrimination) / 2) * (BOTTOM - TOP);

export const formatDiscrimination = (discrimination: number) => discrimination.toFixed(2);

/** The chart's text alternative: every plotted point in words, and which questions are left out and why. */
export function chartDescription(questions: { label: string; question: AnalysisQuestion }[]): string {
  const plotted = questions.filter(({ question }) => question.discrimination !== null);
  const left = questions.filter(({ question }) => question.discrimination === null);
  if (plotted.length === 0) {
    return "Nothing to plot: discrimination needs a large enough cohort, so no question has both figures yet.";
  }
  const points = plotted
    .map(
      ({ label, question }) =>
        `${label}: facility ${formatShare(question.facility)}, discrimination ${formatDiscrimination(
          question.discrimination ?? 0,
        )}`,
    )
    .join("; ");
  const missing =
    left.length > 0 ? ` Not plotted (no discrimination): ${left.map(({ label }) => label).join(", ")}.` : "";
  return `${plotted.length} ${plotted.length === 1 ? "question" : "questions"} plotted. ${points}.${missing}`;
}

/**
 * Facility (across) against discrimination (up), one labelled point per question; drawn as inline SVG so it
 * needs no chart library, with the same figures in words beside it for screen readers.
 */
export function ItemAnalysisChart({ questions }: { questions: { label: string; question: AnalysisQuestion }[] }) {
  const plotted = questions.filter(({ question }) => question.discrimination !== null);
  return (
    <figure className="min-w-0">
      <figcaption id="analysis-chart-title" className="font-semibold">
        Facility against discrimination
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="mt-2 w-full max-w-xl"
        role="img"
        aria-labelledby="analysis-chart-title"
        aria-describedby="analysis-chart-text"
      >
        <title>Facility against discrimination, one point per question</title>
        <rect x={LEFT} y={TOP} width={RIGHT - LEFT} height={BOTTOM - TOP} fill="none" stroke="#94a3b8" />
        {/* D = 0: below this line a question favours the weaker students. */}
        <line x1={LEFT} x2={RIGHT} y1={yOf(0)} y2={yOf(0)} stroke="#b91c1c" strokeDasharray="4 3" />
        {[1, 0, -1].map((value) => (
          <text key={value} x={LEFT - 6} y={yOf(value) + 4} textAnchor="end" fontSize="10" fill="#334155">
            {value}
          </text>
        ))}
        {[0, 50, 100].map((value) => (
          <text key={value} x={xOf(value)} y={BOTTOM + 14} textAnchor="middle" fontSize="10" fill="#334155">
            {value}%
          </text>
        ))}
        <text x={(LEFT + RIGHT) / 2} y={HEIGHT - 4} textAnchor="middle" fontSize="10" fill="#334155">
          Facility (share right)
        </text>
        <text
          x={10}
          y={(TOP + BOTTOM) / 2}
          textAnchor="middle"
          fontSize="10"
          fill="#334155"
          transform={`rotate(-90 10 ${(TOP + BOTTOM) / 2})`}
        >
          Discrimination
        </text>
        {plotted.map(({ label, question }) => {
          const x = xOf(question.facility);
          const y = yOf(question.discrimination ?? 0);
          const flagged = question.flags.length > 0;
          return (
            <g key={question.questionId}>
              {flagged ? (
                <rect x={x - 4} y={y - 4} width={8} height={8} fill="#b91c1c" />
              ) : (
                <circle cx={x} cy={y} r={4} fill="#1d4ed8" />
              )}
              {/* Near the right edge the label goes to the left of its point, so it stays inside the drawing. */}
              <text
                x={x > RIGHT - 24 ? x - 6 : x + 6}
                y={y - 5}
                textAnchor={x > RIGHT - 24 ? "end" : "start"}
                fontSize="9"
                fill="#0f172a"
              >
                {label}
              </text>
            </g>
          );
        })}
      </svg>
      <p id="analysis-chart-text" className="mt-2 text-sm text-slate-700">
        {chartDescription(questions)} Flagged questions are drawn as squares, the others as dots.
      </p>
    </figure>
  );
}
