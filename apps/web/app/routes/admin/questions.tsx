import { questionTableQuerySchema } from "@trainwise/contract/admin-tables";
import { DIFFICULTIES } from "@trainwise/contract/constants";
import {
  type Difficulty,
  type KeyExposure,
  QUESTION_TYPE_LABELS,
  QUESTION_TYPES,
  type Question,
  type QuestionTableRow,
  type QuestionType,
  questionInputSchema,
  SCORING_LABELS,
  SCORING_RULES,
  type ScoringRule,
  withWeights,
} from "@trainwise/contract/questions";
import { useEffect, useRef, useState } from "react";
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
import { MARKDOWN_HINT, MarkdownHelp } from "../../components/admin/markdown-help.tsx";
import { QuestionFiles } from "../../components/admin/question-files.tsx";
import { QuestionPreview } from "../../components/admin/question-preview.tsx";
import { Alert, EditFormActions, FormField } from "../../components/ui/form-field.tsx";
import { RichText } from "../../components/ui/rich-text.tsx";
import { adminCall, tableQueryFrom, useAdminAction } from "../../lib/admin-client.ts";
import type { Route } from "./+types/questions";
import {
  addOption,
  type Draft,
  type DraftProblems,
  draftOf,
  EMPTY_DRAFT,
  editOption,
  fullMarks,
  inputOf,
  markCorrect,
  moveOption,
  nextDraft,
  type OptionSlot,
  problemsOf,
  removeOption,
  showsWeight,
  usualWeights,
  weighs,
  withType,
} from "./question-draft.ts";

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

/** The ids of an option's text field and move buttons: by its key, so focus can follow the option as it moves. */
const optionTextId = (option: OptionSlot) => `option-${option.key}-text`;
const moveButtonId = (option: OptionSlot, by: -1 | 1) => `option-${option.key}-${by === -1 ? "up" : "down"}`;

export default function ManageQuestions({ loaderData }: Route.ComponentProps) {
  const { page, categories } = loaderData;
  const busy = useTableBusy();
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  const [editingId, setEditingId] = useState<string>();
  const [optionDraft, setOptionDraft] = useState("");
  /** Each option field's problem, by option, from the contract's rules. */
  const [optionErrors, setOptionErrors] = useState<DraftProblems["options"]>([]);
  const [notice, setNotice] = useState<Notice>();
  const formHeading = useRef<HTMLHeadingElement>(null);
  /** The id of the control that takes focus once the draft's change is on the screen (after a move or removal). */
  const focusNext = useRef<string>(undefined);
  const saver = useAdminAction();
  const saving = saver.busy;

  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = undefined;
  });

  /** Sends one change; a second while it is on its way is ignored (a double click creates one question). */
  async function send(work: Parameters<typeof saver.run>[0], fallback: string, after?: () => void) {
    setNotice(undefined);
    const outcome = await saver.run(work, fallback);
    if (!outcome) return;
    setNotice({ tone: outcome.ok ? "success" : "error", message: outcome.message, details: outcome.details });
    if (outcome.ok) after?.();
  }

  const update = (change: Partial<Draft>) => setDraft((previous) => ({ ...previous, ...change }));

  function addNewOption() {
    const trimmed = optionDraft.trim();
    // An option blank after trimming is not added (docs/product.md#manage-questions).
    if (!trimmed) return;
    setDraft((previous) => addOption(previous, trimmed));
    setOptionDraft("");
  }

  function removeSlot(index: number) {
    const remaining = draft.options.toSpliced(index, 1);
    // Focus stays in the list: on the option now in this place (or the one before), else on the Option field.
    const next = remaining[Math.min(index, remaining.length - 1)];
    focusNext.current = next ? optionTextId(next) : "new-option";
    setDraft((previous) => removeOption(previous, index));
    setOptionErrors([]);
  }

  function moveSlot(index: number, by: -1 | 1) {
    const moving = draft.options[index];
    if (!moving) return;
    // The button pressed follows its option; at the top or bottom, where it is disabled, the other one does.
    const lands = index + by;
    const stillMoves = by === -1 ? lands > 0 : lands < draft.options.length - 1;
    focusNext.current = moveButtonId(moving, stillMoves ? by : by === -1 ? 1 : -1);
    setDraft((previous) => moveOption(previous, index, by));
    setOptionErrors([]);
  }

  function startEditing(question: Question) {
    setEditingId(question._id);
    setDraft(draftOf(question));
    setOptionErrors([]);
    setNotice(undefined);
    formHeading.current?.focus();
  }

  function stopEditing() {
    setEditingId(undefined);
    setDraft(EMPTY_DRAFT);
    setOptionErrors([]);
  }

  function saveQuestion(event: React.FormEvent) {
    event.preventDefault();
    if (saving) return;
    setOptionErrors([]);
    const checked = questionInputSchema.safeParse(inputOf(draft));
    if (!checked.success) {
      const problems = problemsOf(checked.error.issues);
      setOptionErrors(problems.options);
      setNotice({ tone: "error", message: problems.message });
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
      () => {
        if (id) {
          stopEditing();
          return;
        }
        // The next question most often goes into the same category: the form keeps it, and the text takes focus.
        setDraft(nextDraft);
        focusNext.current = "question-text";
      },
    );
  }

  function deleteQuestion(question: Question) {
    if (!window.confirm(`Delete the question "${question.text}"?`)) return;
    void send(async (call) => {
      await call("deleteQuestion", { id: question._id });
      return "Question deleted.";
    }, "Could not delete the question.");
  }

  const usual = usualWeights(draft);

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
        className="grid min-w-0 gap-4 rounded border border-slate-200 p-4 md:grid-cols-2"
      >
        <h2 ref={formHeading} tabIndex={-1} className="text-xl font-semibold md:col-span-2">
          {editingId ? "Edit question" : "New question"}
        </h2>
        <FormField
          id="question-text"
          label="Question"
          hint={MARKDOWN_HINT}
          multiline
          className="md:col-span-2"
          value={draft.text}
          onChange={(event) => update({ text: event.target.value })}
        />
        <MarkdownHelp />
        <ImageInsert fieldId="question-text" onInsert={(text) => update({ text })} />
        <FormField
          label="Category"
          hint="Choose one the bank has or type a new one; it stays for the next question."
          list="question-categories"
          autoComplete="off"
          value={draft.category}
          onChange={(event) => update({ category: event.target.value })}
        />
        <datalist id="question-categories">
          {categories.map((category) => (
            <option key={category} value={category} />
          ))}
        </datalist>
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
            onChange={(event) => setDraft((previous) => withType(previous, event.target.value as QuestionType))}
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
              id="new-option"
              label="Option"
              className="flex-1"
              value={optionDraft}
              onChange={(event) => setOptionDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Enter") {
                  event.preventDefault();
                  addNewOption();
                }
              }}
            />
            <button
              type="button"
              onClick={addNewOption}
              className="rounded border border-brand-700 px-4 py-2 font-semibold text-brand-700"
            >
              Add Option
            </button>
          </div>
        )}
        {draft.options.length > 0 && (
          <fieldset className="min-w-0 md:col-span-2">
            <legend className="font-medium">
              {draft.type === "multiple" ? "Options (tick every correct one)" : "Options (choose the correct one)"}
              <span className="block text-sm font-normal text-slate-700">
                {draft.type === "true_false"
                  ? "A true/false question has these two options."
                  : "Edit an option's text in place; move it up or down to change the order students see."}
                {weighs(draft) &&
                  " A weight is the share of the mark an option earns, in percent: one of Moodle's grades such as 50, 33.33333 or -100."}
                {draft.type === "single" && " A weight of 100 makes another option right too, worth the whole mark."}
              </span>
            </legend>
            <ol className="mt-2 space-y-3">
              {draft.options.map((option, index) => (
                <li
                  key={option.key}
                  className="flex flex-wrap items-end gap-3 rounded border border-slate-200 p-2 sm:flex-nowrap"
                >
                  {draft.type === "true_false" ? (
                    <span className="flex-1 py-2">{option.text}</span>
                  ) : (
                    <FormField
                      id={optionTextId(option)}
                      label={`Option ${index + 1} text`}
                      className="min-w-0 flex-1 basis-full sm:basis-auto"
                      value={option.text}
                      error={optionErrors[index]?.text}
                      onChange={(event) =>
                        setDraft((previous) => editOption(previous, index, { text: event.target.value }))
                      }
                    />
                  )}
                  <label
                    className={`flex items-center gap-2 py-2 ${option.correct ? "font-semibold text-green-800" : ""}`}
                  >
                    <input
                      type={draft.type === "multiple" ? "checkbox" : "radio"}
                      name="correct-option"
                      checked={option.correct}
                      onChange={(event) => setDraft((previous) => markCorrect(previous, index, event.target.checked))}
                    />
                    Correct{" "}
                    <span className="sr-only">
                      answer: {draft.type === "true_false" ? option.text : `option ${index + 1}`}
                    </span>
                  </label>
                  {fullMarks(draft, option) && (
                    <span className="py-2 text-sm font-semibold text-green-800">(also right: full marks)</span>
                  )}
                  {showsWeight(draft, option) && (
                    <FormField
                      label={`Weight of option ${index + 1} (%)`}
                      className="w-44"
                      type="text"
                      inputMode="decimal"
                      placeholder={`${usual[index] ?? 0}`}
                      value={option.weight}
                      error={optionErrors[index]?.weight}
                      onChange={(event) =>
                        setDraft((previous) => editOption(previous, index, { weight: event.target.value }))
                      }
                    />
                  )}
                  {draft.type !== "true_false" && (
                    <div className="flex gap-1 py-1">
                      <button
                        id={moveButtonId(option, -1)}
                        type="button"
                        disabled={index === 0}
                        onClick={() => moveSlot(index, -1)}
                        className="rounded border border-slate-400 px-3 py-1 disabled:opacity-40"
                      >
                        <span aria-hidden="true">↑</span>
                        <span className="sr-only">Move option {index + 1} up</span>
                      </button>
                      <button
                        id={moveButtonId(option, 1)}
                        type="button"
                        disabled={index === draft.options.length - 1}
                        onClick={() => moveSlot(index, 1)}
                        className="rounded border border-slate-400 px-3 py-1 disabled:opacity-40"
                      >
                        <span aria-hidden="true">↓</span>
                        <span className="sr-only">Move option {index + 1} down</span>
                      </button>
                      <button
                        type="button"
                        onClick={() => removeSlot(index)}
                        className="px-2 text-sm text-red-700 underline"
                      >
                        Remove <span className="sr-only">option {index + 1}</span>
                      </button>
                    </div>
                  )}
                </li>
              ))}
            </ol>
          </fieldset>
        )}
        <QuestionPreview text={draft.text} options={draft.options.map((option) => option.text)} />
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
