// The question editor with its real loader, against a stand-in for the API: options are edited in place, moved and
// marked; the contract's problems name their option; after a new question is saved the category, difficulty and
// kind stay for the next one, which the category field offers among the bank's categories.
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { questionTablePageSchema } from "@trainwise/contract/admin-tables";
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import { questionSchema } from "@trainwise/contract/questions";
import { createRoutesStub } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import ManageQuestions, { clientLoader } from "./questions.tsx";

const CATEGORIES = ["Aptitude", "Python"];

const STORED = questionSchema.parse({
  _id: "00000000-0000-4000-8000-0000000000a1",
  text: "Which keyword defines a function?",
  html: "<p>Which keyword defines a function?</p>",
  category: "Python",
  difficulty: "easy",
  type: "single",
  scoring: "all_or_nothing",
  options: ["def", "fun", "lambda"].map((text, index) => ({
    _id: `00000000-0000-4000-8000-0000000000b${index}`,
    text,
    html: text,
    isCorrect: index === 0,
    weight: index === 0 ? 100 : 0,
  })),
  createdAt: "2026-11-20T09:30:00.000Z",
});

/** The questions API as far as the editor needs it; it keeps the bodies it was sent. */
function questionsApi() {
  const sent: { method: string; path: string; body: Record<string, unknown> }[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const fetch = vi.fn(async (address: string, init: RequestInit = {}) => {
    const url = new URL(address, "http://localhost");
    const method = init.method ?? "GET";
    if (url.pathname === "/api/questions/categories") return json(200, CATEGORIES);
    if (url.pathname === "/api/questions/table") {
      const row = { ...STORED, key: { seenBy: 0, seenInCount: 0, seenIn: [], keptSecretByCount: 0, keptSecretBy: [] } };
      return json(200, questionTablePageSchema.parse({ rows: [row], total: 1, page: 1, pageSize: 25 }));
    }
    if (url.pathname === "/api/questions/render") return json(200, { html: "<p>Preview</p>", options: [] });
    if (method === "POST" || method === "PUT") {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      sent.push({ method, path: url.pathname, body });
      return json(method === "POST" ? 201 : 200, { ...STORED, ...body });
    }
    return json(404, { error: "Not found" });
  });
  vi.stubGlobal("fetch", fetch);
  return { sent };
}

async function renderEditor() {
  const Stub = createRoutesStub([
    {
      path: "/admin/questions",
      Component: ManageQuestions,
      loader: (args) => clientLoader(args as never),
      HydrateFallback: () => <p>Loading...</p>,
    },
  ]);
  render(<Stub initialEntries={["/admin/questions"]} />);
  await screen.findByRole("heading", { name: "New question" });
}

const field = (label: string) => screen.getByLabelText(label, { exact: true }) as HTMLInputElement;

function addOptions(...texts: string[]) {
  for (const text of texts) {
    fireEvent.change(field("Option"), { target: { value: text } });
    fireEvent.click(screen.getByRole("button", { name: "Add Option" }));
  }
}

beforeEach(() => localStorage.setItem(STORAGE_KEYS.adminToken, "admin-token"));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("the question editor", () => {
  it("says what the text field takes, and keeps a longer help one press away", async () => {
    questionsApi();
    await renderEditor();
    const question = field("Question");
    const hint = document.getElementById(question.getAttribute("aria-describedby") ?? "");
    expect(hint?.textContent).toMatch(/Markdown: \*\*bold\*\*, \*italics\*, `code`, code blocks and \$math\$/);
    const help = screen.getByText("Formatting help: Markdown, code, math and pictures").closest("details");
    expect(help?.open).toBe(false);
    const examples = within(help as HTMLElement).getByRole("table");
    expect(examples.textContent).toContain("```python\nprint(2 ** 3)\n```");
    expect(examples.textContent).toContain("Solve $x^2 = 16$ for $x > 0$.");
    expect(examples.textContent).toContain("$$\\frac{a + b}{2}$$");
  });

  it("edits an option's text in place, moves it, and saves the options in their new order", async () => {
    const api = questionsApi();
    await renderEditor();
    fireEvent.change(field("Question"), { target: { value: "What is 2 + 2?" } });
    fireEvent.change(field("Category"), { target: { value: "Aptitude" } });
    addOptions("4", "5", "22");
    fireEvent.change(field("Option 2 text"), { target: { value: "five" } });
    expect(field("Option 2 text").value).toBe("five");
    // Focus stays in the field being typed in: the slot is not rebuilt on each key.
    field("Option 2 text").focus();
    fireEvent.change(field("Option 2 text"), { target: { value: "Five" } });
    expect(document.activeElement).toBe(field("Option 2 text"));

    fireEvent.click(screen.getByRole("button", { name: "Move option 3 up" }));
    expect(["Option 1 text", "Option 2 text", "Option 3 text"].map((label) => field(label).value)).toEqual([
      "4",
      "22",
      "Five",
    ]);
    // The pressed button follows its option, now second.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: "Move option 2 up" })));
    fireEvent.click(screen.getByRole("radio", { name: "Correct answer: option 2" }));
    fireEvent.change(field("Weight of option 1 (%)"), { target: { value: "50" } });

    fireEvent.click(screen.getByRole("button", { name: "Create Question" }));
    await waitFor(() => expect(api.sent).toHaveLength(1));
    expect(api.sent[0]?.body.options).toEqual([
      { text: "4", isCorrect: false, weight: 50 },
      { text: "22", isCorrect: true, weight: 100 },
      { text: "Five", isCorrect: false, weight: 0 },
    ]);
  });

  it("names the option a problem is in, beside its field and in the form's message", async () => {
    const api = questionsApi();
    await renderEditor();
    fireEvent.change(field("Question"), { target: { value: "What is 2 + 2?" } });
    fireEvent.change(field("Category"), { target: { value: "Aptitude" } });
    addOptions("4", "5");
    fireEvent.change(field("Option 2 text"), { target: { value: "   " } });
    fireEvent.click(screen.getByRole("button", { name: "Create Question" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Option 2: Option text is required");
    const option = field("Option 2 text");
    expect(option.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(option.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "Option text is required",
    );
    expect(api.sent).toEqual([]);
  });

  it("removes an option and keeps one marked correct", async () => {
    questionsApi();
    await renderEditor();
    addOptions("a", "b", "c");
    expect((screen.getByRole("radio", { name: "Correct answer: option 1" }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Remove option 1" }));
    expect(["Option 1 text", "Option 2 text"].map((label) => field(label).value)).toEqual(["b", "c"]);
    expect((screen.getByRole("radio", { name: "Correct answer: option 1" }) as HTMLInputElement).checked).toBe(true);
    await waitFor(() => expect(document.activeElement).toBe(field("Option 1 text")));
  });

  it("edits a stored question's option in place", async () => {
    const api = questionsApi();
    await renderEditor();
    fireEvent.click(await screen.findByRole("button", { name: `Edit question ${STORED.text}` }));
    expect(field("Option 2 text").value).toBe("fun");
    fireEvent.change(field("Option 2 text"), { target: { value: "func" } });
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(api.sent).toHaveLength(1));
    expect(api.sent[0]?.method).toBe("PUT");
    expect((api.sent[0]?.body.options as { text: string }[] | undefined)?.map((option) => option.text)).toEqual([
      "def",
      "func",
      "lambda",
    ]);
  });

  it("offers the bank's categories, and keeps category, difficulty and kind for the next question", async () => {
    const api = questionsApi();
    await renderEditor();
    const category = field("Category");
    const offered = document.getElementById(category.getAttribute("list") ?? "");
    expect([...(offered?.querySelectorAll("option") ?? [])].map((option) => option.value)).toEqual(CATEGORIES);

    fireEvent.change(field("Question"), { target: { value: "Pick the primes" } });
    fireEvent.change(category, { target: { value: "Number sense" } });
    fireEvent.change(screen.getByLabelText("Difficulty"), { target: { value: "hard" } });
    fireEvent.change(screen.getByLabelText("Question type"), { target: { value: "multiple" } });
    addOptions("2", "4", "3");
    fireEvent.click(screen.getByRole("checkbox", { name: "Correct answer: option 3" }));
    fireEvent.click(screen.getByRole("button", { name: "Create Question" }));

    await screen.findByText("Question created.");
    expect(api.sent[0]?.body).toMatchObject({ category: "Number sense", difficulty: "hard", type: "multiple" });
    expect(field("Category").value).toBe("Number sense");
    expect((screen.getByLabelText("Difficulty") as HTMLSelectElement).value).toBe("hard");
    expect((screen.getByLabelText("Question type") as HTMLSelectElement).value).toBe("multiple");
    expect(field("Question").value).toBe("");
    expect(screen.queryByLabelText("Option 1 text")).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(field("Question")));
  });
});
