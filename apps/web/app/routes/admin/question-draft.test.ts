import { questionInputSchema } from "@trainwise/contract/questions";
import { describe, expect, it } from "vitest";
import { draftOf, editOption, fullMarks, inputOf, markCorrect } from "./question-draft.ts";

const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
// Moodle's `{=Paris =Paris, France ~London}`: a single answer with two options worth the whole mark.
const severalRight = {
  _id: id(0),
  text: "The capital of France?",
  html: "",
  category: "Geography",
  difficulty: "easy" as const,
  type: "single" as const,
  scoring: "all_or_nothing" as const,
  createdAt: "2026-11-26T10:00:00.000Z",
  options: [
    { _id: id(1), text: "Paris", html: "", isCorrect: true, weight: 100 },
    { _id: id(2), text: "Paris, France", html: "", isCorrect: true, weight: 100 },
    { _id: id(3), text: "London", html: "", isCorrect: false, weight: 0 },
  ],
};

describe("a single answer with several options worth the whole mark in the editor", () => {
  it("opens with the first marked correct and the second weighing 100, and saves both as right", () => {
    const draft = draftOf(severalRight);
    expect(draft.options.map((option) => [option.correct, option.weight])).toEqual([
      [true, ""],
      [false, "100"],
      [false, ""],
    ]);
    expect(draft.options.map((option) => fullMarks(draft, option))).toEqual([false, true, false]);
    const input = inputOf(draft);
    expect(input.options.map((option) => option.isCorrect)).toEqual([true, true, false]);
    expect(questionInputSchema.safeParse(input).success).toBe(true);
  });

  it("makes an option right by its weight of 100 and wrong again when the weight changes", () => {
    const draft = editOption(draftOf(severalRight), 1, { weight: "50" });
    expect(inputOf(draft).options.map((option) => [option.isCorrect, option.weight])).toEqual([
      [true, undefined],
      [false, 50],
      [false, undefined],
    ]);
    // Choosing another option as the correct one leaves one right option and the others at their usual weights.
    const moved = markCorrect(draftOf(severalRight), 2, true);
    expect(inputOf(moved).options.map((option) => option.isCorrect)).toEqual([false, true, true]);
  });
});
