import { DEFAULT_DIFFICULTY, DIFFICULTIES } from "@trainwise/contract/constants";
import { type Difficulty, type Question, questionInputSchema } from "@trainwise/contract/questions";
import { useEffect, useState } from "react";
import { AdminShell } from "../../components/admin-shell.tsx";
import { Alert, FormField } from "../../components/form-field.tsx";
import { requireAdminToken } from "../../guards.ts";
import { api, messageOf } from "../../lib/api.ts";

export function clientLoader() {
  return { token: requireAdminToken() };
}

export const meta = () => [{ title: "Manage Questions | Trainwise" }, { name: "robots", content: "noindex" }];

const DIFFICULTY_LABELS: Record<Difficulty, string> = { easy: "Easy", medium: "Medium", hard: "Hard" };

export default function ManageQuestions({ loaderData }: { loaderData: { token: string } }) {
  const { token } = loaderData;
  const [questions, setQuestions] = useState<Question[]>();
  const [listError, setListError] = useState<string>();
  const [text, setText] = useState("");
  const [category, setCategory] = useState("");
  const [difficulty, setDifficulty] = useState<Difficulty>(DEFAULT_DIFFICULTY);
  const [optionDraft, setOptionDraft] = useState("");
  const [options, setOptions] = useState<string[]>([]);
  const [correctIndex, setCorrectIndex] = useState(0);
  const [formError, setFormError] = useState<string>();
  const [notice, setNotice] = useState<string>();

  useEffect(() => {
    api<Question[]>("/questions", { token }).then(setQuestions, (error) =>
      setListError(messageOf(error, "Could not load the questions.")),
    );
  }, [token]);

  function addOption() {
    const trimmed = optionDraft.trim();
    // Blank after trimming is ignored (spec §5).
    if (!trimmed) return;
    setOptions((previous) => [...previous, trimmed]);
    setOptionDraft("");
  }

  function removeOption(index: number) {
    setOptions((previous) => previous.filter((_, position) => position !== index));
    setCorrectIndex((current) => (index < current ? current - 1 : index === current ? 0 : current));
  }

  async function createQuestion(event: React.FormEvent) {
    event.preventDefault();
    setFormError(undefined);
    setNotice(undefined);
    const input = {
      text,
      category,
      difficulty,
      options: options.map((option, index) => ({ text: option, isCorrect: index === correctIndex })),
    };
    const checked = questionInputSchema.safeParse(input);
    if (!checked.success) {
      setFormError(checked.error.issues[0]?.message ?? "Check the question.");
      return;
    }
    try {
      const created = await api<Question>("/questions", { method: "POST", token, body: checked.data });
      setQuestions((previous) => [created, ...(previous ?? [])]);
      setText("");
      setCategory("");
      setDifficulty(DEFAULT_DIFFICULTY);
      setOptions([]);
      setCorrectIndex(0);
      setNotice("Question created.");
    } catch (error) {
      setFormError(messageOf(error, "Could not create the question."));
    }
  }

  async function deleteQuestion(question: Question) {
    if (!window.confirm(`Delete the question "${question.text}"?`)) return;
    try {
      await api(`/questions/${question._id}`, { method: "DELETE", token });
      setQuestions((previous) => previous?.filter((candidate) => candidate._id !== question._id));
      setNotice("Question deleted.");
    } catch (error) {
      setListError(messageOf(error, "Could not delete the question."));
    }
  }

  return (
    <AdminShell title="Manage Questions" token={token}>
      <form
        onSubmit={createQuestion}
        noValidate
        className="grid gap-4 rounded border border-slate-200 p-4 md:grid-cols-2"
      >
        <h2 className="text-xl font-semibold md:col-span-2">New question</h2>
        {formError && (
          <div className="md:col-span-2">
            <Alert tone="error">{formError}</Alert>
          </div>
        )}
        {notice && (
          <div className="md:col-span-2">
            <Alert tone="success">{notice}</Alert>
          </div>
        )}
        <FormField
          label="Question"
          className="md:col-span-2"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <FormField label="Category" value={category} onChange={(event) => setCategory(event.target.value)} />
        <div>
          <label htmlFor="difficulty" className="block font-medium">
            Difficulty
          </label>
          <select
            id="difficulty"
            value={difficulty}
            onChange={(event) => setDifficulty(event.target.value as Difficulty)}
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
        {options.length > 0 && (
          <fieldset className="md:col-span-2">
            <legend className="font-medium">Options (choose the correct one)</legend>
            <ul className="mt-2 space-y-2">
              {options.map((option, index) => (
                <li key={`${index}-${option}`} className="flex items-center gap-3">
                  <label className="flex flex-1 items-center gap-2">
                    <input
                      type="radio"
                      name="correct-option"
                      checked={correctIndex === index}
                      onChange={() => setCorrectIndex(index)}
                    />
                    <span>{option}</span>
                    {correctIndex === index && <span className="text-sm font-semibold text-green-800">(correct)</span>}
                  </label>
                  <button type="button" onClick={() => removeOption(index)} className="text-sm text-red-700 underline">
                    Remove <span className="sr-only">option {option}</span>
                  </button>
                </li>
              ))}
            </ul>
          </fieldset>
        )}
        <div className="md:col-span-2">
          <button type="submit" className="rounded bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-900">
            Create Question
          </button>
        </div>
      </form>

      <section aria-labelledby="all-questions" className="mt-8">
        <h2 id="all-questions" className="text-2xl font-semibold">
          All Questions
        </h2>
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
                <button
                  type="button"
                  onClick={() => void deleteQuestion(question)}
                  className="rounded border border-red-700 px-3 py-1 text-sm text-red-700 hover:bg-red-50"
                >
                  Delete <span className="sr-only">question {question.text}</span>
                </button>
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
      </section>
    </AdminShell>
  );
}
