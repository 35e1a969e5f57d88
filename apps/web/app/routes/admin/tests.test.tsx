// The test form with its real loader, against a stand-in for the API: a test timed per section gives each section
// its own timing and seconds per question, with the section's time worked out beside them; the test's own seconds
// per question are then not asked for; an edit reads each section's timing back.
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { testTablePageSchema } from "@trainwise/contract/admin-tables";
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import { testSchema } from "@trainwise/contract/drives";
import { createRoutesStub } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import Tests, { clientLoader } from "./tests.tsx";

const CATEGORIES = ["Aptitude", "Reasoning", "English"];

const PLACEMENT = testSchema.parse({
  _id: "00000000-0000-4000-8000-0000000000e1",
  name: "Placement test",
  categories: [],
  difficultyMix: null,
  questionCount: 25,
  secondsPerQuestion: 30,
  timingMode: "per_section",
  attemptsAllowed: 1,
  passMark: null,
  negativeMark: 0,
  sections: [
    {
      name: "Quantitative Aptitude",
      categories: ["Aptitude"],
      difficultyMix: null,
      questionCount: 15,
      negativeMark: 0,
      cutOff: null,
      timing: "section_clock",
      secondsPerQuestion: 80,
    },
    {
      name: "Logical Reasoning",
      categories: ["Reasoning"],
      difficultyMix: null,
      questionCount: 10,
      negativeMark: 0.25,
      cutOff: 40,
      timing: "per_question",
      secondsPerQuestion: 45,
    },
  ],
  reviewPolicy: "score_only",
  secure: true,
  rulesFirst: true,
  isDefault: false,
  archived: false,
  available: 25,
  sectionsAvailable: [15, 10],
  createdAt: "2026-11-20T09:30:00.000Z",
});

/** The tests API as far as this screen needs it; it keeps the bodies it was sent. */
function testsApi() {
  const sent: { method: string; path: string; body: Record<string, unknown> }[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const fetch = vi.fn(async (address: string, init: RequestInit = {}) => {
    const url = new URL(address, "http://localhost");
    const method = init.method ?? "GET";
    if (url.pathname === "/api/questions/categories") return json(200, CATEGORIES);
    if (url.pathname === "/api/tests/table") {
      return json(200, testTablePageSchema.parse({ rows: [PLACEMENT], total: 1, page: 1, pageSize: 25 }));
    }
    if (method === "POST" || method === "PUT") {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      sent.push({ method, path: url.pathname, body });
      return json(method === "POST" ? 201 : 200, { ...PLACEMENT, ...body });
    }
    return json(404, { error: "Not found" });
  });
  vi.stubGlobal("fetch", fetch);
  return { sent };
}

async function renderTests() {
  const Stub = createRoutesStub([
    {
      path: "/admin/tests",
      Component: Tests,
      loader: (args) => clientLoader(args as never),
      HydrateFallback: () => <p>Loading...</p>,
    },
  ]);
  render(<Stub initialEntries={["/admin/tests"]} />);
  await screen.findByRole("heading", { name: "New test" });
}

const field = (label: string) => screen.getByLabelText(label, { exact: true }) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const perSection = () => screen.getByRole("radio", { name: /^Each section on its own/ });

beforeEach(() => localStorage.setItem(STORAGE_KEYS.adminToken, "admin-token"));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("a test timed per section", () => {
  it("gives each section its timing and seconds, with the section's time beside them, and sends them", async () => {
    const api = testsApi();
    await renderTests();
    // Timed per question (the default), no section timing is asked for.
    expect(screen.queryByLabelText("Section 1: timing")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Divide into sections" }));
    type("Name", "Placement test");
    type("Section 1 name", "Quantitative Aptitude");
    type("Section 2 name", "Logical Reasoning");
    const categoriesOf = (number: number) =>
      within(screen.getByRole("group", { name: `Section ${number} categories` }));
    fireEvent.click(categoriesOf(1).getByRole("checkbox", { name: "Aptitude" }));
    fireEvent.click(categoriesOf(2).getByRole("checkbox", { name: "Reasoning" }));
    expect(screen.queryByLabelText("Section 1: timing")).toBeNull();

    fireEvent.click(perSection());
    // The test's own seconds per question are not used: each section sets its own.
    expect(screen.queryByLabelText("Seconds per question", { exact: true })).toBeNull();
    expect(screen.getByText("Each section sets its own, with its timing, above.")).toBeTruthy();
    expect((screen.getByLabelText("Section 1: timing") as HTMLSelectElement).value).toBe("section_clock");

    type("Section 1: number of questions", "15");
    type("Section 1: seconds per question", "80");
    expect(field("Section 1: seconds per question").getAttribute("aria-describedby")).toBeTruthy();
    const described = (label: string) =>
      document.getElementById(field(label).getAttribute("aria-describedby")?.split(" ")[0] ?? "")?.textContent;
    expect(described("Section 1: seconds per question")).toBe("15 questions × 80 s = 20 min");
    fireEvent.change(screen.getByLabelText("Section 2: timing"), { target: { value: "per_question" } });
    type("Section 2: seconds per question", "45");
    expect(described("Section 2: seconds per question")).toBe("10 questions × 45 s each = 7 min 30 s");

    fireEvent.click(screen.getByRole("button", { name: "Create Test" }));
    await waitFor(() => expect(api.sent).toHaveLength(1));
    const body = (api.sent[0]?.body ?? {}) as { timingMode?: string; sections?: Record<string, unknown>[] };
    expect(body.timingMode).toBe("per_section");
    expect(
      body.sections?.map(({ name, timing, secondsPerQuestion }) => ({ name, timing, secondsPerQuestion })),
    ).toEqual([
      { name: "Quantitative Aptitude", timing: "section_clock", secondsPerQuestion: 80 },
      { name: "Logical Reasoning", timing: "per_question", secondsPerQuestion: 45 },
    ]);
  });

  it("shows a section's seconds refused beside its box, and timing per section refused without sections", async () => {
    const api = testsApi();
    await renderTests();
    type("Name", "Placement test");
    fireEvent.click(perSection());
    expect(screen.getByText("Each section sets its own: divide the test into sections above.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Create Test" }));
    expect(
      await screen.findByText(
        "Timing each section on its own needs sections: add them, or time the test per question or as a whole",
      ),
    ).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Divide into sections" }));
    type("Section 1 name", "Quantitative Aptitude");
    type("Section 2 name", "Logical Reasoning");
    fireEvent.click(
      within(screen.getByRole("group", { name: "Section 1 categories" })).getByRole("checkbox", { name: "Aptitude" }),
    );
    fireEvent.click(
      within(screen.getByRole("group", { name: "Section 2 categories" })).getByRole("checkbox", { name: "Reasoning" }),
    );
    type("Section 2: seconds per question", "3");
    fireEvent.click(screen.getByRole("button", { name: "Create Test" }));
    await waitFor(() => expect(field("Section 2: seconds per question").getAttribute("aria-invalid")).toBe("true"));
    expect(screen.getByText("Seconds per question in a section must be at least 5")).toBeTruthy();
    expect(api.sent).toHaveLength(0);
  });

  it("reads each section's timing back when a test is edited, and lists it in the table", async () => {
    const api = testsApi();
    await renderTests();
    const row = screen.getByRole("row", { name: /Placement test/ });
    expect(within(row).getByText("Quantitative Aptitude: 20 min on one clock")).toBeTruthy();
    expect(within(row).getByText("Logical Reasoning: 45 s a question")).toBeTruthy();

    fireEvent.click(within(row).getByRole("button", { name: "Edit test Placement test" }));
    expect(await screen.findByRole("heading", { name: "Edit test: Placement test" })).toBeTruthy();
    expect(perSection()).toHaveProperty("checked", true);
    expect((screen.getByLabelText("Section 1: timing") as HTMLSelectElement).value).toBe("section_clock");
    expect(field("Section 1: seconds per question").value).toBe("80");
    expect((screen.getByLabelText("Section 2: timing") as HTMLSelectElement).value).toBe("per_question");
    expect(field("Section 2: seconds per question").value).toBe("45");
    expect(screen.getByText("15 questions × 80 s = 20 min")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(api.sent).toHaveLength(1));
    expect(api.sent[0]?.path).toBe(`/api/tests/${PLACEMENT._id}`);
    const sent = (api.sent[0]?.body ?? {}) as { sections?: Record<string, unknown>[] };
    expect(sent.sections?.map(({ timing, secondsPerQuestion }) => ({ timing, secondsPerQuestion }))).toEqual([
      { timing: "section_clock", secondsPerQuestion: 80 },
      { timing: "per_question", secondsPerQuestion: 45 },
    ]);
  });
});
