// The item analysis screen with its real loader, against a stand-in for the API that answers with the contract's
// own shapes: a test in sections shows how each section did, and the section filter narrows the questions.
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { type ItemAnalysis, itemAnalysisSchema } from "@trainwise/contract/analysis";
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import { createRoutesStub } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import ItemAnalysisPage, { clientLoader } from "./item-analysis.tsx";

const DRIVE_ID = "00000000-0000-4000-8000-0000000000d1";

function question(n: number, section: string | null) {
  return {
    questionId: `00000000-0000-4000-8000-00000000000${n}`,
    text: `Question ${n}`,
    html: `<p>Question ${n}</p>`,
    category: "Placement",
    retired: false,
    served: 4,
    right: 2,
    facility: 50,
    discrimination: null,
    upper: { served: 0, right: 0 },
    lower: { served: 0, right: 0 },
    notAnswered: 0,
    notAnsweredShare: 0,
    options: [],
    flags: [],
    section,
  };
}

function analysisOf(sectioned: boolean): ItemAnalysis {
  return itemAnalysisSchema.parse({
    scope: { kind: "drive", _id: DRIVE_ID, name: "Campus drive", testId: DRIVE_ID, testName: "Placement" },
    summary: {
      attempts: 4,
      mean: 50,
      median: 50,
      standardDeviation: 10,
      kr20: null,
      groupSize: 0,
      minimumCohort: 10,
      sections: sectioned
        ? [
            { name: "Quantitative Aptitude", attempts: 4, mean: 43.75, median: 37.5, metCutOff: 1 },
            { name: "Verbal Ability", attempts: 4, mean: 62.5, median: 50, metCutOff: null },
            { name: "Retired section", attempts: 1, mean: 0, median: 0, metCutOff: null },
          ]
        : [],
    },
    keyHidden: false,
    marksHidden: false,
    keyShownFrom: null,
    questions: sectioned
      ? [question(1, "Quantitative Aptitude"), question(2, "Verbal Ability"), question(3, "Quantitative Aptitude")]
      : [question(1, null), question(2, null)],
  });
}

function renderPage(analysis: ItemAnalysis) {
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (address: string) => {
      const { pathname } = new URL(address, "http://localhost");
      if (pathname === "/api/auth/admin/session") return json({ username: "examiner", role: "admin" });
      if (pathname === `/api/drives/${DRIVE_ID}/analysis`) return json(analysis);
      return new Response(JSON.stringify({ error: "Not found" }), { status: 404 });
    }),
  );
  const Stub = createRoutesStub([
    {
      path: "/admin/drives/:id/analysis",
      Component: ItemAnalysisPage,
      loader: (args) => clientLoader(args as never),
      HydrateFallback: () => <p>Loading...</p>,
    },
  ]);
  render(<Stub initialEntries={[`/admin/drives/${DRIVE_ID}/analysis`]} />);
}

/** The question rows of the questions table, by the question each names. */
const questionRows = () =>
  within(screen.getByRole("table", { name: /^Per question/ }))
    .queryAllByRole("rowheader")
    .map((cell) => cell.textContent ?? "");

beforeEach(() => localStorage.setItem(STORAGE_KEYS.adminToken, "admin-token"));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("item analysis in sections", () => {
  it("shows each section's marks and cut-offs met in a table of their own", async () => {
    renderPage(analysisOf(true));
    const table = await screen.findByRole("table", { name: /^Sections/ });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((cell) => cell.textContent),
    ).toEqual(["Section", "Attempts", "Mean", "Median", "Met the cut-off"]);
    const rows = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ["Quantitative Aptitude", "4", "43.75%", "37.50%", "1 of 4"],
      ["Verbal Ability", "4", "62.50%", "50.00%", "No cut-off"],
      ["Retired section", "1", "0.00%", "0.00%", "No cut-off"],
    ]);
    expect(within(table).getByRole("rowheader", { name: "Verbal Ability" })).toBeTruthy();
  });

  it("filters the questions by section, keeping their numbers, and says how many are shown", async () => {
    renderPage(analysisOf(true));
    const filter = (await screen.findByLabelText("Section")) as HTMLSelectElement;
    expect([...filter.options].map((option) => option.text)).toEqual([
      "All sections",
      "Quantitative Aptitude",
      "Verbal Ability",
      "Retired section",
    ]);
    expect(filter.value).toBe("");
    expect(screen.getByText("All 3 questions")).toBeTruthy();
    expect(questionRows()).toEqual([
      "Q1 Question 1PlacementSection: Quantitative Aptitude",
      "Q2 Question 2PlacementSection: Verbal Ability",
      "Q3 Question 3PlacementSection: Quantitative Aptitude",
    ]);

    fireEvent.change(filter, { target: { value: "Quantitative Aptitude" } });
    expect(questionRows().map((row) => row.split(" Question")[0])).toEqual(["Q1", "Q3"]);
    expect(screen.getByText("2 of 3 questions, in Quantitative Aptitude")).toBeTruthy();

    fireEvent.change(filter, { target: { value: "Retired section" } });
    expect(questionRows()).toEqual([]);
    expect(screen.getByText(/^No question is listed in Retired section/)).toBeTruthy();

    fireEvent.change(filter, { target: { value: "" } });
    expect(questionRows()).toHaveLength(3);
  });

  it("has neither the sections table nor the filter for a test without sections", async () => {
    renderPage(analysisOf(false));
    await screen.findByRole("table", { name: /^Per question/ });
    expect(screen.queryByRole("table", { name: /^Sections/ })).toBeNull();
    expect(screen.queryByLabelText("Section")).toBeNull();
    expect(screen.queryByText(/^Section:/)).toBeNull();
    expect(questionRows()).toHaveLength(2);
  });
});
