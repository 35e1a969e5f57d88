import { questionTableQuerySchema } from "@trainwise/contract/admin-tables";
import { DEFAULT_DIFFICULTY, DIFFICULTIES } from "@trainwise/contract/constants";
import {
  type Difficulty,
  type KeyExposure,
  moodleGrade,
  QUESTION_TYPE_LABELS,
  QUESTION_TYPES,
  type Question,
  type QuestionTableRow,
  type QuestionType,
  questionInputSchema,
  SCORING_LABELS,
  SCORING_RULES,
  type ScoringRule,
  TRUE_FALSE_OPTIONS,
  withWeights,
} from "@trainwise/contract/questions";
import { useRef, useState } from "react";
import { AdminShell } from "../../components/admin/admin-shell.tsx";
import {
  BusyNote,
  type Column,
  DataTable,
  FilterSelect,
  PageLinks,
  SearchBox,
  SortSelect,
  TableToolbar,
  useTableBusy,
} from "../../components/admin/admin-table.tsx";
import { ImageInsert } from "../../components/admin/image-insert.tsx";
import { QuestionFiles } from "../../components/admin/question-files.tsx";
import { QuestionPreview } from "../../components/admin/question-preview.tsx";
import { Alert, EditFormActions, FormField } from "../../components/ui/form-field.tsx";
import { RichText } from "../../components/ui/rich-text.tsx";
import { adminCall, tableQueryFrom, useAdminAction } from "../../lib/admin-client.ts";
import type { Route } from "./+types/questions";

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const query = tableQueryFrom(questionTableQuerySchema, request.url);
  const [page, categories] = await Promise.all([
    adminCall("questionTable", { query, signal: request.signal }),
    adminCall("questionCategories", { signal: request.signal }).catch((error) => {
      if (error instanceof Response) throw error;
      return [] as string[];
    }),
  ]);
  return { page, categories };
}

export const meta = () => [{ title: "Manage Questions | Trainwise" }, { name: "robots", content: "noindex" }];

const DIFFICULTY_LABELS: Record<Difficulty, string> = { easy: "Easy", medium: "Medium", hard: "Hard" };

interface Draft {
  text: string;
  category: string;
  difficulty: Difficulty;
  type: QuestionType;
  scoring: ScoringRule;
  options: string[];
  /**
   * The correct options' places: one for single and true/false, any number for multiple. A single answer's further
   * options worth the whole mark (Moodle's `{=Paris =Paris, France}`) are those weighed 100 (`fullMarks`).
   */
  correct: number[];
  /** Each option's weight in percent as typed; empty: what its correctness gives (decision 018). */
  weights: string[];
}
const EMPTY_DRAFT: Draft = {
  text: "",
  category: "",
  difficulty: DEFAULT_DIFFICULTY,
  type: "single",
  scoring: "all_or_nothing",
  options: [],
  // The first option added is the correct one until the admin picks another (docs/product.md#manage-questions).
  correct: [0],
  weights: [],
};

/** Whether the draft's kind lets an option carry a weight of its own: a single answer, or partial credit. */
const weighs = (draft: Pick<Draft, "type" | "scoring">) =>
  draft.type === "single" || (draft.type === "multiple" && draft.scoring === "partial");

/** Whether a single answer's option, other than the one marked correct, is weighed 100: right as well. */
const fullMarks = (draft: Draft, index: number) =>
  draft.type === "single" &&
  !draft.correct.includes(index) &&
  (draft.weights[index] ?? "").trim() !== "" &&
  moodleGrade(Number(draft.weights[index])) === 100;

/** The weight each option has without one of its own, as the field's hint shows it. */
function usualWeights(draft: Draft): number[] {
  const options = draft.options.map((_, index) => ({ isCorrect: draft.correct.includes(index) }));
  return withWeights({ type: draft.type, scoring: draft.scoring, options }).map((option) => option.weight);
}

function draftOf(question: Question): Draft {
  const correct = question.options.flatMap((option, index) => (option.isCorrect ? [index] : []));
  // A single answer's first right option is the one marked correct; any other worth the whole mark weighs 100.
  const marked = question.type === "single" ? correct.slice(0, 1) : correct;
  const usual = withWeights({
    type: question.type,
    scoring: question.scoring,
    options: question.options.map((_, index) => ({ isCorrect: marked.includes(index) })),
  });
  return {
    text: question.text,
    category: question.category,
    difficulty: question.difficulty,
    type: question.type,
    scoring: question.scoring,
    options: question.options.map((option) => option.text),
    correct: marked.length > 0 ? marked : [0],
    // Only weights of the question's own fill their fields; the others stay empty (the usual weights).
    weights: question.options.map((option, index) =>
      option.weight === usual[index]?.weight ? "" : String(option.weight),
    ),
  };
}

/** The draft as another type: true/false brings its two options; leaving multiple keeps one correct option. */
function withType(draft: Draft, type: QuestionType): Partial<Draft> {
  if (type === "true_false") return { type, options: [...TRUE_FALSE_OPTIONS], correct: [0], weights: ["", ""] };
  const options = draft.type === "true_false" ? [] : draft.options;
  // Weights mean something else in another kind: they start again from the usual ones.
  const weights = options.map(() => "");
  return { type, options, weights, correct: type === "multiple" ? draft.correct : [draft.correct[0] ?? 0] };
}

type Notice = { tone: "success" | "error"; message: string; details?: string[] };

/** Drive names, and how many more there are. */
function driveNames(names: string[], count: number): string {
  return count > names.length ? `${names.join(", ")} and ${count - names.length} more` : names.join(", ");
}

/**
 * Where the question's key stands (decision 024): seen by candidates, and where; kept secret by secure drives
 * still running. A secure test draws only questions whose key nobody has seen.
 */
function KeyExposureText({ exposure }: { exposure: KeyExposure }) {
  const parts: string[] = [];
  if (exposure.seenInCount > 0) {
    const candidates = exposure.seenBy === 1 ? "1 candidate" : `${exposure.seenBy} candidates`;
    parts.push(`Seen by ${candidates} (${driveNames(exposure.seenIn, exposure.seenInCount)})`);
  }
  if (exposure.keptSecretByCount > 0) {
    parts.push(`Kept secret by ${driveNames(exposure.keptSecretBy, exposure.keptSecretByCount)}`);
  }
  return (
    <p className="mt-1 text-sm text-slate-700">
      Answer key: {parts.length > 0 ? parts.join(". ") : "not seen by any candidate yet"}
    </p>
  );
}

/** An option's weight where it is the question's own, not what its correctness gives. */
function ownWeight(question: Question, option: Question["options"][number]): number | undefined {
  const usual = withWeights({
    type: question.type,
    scoring: question.scoring,
    options: question.options.map(({ isCorrect }) => ({ isCorrect })),
  })[question.options.indexOf(option)]?.weight;
  return option.weight === usual ? undefined : option.weight;
}

/** The bank's table: each question with its options (the correct one highlighted) and its Edit and Delete. */
function questionColumns(
  edit: (question: Question) => void,
  remove: (question: Question) => void,
  saving: boolean,
): Column<QuestionTableRow>[] {
  return [
    {
      header: "Question",
      cell: (question) => (
        <div className="min-w-48 font-semibold">
          <RichText html={question.html} />
        </div>
      ),
    },
    { header: "Category", cell: (question) => question.category },
    { header: "Difficulty", cell: (question) => DIFFICULTY_LABELS[question.difficulty] },
    {
      header: "Type",
      cell: (question) =>
        `${QUESTION_TYPE_LABELS[question.type]}${question.type === "multiple" ? ` (${SCORING_LABELS[question.scoring].toLowerCase()})` : ""}`,
    },
    {
      header: "Options",
      cell: (question) => (
        <>
          <ul className="min-w-40 space-y-1">
            {question.options.map((option) => (
              <li
                key={option._id}
                className={
                  option.isCorrect ? "rounded bg-green-100 px-2 py-1 font-semibold text-green-900" : "px-2 py-1"
                }
              >
                <RichText inline html={option.html} />
                {option.isCorrect && <span className="sr-only"> (correct answer)</span>}
                {ownWeight(question, option) !== undefined && (
                  <span className="ml-1 text-sm font-normal">(weight {ownWeight(question, option)}%)</span>
                )}
              </li>
            ))}
          </ul>
          <KeyExposureText exposure={question.key} />
        </>
      ),
    },
    {
      header: "Actions",
      cell: (question) => (
        <div className="flex gap-2">
          <button
            type="button"
            onClick={() => edit(question)}
            className="rounded border border-brand-700 px-3 py-1 text-sm text-brand-700 hover:bg-brand-50"
          >
            Edit <span className="sr-only">question {question.text}</span>
          </button>
          <button
            type="button"
            disabled={saving}
            onClick={() => remove(question)}
            className="rounded border border-red-700 px-3 py-1 text-sm text-red-700 hover:bg-red-50 disabled:opacity-50"
          >
            Delete <span className="sr-only">question {question.text}</span>
          </button>
        </div>
      ),
    },
  ];
}

export default function ManageQuestions({ loaderData }: Route.ComponentProps) {
  const { page, categories } = loaderData;
  const busy = useTableBusy();
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  const [editingId, setEditingId] = useState<string>();
  const [optionDraft, setOptionDraft] = useState("");
  /** Each weight field's problem, by option, from the contract's rules. */
  const [weightErrors, setWeightErrors] = useState<string[]>([]);
  const [notice, setNotice] = useState<Notice>();
  const formHeading = useRef<HTMLHeadingElement>(null);
  const saver = useAdminAction();
  const saving = saver.busy;

  /** Sends one change; a second while it is on its way is ignored (a double click creates one question). */
  async function send(work: Parameters<typeof saver.run>[0], fallback: string, after?: () => void) {
    setNotice(undefined);
    const outcome = await saver.run(work, fallback);
    if (!outcome) return;
    setNotice({ tone: outcome.ok ? "success" : "error", message: outcome.message, details: outcome.details });
    if (outcome.ok) after?.();
  }

  const update = (change: Partial<Draft>) => setDraft((previous) => ({ ...previous, ...change }));

  function addOption() {
    const trimmed = optionDraft.trim();
    // An option blank after trimming is not added (docs/product.md#manage-questions).
    if (!trimmed) return;
    update({ options: [...draft.options, trimmed], weights: [...draft.weights, ""] });
    setOptionDraft("");
  }

  function removeOption(index: number) {
    const correct = draft.correct
      .filter((place) => place !== index)
      .map((place) => (place > index ? place - 1 : place));
    update({
      options: draft.options.filter((_, position) => position !== index),
      weights: draft.weights.filter((_, position) => position !== index),
      correct: correct.length > 0 || draft.type === "multiple" ? correct : [0],
    });
  }

  function markCorrect(index: number, checked: boolean) {
    if (draft.type !== "multiple") {
      // The correct option of a single answer is worth the whole mark: a weight typed for it goes.
      update({ correct: [index], weights: draft.weights.map((weight, place) => (place === index ? "" : weight)) });
      return;
    }
    const others = draft.correct.filter((place) => place !== index);
    update({ correct: checked ? [...others, index].sort((a, b) => a - b) : others });
  }

  function startEditing(question: Question) {
    setEditingId(question._id);
    setDraft(draftOf(question));
    setWeightErrors([]);
    setNotice(undefined);
    formHeading.current?.focus();
  }

  function stopEditing() {
    setEditingId(undefined);
    setDraft(EMPTY_DRAFT);
    setWeightErrors([]);
  }

  function saveQuestion(event: React.FormEvent) {
    event.preventDefault();
    if (saving) return;
    setWeightErrors([]);
    const checked = questionInputSchema.safeParse({
      text: draft.text,
      category: draft.category,
      difficulty: draft.difficulty,
      type: draft.type,
      scoring: draft.scoring,
      options: draft.options.map((option, index) => {
        const typed = weighs(draft) ? (draft.weights[index] ?? "").trim() : "";
        // A field left empty keeps the usual weight; anything else is checked by the contract, as the server does.
        const weight = typed === "" ? {} : { weight: Number(typed) };
        return { text: option, isCorrect: draft.correct.includes(index) || fullMarks(draft, index), ...weight };
      }),
    });
    if (!checked.success) {
      const weightIssues: string[] = [];
      for (const issue of checked.error.issues) {
        const [field, place, part] = issue.path;
        if (field === "options" && typeof place === "number" && part === "weight") weightIssues[place] = issue.message;
      }
      setWeightErrors(weightIssues);
      const first = checked.error.issues[0];
      const place = first?.path[1];
      const message =
        first && typeof place === "number" && first.path[2] === "weight"
          ? `Option ${place + 1}: ${first.message}`
          : (first?.message ?? "Check the question.");
      setNotice({ tone: "error", message });
      return;
    }
    const question = checked.data;
    const id = editingId;
    void send(
      async (call) => {
        if (id) await call("updateQuestion", { id, body: question });
        else await call("createQuestion", { body: question });
        return id ? "Question updated." : "Question created.";
      },
      "Could not save the question.",
      stopEditing,
    );
  }

  function deleteQuestion(question: Question) {
    if (!window.confirm(`Delete the question "${question.text}"?`)) return;
    void send(async (call) => {
      await call("deleteQuestion", { id: question._id });
      return "Question deleted.";
    }, "Could not delete the question.");
  }

  return (
    <AdminShell title="Manage Questions">
      {notice && (
        <div className="mb-4">
          <Alert tone={notice.tone}>
            {notice.message}
            {notice.details && (
              <ul className="mt-2 list-disc pl-6">
                {notice.details.map((detail) => (
                  <li key={detail}>{detail}</li>
                ))}
              </ul>
            )}
          </Alert>
        </div>
      )}
      <form
        onSubmit={saveQuestion}
        noValidate
        className="grid gap-4 rounded border border-slate-200 p-4 md:grid-cols-2"
      >
        <h2 ref={formHeading} tabIndex={-1} className="text-xl font-semibold md:col-span-2">
          {editingId ? "Edit question" : "New question"}
        </h2>
        <FormField
          id="question-text"
          label="Question"
          multiline
          className="md:col-span-2"
          value={draft.text}
          onChange={(event) => update({ text: event.target.value })}
        />
        <ImageInsert fieldId="question-text" onInsert={(text) => update({ text })} />
        <FormField
          label="Category"
          value={draft.category}
          onChange={(event) => update({ category: event.target.value })}
        />
        <div>
          <label htmlFor="difficulty" className="block font-medium">
            Difficulty
          </label>
          <select
            id="difficulty"
            value={draft.difficulty}
            onChange={(event) => update({ difficulty: event.target.value as Difficulty })}
            className="mt-1 block w-full rounded border border-slate-400 px-3 py-2"
          >
            {DIFFICULTIES.map((value) => (
              <option key={value} value={value}>
                {DIFFICULTY_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="question-type" className="block font-medium">
            Question type
          </label>
          <select
            id="question-type"
            value={draft.type}
            onChange={(event) => update(withType(draft, event.target.value as QuestionType))}
            className="mt-1 block w-full rounded border border-slate-400 px-3 py-2"
          >
            {QUESTION_TYPES.map((value) => (
              <option key={value} value={value}>
                {QUESTION_TYPE_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        {draft.type === "multiple" && (
          <div>
            <label htmlFor="scoring" className="block font-medium">
              Scoring
            </label>
            <select
              id="scoring"
              aria-describedby="scoring-note"
              value={draft.scoring}
              onChange={(event) => update({ scoring: event.target.value as ScoringRule })}
              className="mt-1 block w-full rounded border border-slate-400 px-3 py-2"
            >
              {SCORING_RULES.map((value) => (
                <option key={value} value={value}>
                  {SCORING_LABELS[value]}
                </option>
              ))}
            </select>
            <p id="scoring-note" className="mt-1 text-sm text-slate-700">
              Partial credit: the weights of the options chosen are added up, from 0 to the whole mark, as Moodle does.
              Left empty, each right option weighs an equal share and each wrong one takes as much off.
            </p>
          </div>
        )}
        {draft.type !== "true_false" && (
          <div className="flex items-end gap-2 md:col-span-2">
            <FormField
              label="Option"
              className="flex-1"
              value={optionDraft}
              onChange={(event) => setOptionDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Enter") {
                  event.preventDefault();
                  addOption();
                }
              }}
            />
            <button
              type="button"
              onClick={addOption}
              className="rounded border border-brand-700 px-4 py-2 font-semibold text-brand-700"
            >
              Add Option
            </button>
          </div>
        )}
        {draft.options.length > 0 && (
          <fieldset className="md:col-span-2">
            <legend className="font-medium">
              {draft.type === "multiple" ? "Options (tick every correct one)" : "Options (choose the correct one)"}
              {weighs(draft) && (
                <span className="block text-sm font-normal text-slate-700">
                  A weight is the share of the mark an option earns, in percent: one of Moodle's grades such as 50,
                  33.33333 or -100.
                  {draft.type === "single" && " A weight of 100 makes another option right too, worth the whole mark."}
                </span>
              )}
            </legend>
            <ul className="mt-2 space-y-2">
              {draft.options.map((option, index) => (
                <li key={`${index}-${option}`} className="flex items-center gap-3">
                  <label className="flex flex-1 items-center gap-2">
                    <input
                      type={draft.type === "multiple" ? "checkbox" : "radio"}
                      name="correct-option"
                      checked={draft.correct.includes(index)}
                      onChange={(event) => markCorrect(index, event.target.checked)}
                    />
                    <span>{option}</span>
                    {draft.correct.includes(index) && (
                      <span className="text-sm font-semibold text-green-800">(correct)</span>
                    )}
                    {fullMarks(draft, index) && (
                      <span className="text-sm font-semibold text-green-800">(also right: full marks)</span>
                    )}
                  </label>
                  {weighs(draft) && !(draft.type === "single" && draft.correct.includes(index)) && (
                    <FormField
                      label={`Weight of option ${index + 1} (%)`}
                      className="w-44"
                      type="text"
                      inputMode="decimal"
                      placeholder={`${usualWeights(draft)[index] ?? 0}`}
                      value={draft.weights[index] ?? ""}
                      error={weightErrors[index]}
                      onChange={(event) =>
                        update({
                          weights: draft.options.map((_, place) =>
                            place === index ? event.target.value : (draft.weights[place] ?? ""),
                          ),
                        })
                      }
                    />
                  )}
                  {draft.type !== "true_false" && (
                    <button
                      type="button"
                      onClick={() => removeOption(index)}
                      className="text-sm text-red-700 underline"
                    >
                      Remove <span className="sr-only">option {option}</span>
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </fieldset>
        )}
        <QuestionPreview text={draft.text} options={draft.options} />
        <EditFormActions
          busy={saving}
          editing={editingId !== undefined}
          createLabel="Create Question"
          onCancel={stopEditing}
        />
      </form>

      <QuestionFiles send={send} busy={saving} />

      <section aria-labelledby="all-questions" className="mt-8">
        <h2 id="all-questions" className="text-2xl font-semibold">
          All Questions
        </h2>
        <div className="mt-3">
          <TableToolbar>
            <FilterSelect
              label="Filter by category"
              name="category"
              allLabel="All categories"
              choices={categories.map((category) => [category, category] as const)}
            />
            <FilterSelect
              label="Filter by difficulty"
              name="difficulty"
              allLabel="All difficulties"
              choices={DIFFICULTIES.map((value) => [value, DIFFICULTY_LABELS[value]] as const)}
            />
            <SearchBox label="Search questions" />
            <SortSelect
              choices={[
                ["date:desc", "Newest first"],
                ["date:asc", "Oldest first"],
                ["name:asc", "Text A–Z"],
                ["name:desc", "Text Z–A"],
              ]}
            />
          </TableToolbar>
        </div>
        <BusyNote busy={busy} />
        <DataTable
          caption="Question bank"
          columns={questionColumns(startEditing, deleteQuestion, saving)}
          rows={page.rows}
          busy={busy}
          empty="No questions available"
        />
        {page.total > page.pageSize && <PageLinks of={page} label="Questions" noun={["question", "questions"]} />}
      </section>
    </AdminShell>
  );
}
