// "Your results" shows a released result as the result page does: a sectioned result's table of sections, and
// the pass line naming what passing took (a newcomer's walk found it naming a pass mark the test did not have).
import { cleanup, render, screen } from "@testing-library/react";
import { studentResultsSchema } from "@trainwise/contract/student-results";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import StudentResultsPage from "./student-results.tsx";

const LINK = "abcdefghijklmnopqrstuv";

function resultsWith(passMark: number | null) {
  return studentResultsSchema.parse({
    studentName: "Gita",
    results: [
      {
        submittedAt: "2026-11-27T10:00:00.000Z",
        result: {
          status: "released",
          resultId: "00000000-0000-4000-8000-0000000000a1",
          score: 3,
          totalQuestions: 5,
          marks: 3,
          percentage: "60.00",
          passMark,
          passed: false,
          sections: [
            { name: "Quant", questionCount: 3, score: 1, marks: 1, percentage: "33.33", cutOff: 50, metCutOff: false },
            {
              name: "Verbal",
              questionCount: 2,
              score: 2,
              marks: 2,
              percentage: "100.00",
              cutOff: null,
              metCutOff: null,
            },
          ],
          certificate: false,
          testName: "Placement round",
          driveName: "Campus drive",
          organisation: "Lakeview Institute",
          review: {
            policy: "score_only",
            ticksShown: false,
            ticksFrom: null,
            rightShown: false,
            rightFrom: null,
            timeZone: "Asia/Kolkata",
          },
          answers: [],
        },
      },
    ],
  });
}

function showThroughLink(body: unknown) {
  vi.stubGlobal(
    "fetch",
    vi.fn(
      async () => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } }),
    ),
  );
  window.history.pushState({}, "", `/student/results?link=${LINK}`);
  const Stub = createRoutesStub([{ path: "/student/results", Component: StudentResultsPage }]);
  render(<Stub initialEntries={[`/student/results?link=${LINK}`]} />);
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.pushState({}, "", "/");
});

describe("Your results", () => {
  it("names what passing took and shows each section's score", async () => {
    showThroughLink(resultsWith(50));
    expect(await screen.findByText("Not passed (pass mark 50% and every section's cut-off)")).toBeTruthy();
    const table = screen.getByRole("table", { name: "Your score in each section" });
    const rows = [...table.querySelectorAll("tbody tr")].map((row) =>
      [...row.children].map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ["Quant", "1 of 3", "33.33%", "50%: not met"],
      ["Verbal", "2 of 2", "100.00%", "None"],
    ]);
  });

  it("says the cut-offs alone decided a test without a pass mark", async () => {
    showThroughLink(resultsWith(null));
    expect(await screen.findByText("Not passed (every section's cut-off)")).toBeTruthy();
  });
});
