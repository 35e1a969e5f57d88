// The question editor's draft: what the form holds between edits, and each change the admin can make to it, as
// pure functions of the draft. Options are slots with a key of their own, so a slot keeps its field (and the
// admin's focus) while its text is edited or it moves.
import { DEFAULT_DIFFICULTY } from "@trainwise/contract/constants";
import {
  type Difficulty,
  moodleGrade,
  type Question,
  type QuestionType,
  type ScoringRule,
  TRUE_FALSE_OPTIONS,
  withWeights,
} from "@trainwise/contract/questions";
import type { z } from "zod";

export interface OptionSlot {
  /** Stays with the option through edits and moves; never reused within a page. */
  key: number;
  text: string;
  correct: boolean;
  /** The weight in percent as typed; empty: what its correctness gives (decision 018). */
  weight: string;
}

export interface Draft {
  text: string;
  category: string;
  difficulty: Difficulty;
  type: QuestionType;
  scoring: ScoringRule;
  options: OptionSlot[];
}

let lastKey = 0;
function slot(text: string, correct = false, weight = ""): OptionSlot {
  lastKey += 1;
  return { key: lastKey, text, correct, weight };
}

export const EMPTY_DRAFT: Draft = {
  text: "",
  category: "",
  difficulty: DEFAULT_DIFFICULTY,
  type: "single",
  scoring: "all_or_nothing",
  options: [],
};

/** Whether the draft's kind lets an option carry a weight of its own: a single answer, or partial credit. */
export const weighs = (draft: Pick<Draft, "type" | "scoring">) =>
  draft.type === "single" || (draft.type === "multiple" && draft.scoring === "partial");

/** Whether an option shows a weight field: the correct option of a single answer is always worth the whole mark. */
export const showsWeight = (draft: Draft, option: OptionSlot) =>
  weighs(draft) && !(draft.type === "single" && option.correct);

/**
 * Whether an option of a single answer other than the one marked correct is weighed 100: right as well, worth the
 * whole mark (Moodle's `{=Paris =Paris, France ~London}`).
 */
export const fullMarks = (draft: Draft, option: OptionSlot) =>
  draft.type === "single" &&
  !option.correct &&
  option.weight.trim() !== "" &&
  moodleGrade(Number(option.weight)) === 100;

/** The weight each option has without one of its own, as the field's placeholder shows it. */
export function usualWeights(draft: Draft): number[] {
  const options = draft.options.map((option) => ({ isCorrect: option.correct }));
  return withWeights({ type: draft.type, scoring: draft.scoring, options }).map((option) => option.weight);
}

export function draftOf(question: Question): Draft {
  // A single answer's first right option is the one marked correct; any other right one weighs 100 (fullMarks).
  const firstRight = question.options.findIndex((option) => option.isCorrect);
  const marked = question.options.map(
    (option, index) => option.isCorrect && (question.type !== "single" || index === firstRight),
  );
  const usual = withWeights({
    type: question.type,
    scoring: question.scoring,
    options: marked.map((isCorrect) => ({ isCorrect })),
  });
  const options = question.options.map((option, index) =>
    // Only weights of the question's own fill their fields; the others stay empty (the usual weights).
    slot(option.text, marked[index], option.weight === usual[index]?.weight ? "" : String(option.weight)),
  );
  return {
    text: question.text,
    category: question.category,
    difficulty: question.difficulty,
    type: question.type,
    scoring: question.scoring,
    options: withOneCorrect(options, question.type),
  };
}

/** A single answer (or true/false) always has one option marked correct: the first, until the admin picks one. */
function withOneCorrect(options: OptionSlot[], type: QuestionType): OptionSlot[] {
  if (type === "multiple" || options.length === 0 || options.some((option) => option.correct)) return options;
  return options.map((option, index) => (index === 0 ? { ...option, correct: true } : option));
}

/** Adds an option at the end; the first option added is correct until the admin marks another. */
export function addOption(draft: Draft, text: string): Draft {
  const first = draft.options.length === 0;
  return { ...draft, options: withOneCorrect([...draft.options, slot(text, first)], draft.type) };
}

export function editOption(draft: Draft, index: number, change: Partial<Pick<OptionSlot, "text" | "weight">>): Draft {
  return {
    ...draft,
    options: draft.options.map((option, place) => (place === index ? { ...option, ...change } : option)),
  };
}

export function removeOption(draft: Draft, index: number): Draft {
  return { ...draft, options: withOneCorrect(draft.options.toSpliced(index, 1), draft.type) };
}

/** Swaps an option with its neighbour above (-1) or below (+1); its mark and weight go with it. */
export function moveOption(draft: Draft, index: number, by: -1 | 1): Draft {
  const other = index + by;
  const moving = draft.options[index];
  const neighbour = draft.options[other];
  if (!moving || !neighbour) return draft;
  return { ...draft, options: draft.options.with(index, neighbour).with(other, moving) };
}

export function markCorrect(draft: Draft, index: number, checked: boolean): Draft {
  if (draft.type === "multiple") {
    return {
      ...draft,
      options: draft.options.map((option, place) => (place === index ? { ...option, correct: checked } : option)),
    };
  }
  // The correct option of a single answer is worth the whole mark: a weight typed for it goes.
  return {
    ...draft,
    options: draft.options.map((option, place) =>
      place === index ? { ...option, correct: true, weight: "" } : { ...option, correct: false },
    ),
  };
}

/** The draft as another type: true/false brings its two options; leaving multiple keeps one correct option. */
export function withType(draft: Draft, type: QuestionType): Draft {
  if (type === "true_false") {
    return { ...draft, type, options: TRUE_FALSE_OPTIONS.map((text, index) => slot(text, index === 0)) };
  }
  const kept = draft.type === "true_false" ? [] : draft.options;
  const firstCorrect = kept.findIndex((option) => option.correct);
  // Weights mean something else in another kind: they start again from the usual ones.
  const options = kept.map((option, index) => ({
    ...option,
    weight: "",
    correct: type === "multiple" ? option.correct : index === Math.max(firstCorrect, 0),
  }));
  return { ...draft, type, options };
}

/**
 * The form after a new question is saved: ready for the next one in the same category, of the same difficulty and
 * kind, with the text and options cleared (a true/false question's two options stay, as the kind brings them).
 */
export function nextDraft(draft: Draft): Draft {
  const kept = { ...EMPTY_DRAFT, category: draft.category, difficulty: draft.difficulty, scoring: draft.scoring };
  return withType({ ...kept, type: "single" }, draft.type);
}

/** The draft as the contract's question input, for `questionInputSchema` to check exactly as the server does. */
export function inputOf(draft: Draft) {
  return {
    text: draft.text,
    category: draft.category,
    difficulty: draft.difficulty,
    type: draft.type,
    scoring: draft.scoring,
    options: draft.options.map((option) => {
      const typed = showsWeight(draft, option) ? option.weight.trim() : "";
      // A field left empty keeps the usual weight; anything else is checked by the contract, as the server does.
      return {
        text: option.text,
        isCorrect: option.correct || fullMarks(draft, option),
        ...(typed === "" ? {} : { weight: Number(typed) }),
      };
    }),
  };
}

/** Each option field's problem, by option and field, and the first problem in words that name its option. */
export interface DraftProblems {
  message: string;
  options: { text?: string; weight?: string }[];
}

export function problemsOf(issues: readonly z.core.$ZodIssue[]): DraftProblems {
  const options: DraftProblems["options"] = [];
  let message: string | undefined;
  for (const issue of issues) {
    const [field, place, part] = issue.path;
    const named = field === "options" && typeof place === "number" && (part === "text" || part === "weight");
    if (named) options[place] = { ...options[place], [part]: options[place]?.[part] ?? issue.message };
    message ??= named ? `Option ${place + 1}: ${issue.message}` : issue.message;
  }
  return { message: message ?? "Check the question.", options };
}
