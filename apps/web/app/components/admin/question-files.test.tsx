// The import preview: every question is listed as importable, importable with its losses named, invalid or of a
// kind the bank does not hold, and the admin imports the importable ones once each kind left out is confirmed.
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { QuestionImportPreview } from "@trainwise/contract/questions";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { QuestionFiles } from "./question-files.tsx";

const PREVIEW: QuestionImportPreview = {
  format: "moodle-xml",
  questions: [
    {
      line: 4,
      text: "Which planet is red?",
      category: "Space",
      difficulty: "medium",
      type: "single",
      scoring: "all_or_nothing",
      options: [
        { text: "Mars", isCorrect: true, weight: 100 },
        { text: "Venus", isCorrect: false, weight: 0 },
      ],
    },
    {
      line: 8,
      text: "Which bird sings this?",
      category: "Birds",
      difficulty: "medium",
      type: "single",
      scoring: "all_or_nothing",
      options: [
        { text: "Robin", isCorrect: true, weight: 100 },
        { text: "Crow", isCorrect: false, weight: 0 },
      ],
      losses: ["The embedded file song.mp3 is left out: it is not a PNG, JPEG, WebP or GIF image"],
    },
  ],
  unsupported: [{ line: 17, kind: "essay", title: "Essay" }],
  problems: [{ line: 13, message: "Mark at least one option as correct" }],
  problemCount: 1,
};

function renderFiles() {
  const calls: { name: string; query: Record<string, string> }[] = [];
  const call = async (name: string, options: { query: Record<string, string> }) => {
    calls.push({ name, query: options.query });
    return name === "previewQuestionImport" ? PREVIEW : { imported: 2, skipped: 1, invalid: 1, withLosses: 1 };
  };
  const messages: string[] = [];
  const send = async (work: (call: never) => Promise<string>) => {
    messages.push(await work(call as never));
  };
  const Stub = createRoutesStub([{ path: "/", Component: () => <QuestionFiles send={send as never} busy={false} /> }]);
  render(<Stub />);
  return { calls, messages };
}

afterEach(cleanup);

describe("import preview", () => {
  it("lists each question's status and losses, and imports the importable ones once everything left out is confirmed", async () => {
    const { calls, messages } = renderFiles();
    fireEvent.change(screen.getByLabelText("Question file"), {
      target: { files: [new File(["<quiz/>"], "bank.xml", { type: "application/xml" })] },
    });
    fireEvent.click(screen.getByRole("button", { name: "Preview import" }));
    await screen.findByRole("heading", { name: "Import preview: bank.xml (Moodle XML)" });

    expect(screen.getByText(/2 questions would be created, 1 of them without something the file shows\./)).toBeTruthy();
    const table = screen.getByRole("table", { name: "Questions the import would create" });
    const rows = within(table).getAllByRole("row");
    expect(rows.map((row) => within(row).queryAllByRole("cell").at(-1)?.textContent)).toEqual([
      undefined,
      "Importable",
      "Importable with losses",
    ]);
    expect(
      screen.getByText("Line 8: The embedded file song.mp3 is left out: it is not a PNG, JPEG, WebP or GIF image"),
    ).toBeTruthy();
    expect(screen.getByText("Line 13: Mark at least one option as correct")).toBeTruthy();
    expect(screen.getByText("Line 17: essay — Essay")).toBeTruthy();

    const importButton = screen.getByRole("button", { name: "Import 2 questions" }) as HTMLButtonElement;
    const confirmations = [
      "Leave out the question with a problem and import the rest",
      "Skip this question and import the rest",
      "Import this question without what it loses",
    ];
    for (const label of confirmations) {
      expect(importButton.disabled, `before "${label}"`).toBe(true);
      fireEvent.click(screen.getByRole("checkbox", { name: label }));
    }
    expect(importButton.disabled).toBe(false);
    fireEvent.click(importButton);
    await waitFor(() => expect(calls.map((entry) => entry.name)).toContain("importQuestions"));
    expect(calls.at(-1)?.query).toMatchObject({ skipInvalid: "true", skipUnsupported: "true", acceptLosses: "true" });
    await waitFor(() =>
      expect(messages.at(-1)).toBe(
        "Imported 2 questions. 1 of kinds the bank does not hold were skipped. 1 with problems were left out. 1 were imported without what they lose.",
      ),
    );
  });
});
