// The answer input for each question type: radios for one answer, checkboxes for several, and the one string the
// quiz state keeps turned into what the API takes.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { QuizQuestion } from "@trainwise/contract/quiz";
import { afterEach, describe, expect, it, vi } from "vitest";
import { answerOf, choiceOf } from "../../routes/portal/quiz-machine.ts";
import { AnswerOptions } from "./answer-options.tsx";

const ids = [
  "00000000-0000-4000-9000-000000000001",
  "00000000-0000-4000-9000-000000000002",
  "00000000-0000-4000-9000-000000000003",
];
const question = (type?: QuizQuestion["type"]): QuizQuestion => ({
  _id: "00000000-0000-4000-8000-000000000001",
  text: "Which are prime?",
  html: "<p>Which are prime?</p>",
  category: "Aptitude",
  difficulty: "easy",
  ...(type ? { type } : {}),
  options: [
    { _id: ids[0] as string, text: "2", html: "2" },
    { _id: ids[1] as string, text: "3", html: "3" },
    { _id: ids[2] as string, text: "4", html: "4" },
  ],
});

afterEach(cleanup);

describe("answer options", () => {
  it("is a radio group in a fieldset named by the question for single answers (and questions without a type)", () => {
    const onChoose = vi.fn();
    render(<AnswerOptions question={question()} legend="Which are prime?" choice={undefined} onChoose={onChoose} />);
    expect(screen.getByRole("group", { name: "Which are prime?" })).toBeTruthy();
    expect(screen.getAllByRole("radio")).toHaveLength(3);
    fireEvent.click(screen.getByRole("radio", { name: "B. 3" }));
    expect(onChoose).toHaveBeenCalledWith(ids[1]);
  });

  it("is checkboxes for multiple answers: ticks add and remove options, in the question's order", () => {
    const onChoose = vi.fn();
    const { rerender } = render(
      <AnswerOptions question={question("multiple")} legend="Which are prime?" choice={ids[1]} onChoose={onChoose} />,
    );
    expect(screen.getByText("Choose all that apply.")).toBeTruthy();
    expect(screen.queryAllByRole("radio")).toHaveLength(0);
    expect((screen.getByRole("checkbox", { name: "B. 3" }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole("checkbox", { name: "A. 2" }));
    expect(onChoose).toHaveBeenLastCalledWith(`${ids[0]},${ids[1]}`);

    rerender(
      <AnswerOptions
        question={question("multiple")}
        legend="Which are prime?"
        choice={`${ids[0]},${ids[1]}`}
        onChoose={onChoose}
      />,
    );
    fireEvent.click(screen.getByRole("checkbox", { name: "A. 2" }));
    expect(onChoose).toHaveBeenLastCalledWith(ids[1]);
    // The last ticked box cannot be emptied, as a radio group cannot.
    onChoose.mockClear();
    rerender(<AnswerOptions question={question("multiple")} legend="Q" choice={ids[1]} onChoose={onChoose} />);
    fireEvent.click(screen.getByRole("checkbox", { name: "B. 3" }));
    expect(onChoose).not.toHaveBeenCalled();
  });

  it("names each input by its option's rendered text: code, emphasis and math read as their text", () => {
    const rich: QuizQuestion = {
      ...question("multiple"),
      options: [
        { _id: ids[0] as string, text: "`print(1)`", html: "<code>print(1)</code>" },
        { _id: ids[1] as string, text: "*both*", html: "<em>both</em> of them" },
        { _id: ids[2] as string, text: "![](/api/media/x.png)", html: '<img src="/api/media/x.png" alt="a graph">' },
      ],
    };
    render(<AnswerOptions question={rich} legend="Which?" choice={undefined} onChoose={() => {}} />);
    expect(screen.getByRole("checkbox", { name: "A. print(1)" })).toBeTruthy();
    expect(screen.getByRole("checkbox", { name: "B. both of them" })).toBeTruthy();
    expect(screen.getByRole("checkbox", { name: "C. a graph" })).toBeTruthy();
    expect(screen.getByText("print(1)").tagName).toBe("CODE");
  });

  it("sends one option as optionId (the original shape) and several as optionIds, and reads both back", () => {
    expect(answerOf("q", ids[0] as string)).toEqual({ questionId: "q", optionId: ids[0] });
    expect(answerOf("q", `${ids[0]},${ids[2]}`)).toEqual({ questionId: "q", optionIds: [ids[0], ids[2]] });
    expect(choiceOf({ questionId: "q", optionIds: [ids[0] as string, ids[2] as string] })).toBe(`${ids[0]},${ids[2]}`);
    expect(choiceOf({ questionId: "q", optionId: ids[1] as string })).toBe(ids[1]);
  });
});
