// A released result's sections, as the student reads them on the result page and on "Your results".
import type { ReleasedResult } from "@trainwise/contract/quiz";

/** Each section's part of the score, and whether its cut-off was met. */
export function SectionScores({ sections }: { sections: ReleasedResult["sections"] }) {
  return (
    <div className="mt-4 overflow-x-auto">
      <table className="w-full border-collapse text-left">
        <caption className="mb-2 text-left text-lg font-semibold">Your score in each section</caption>
        <thead>
          <tr className="border-b border-slate-300">
            <th scope="col" className="py-2 pr-3">
              Section
            </th>
            <th scope="col" className="py-2 pr-3">
              Correct
            </th>
            <th scope="col" className="py-2 pr-3">
              Score
            </th>
            <th scope="col" className="py-2">
              Cut-off
            </th>
          </tr>
        </thead>
        <tbody>
          {sections.map((section) => (
            <tr key={section.name} className="border-b border-slate-200">
              <th scope="row" className="py-2 pr-3 font-medium">
                {section.name}
              </th>
              <td className="py-2 pr-3">
                {section.score} of {section.questionCount}
              </td>
              <td className="py-2 pr-3">
                {section.percentage}%{section.marks !== section.score ? ` (${section.marks} marks)` : ""}
              </td>
              <td className="py-2">
                {section.cutOff === null ? "None" : `${section.cutOff}%: ${section.metCutOff ? "met" : "not met"}`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
