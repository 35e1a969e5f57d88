import { DEFAULT_DIFFICULTY, DIFFICULTIES } from "@trainwise/contract/constants";
import { type Difficulty, type Question, questionInputSchema } from "@trainwise/contract/questions";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { AdminShell } from "../../components/admin-shell.tsx";
import { Alert, EditFormActions, FormField } from "../../components/form-field.tsx";
import { Pager } from "../../components/pager.tsx";
import { requireAdminToken } from "../../guards.ts";
import { ApiError, api, apiPage, downloadFile, messageOf } from "../../lib/api.ts";
// Validates the draft with the contract's schema, in the CSP-safe mode.
import "../../lib/zod-resolver.ts";

export function clientLoader() {
  return { token: requireAdminToken() };
}

export const meta = () => [{ title: "Manage Questions | Trainwise" }, { name: "robots", content: "noindex" }];

const DIFFICULTY_LABELS: Record<Difficulty, string> = { easy: "Easy", medium: "Medium", hard: "Hard" };
const PAGE_SIZE = 20;

interface Draft {
  text: string;
  category: string;
  difficulty: Difficulty;
  options: string[];
  correctIndex: number;
}
const EMPTY_DRAFT: Draft = { text: "", category: "", difficulty: DEFAULT_DIFFICULTY, options: [], correctIndex: 0 };

function draftOf(question: Question): Draft {
  return {
    text: question.text,
    category: question.category,
    difficulty: question.difficulty,
    options: question.options.map((option) => option.text),
    correctIndex: Math.max(
      0,
      question.options.findIndex((option) => option.isCorrect),
    ),
  };
}

function FilterSelect(props: {
  label: string;
  allLabel: string;
  value: string;
  choices: [value: string, label: string][];
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block font-medium">
        {props.label}
      </label>
      <select
        id={id}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        className="mt-1 block w-full rounded border border-slate-400 px-3 py-2"
      >
        <option value="">{props.allLabel}</option>
        {props.choices.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

type Notice = { tone: "success" | "error"; message: string; details?: string[] };

export default function ManageQuestions({ loaderData }: { loaderData: { token: string } }) {
  const { token } = loaderData;
  const [questions, setQuestions] = useState<Question[]>();
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState({ category: "", difficulty: "", search: "" });
  const [categories, setCategories] = useState<string[]>([]);
  const [listError, setListError] = useState<string>();
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  const [editingId, setEditingId] = useState<string>();
  const [optionDraft, setOptionDraft] = useState("");
  const [notice, setNotice] = useState<Notice>();
  const formHeading = useRef<HTMLHeadingElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const load = useCallback(async () => {
    const query = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE) });
    for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
    try {
      const result = await apiPage<Question>(`/questions?${query}`, { token });
      setQuestions(result.items);
      setTotal(result.total);
      setListError(undefined);
      setCategories(await api<string[]>("/questions/categories", { token }));
    } catch (error) {
      setListError(messageOf(error, "Could not load the questions."));
    }
  }, [filters, page, token]);

  useEffect(() => {
    void load();
  }, [load]);

  const update = (change: Partial<Draft>) => setDraft((previous) => ({ ...previous, ...change }));
  // A new filter starts again from the first page.
  const setFilter = (change: Partial<typeof filters>) => {
    setPage(1);
    setFilters((previous) => ({ ...previous, ...change }));
  };

  function addOption() {
    const trimmed = optionDraft.trim();
    // Blank after trimming is ignored (spec §5).
    if (!trimmed) return;
    update({ options: [...draft.options, trimmed] });
    setOptionDraft("");
  }

  function removeOption(index: number) {
    const current = draft.correctIndex;
    update({
      options: draft.options.filter((_, position) => position !== index),
      correctIndex: index < current ? current - 1 : index === current ? 0 : current,
    });
  }

  function startEditing(question: Question) {
    setEditingId(question._id);
    setDraft(draftOf(question));
    setNotice(undefined);
    formHeading.current?.focus();
  }

  function stopEditing() {
    setEditingId(undefined);
    setDraft(EMPTY_DRAFT);
  }

  async function saveQuestion(event: React.FormEvent) {
    event.preventDefault();
    setNotice(undefined);
    const checked = questionInputSchema.safeParse({
      text: draft.text,
      category: draft.category,
      difficulty: draft.difficulty,
      options: draft.options.map((option, index) => ({ text: option, isCorrect: index === draft.correctIndex })),
    });
    if (!checked.success) {
      setNotice({ tone: "error", message: checked.error.issues[0]?.message ?? "Check the question." });
      return;
    }
    try {
      if (editingId) {
        await api<Question>(`/questions/${editingId}`, { method: "PUT", token, body: checked.data });
        setNotice({ tone: "success", message: "Question updated." });
        stopEditing();
        await load();
      } else {
        const created = await api<Question>("/questions", { method: "POST", token, body: checked.data });
        // A created question appears at the top (spec §4).
        setQuestions((previous) => [created, ...(previous ?? [])]);
        setTotal((value) => value + 1);
        setDraft(EMPTY_DRAFT);
        setNotice({ tone: "success", message: "Question created." });
      }
    } catch (error) {
      setNotice({ tone: "error", message: messageOf(error, "Could not save the question.") });
    }
  }

  async function deleteQuestion(question: Question) {
    if (!window.confirm(`Delete the question "${question.text}"?`)) return;
    try {
      await api(`/questions/${question._id}`, { method: "DELETE", token });
      setQuestions((previous) => previous?.filter((candidate) => candidate._id !== question._id));
      setTotal((value) => value - 1);
      setNotice({ tone: "success", message: "Question deleted." });
    } catch (error) {
      setNotice({ tone: "error", message: messageOf(error, "Could not delete the question.") });
    }
  }

  async function importFile() {
    const file = fileInput.current?.files?.[0];
    if (!file) {
      setNotice({ tone: "error", message: "Choose a CSV file to import." });
      return;
    }
    try {
      const { imported } = await api<{ imported: number }>("/questions/import", {
        method: "POST",
        token,
        csv: await file.text(),
      });
      setNotice({ tone: "success", message: `Imported ${imported} questions.` });
      if (fileInput.current) fileInput.current.value = "";
      setPage(1);
      await load();
    } catch (error) {
      const details =
        error instanceof ApiError
          ? Object.entries(error.fields).map(([where, what]) => `${where}: ${what}`)
          : undefined;
      setNotice({ tone: "error", message: messageOf(error, "The import failed."), details });
    }
  }

  const download = (path: string, filename: string) =>
    downloadFile(path, token, filename).catch((error) =>
      setNotice({ tone: "error", message: messageOf(error, "The download failed.") }),
    );

  return (
    <AdminShell title="Manage Questions" token={token}>
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
          label="Question"
          className="md:col-span-2"
          value={draft.text}
          onChange={(event) => update({ text: event.target.value })}
        />
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
        {draft.options.length > 0 && (
          <fieldset className="md:col-span-2">
            <legend className="font-medium">Options (choose the correct one)</legend>
            <ul className="mt-2 space-y-2">
              {draft.options.map((option, index) => (
                <li key={`${index}-${option}`} className="flex items-center gap-3">
                  <label className="flex flex-1 items-center gap-2">
                    <input
                      type="radio"
                      name="correct-option"
                      checked={draft.correctIndex === index}
                      onChange={() => update({ correctIndex: index })}
                    />
                    <span>{option}</span>
                    {draft.correctIndex === index && (
                      <span className="text-sm font-semibold text-green-800">(correct)</span>
                    )}
                  </label>
                  <button type="button" onClick={() => removeOption(index)} className="text-sm text-red-700 underline">
                    Remove <span className="sr-only">option {option}</span>
                  </button>
                </li>
              ))}
            </ul>
          </fieldset>
        )}
        <EditFormActions
          busy={false}
          editing={editingId !== undefined}
          createLabel="Create Question"
          onCancel={stopEditing}
        />
      </form>

      <section aria-labelledby="csv-tools" className="mt-6 rounded border border-slate-200 p-4">
        <h2 id="csv-tools" className="text-xl font-semibold">
          Import and export
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          One question a row: text, category, difficulty (easy, medium or hard), correct (the number of the right
          option) and option1 to option10, at most 5000 rows. A file with any bad row imports nothing and lists the
          problems.
        </p>
        <div className="mt-3 flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="csv-file" className="block font-medium">
              CSV file
            </label>
            <input id="csv-file" ref={fileInput} type="file" accept=".csv,text/csv" className="mt-1 block" />
          </div>
          <button
            type="button"
            onClick={() => void importFile()}
            className="rounded bg-brand-700 px-4 py-2 font-semibold text-white"
          >
            Import CSV
          </button>
          <button
            type="button"
            onClick={() => void download("/questions/export.csv", "questions.csv")}
            className="rounded border border-brand-700 px-4 py-2 font-semibold text-brand-700"
          >
            Export CSV
          </button>
          <button
            type="button"
            onClick={() => void download("/questions/template.csv", "questions-template.csv")}
            className="rounded border border-slate-400 px-4 py-2 font-semibold"
          >
            Download template
          </button>
        </div>
      </section>

      <section aria-labelledby="all-questions" className="mt-8">
        <h2 id="all-questions" className="text-2xl font-semibold">
          All Questions
        </h2>
        <div className="mt-3 grid gap-3 sm:grid-cols-3">
          <FilterSelect
            label="Filter by category"
            allLabel="All categories"
            value={filters.category}
            choices={categories.map((category) => [category, category])}
            onChange={(category) => setFilter({ category })}
          />
          <FilterSelect
            label="Filter by difficulty"
            allLabel="All difficulties"
            value={filters.difficulty}
            choices={DIFFICULTIES.map((value) => [value, DIFFICULTY_LABELS[value]])}
            onChange={(difficulty) => setFilter({ difficulty })}
          />
          <div>
            <label htmlFor="filter-search" className="block font-medium">
              Search questions
            </label>
            <input
              id="filter-search"
              type="search"
              value={filters.search}
              onChange={(event) => setFilter({ search: event.target.value })}
              className="mt-1 block w-full rounded border border-slate-400 px-3 py-2"
            />
          </div>
        </div>
        {listError && (
          <div className="mt-3">
            <Alert tone="error">{listError}</Alert>
          </div>
        )}
        {!questions && !listError && <p role="status">Loading...</p>}
        {questions?.length === 0 && <p className="mt-3">No questions available</p>}
        <ul className="mt-4 space-y-4">
          {questions?.map((question) => (
            <li key={question._id} className="rounded border border-slate-200 p-4">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <h3 className="font-semibold">{question.text}</h3>
                <div className="flex gap-2">
                  <button
                    type="button"
                    onClick={() => startEditing(question)}
                    className="rounded border border-brand-700 px-3 py-1 text-sm text-brand-700 hover:bg-brand-50"
                  >
                    Edit <span className="sr-only">question {question.text}</span>
                  </button>
                  <button
                    type="button"
                    onClick={() => void deleteQuestion(question)}
                    className="rounded border border-red-700 px-3 py-1 text-sm text-red-700 hover:bg-red-50"
                  >
                    Delete <span className="sr-only">question {question.text}</span>
                  </button>
                </div>
              </div>
              <p className="mt-1 text-sm text-slate-700">
                Category: {question.category} · Difficulty: {DIFFICULTY_LABELS[question.difficulty]}
              </p>
              <ul className="mt-2 space-y-1">
                {question.options.map((option) => (
                  <li
                    key={option._id}
                    className={
                      option.isCorrect ? "rounded bg-green-100 px-2 py-1 font-semibold text-green-900" : "px-2 py-1"
                    }
                  >
                    {option.text}
                    {option.isCorrect && <span className="sr-only"> (correct answer)</span>}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
        {questions && total > PAGE_SIZE && (
          <Pager page={page} pageSize={PAGE_SIZE} total={total} onPage={setPage} label="Questions" />
        )}
      </section>
    </AdminShell>
  );
}
