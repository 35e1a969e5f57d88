// A result's sections under its score in the admin's tables: each section's marks, and its cut-off met or not.
import type { SectionResult } from "@trainwise/contract/drives";
import { cutOffText } from "@trainwise/contract/quiz";
import { formatScore } from "../../lib/format.ts";

export function ScoreWithSections({
  marks,
  totalQuestions,
  sections,
  lead = "",
}: {
  marks: number;
  totalQuestions: number;
  sections: SectionResult[];
  /** Words before the score ("Scored "). */
  lead?: string;
}) {
  const score = lead + formatScore(marks, totalQuestions);
  if (sections.length === 0) return score;
  return (
    <>
      <span className="block">{score}</span>
      <ul className="mt-1 space-y-0.5 text-sm whitespace-normal text-slate-700">
        {sections.map((section) => (
          <li key={section.name}>
            {section.name}: {formatScore(section.marks, section.questionCount)}
            {section.cutOff !== null && `, ${cutOffText(section)}`}
          </li>
        ))}
      </ul>
    </>
  );
}
