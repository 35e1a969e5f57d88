// The question bank's files on the admin screen: upload a file in CSV, GIFT, Aiken or Moodle XML, see what it
// would create before anything is written (each question importable, importable with what it loses named, of a
// kind the bank does not hold, or with a problem at its line), confirm what is left out and import the rest;
// export the bank (or the category filtered below) in any of the formats. Admin-only: the route that draws it is
// never loaded by a public page.
import { DIFFICULTIES } from "@trainwise/contract/constants";
import {
  BANK_FORMAT_LABELS,
  BANK_FORMATS,
  type BankFormat,
  type Difficulty,
  QUESTION_TYPE_LABELS,
  type QuestionImportPreview,
  SCORING_LABELS,
} from "@trainwise/contract/questions";
import { useEffect, useId, useRef, useState } from "react";
import { useLocation } from "react-router";
import { adminDownload, type useAdminAction } from "../../lib/admin-client.ts";
import { Alert } from "../ui/form-field.tsx";
import { RichText } from "../ui/rich-text.tsx";
import { TableScrollBox } from "./admin-table.tsx";

type Send = (
  work: Parameters<ReturnType<typeof useAdminAction>["run"]>[0],
  fallback: string,
  after?: () => void,
) => Promise<void>;

const DIFFICULTY_LABELS: Record<Difficulty, string> = { easy: "Easy", medium: "Medium", hard: "Hard" };

const FILE_EXTENSIONS: Record<BankFormat, string> = {
  csv: "csv",
  gift: "gift.txt",
  aiken: "aiken.txt",
  "moodle-xml": "xml",
};

interface Upload {
  text: string;
  name: string;
  query: { format: BankFormat; category?: string; difficulty: Difficulty };
}

export function QuestionFiles({ send, busy }: { send: Send; busy: boolean }) {
  const ids = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const previewHeading = useRef<HTMLHeadingElement>(null);
  const [format, setFormat] = useState<BankFormat | "detect">("detect");
  const [category, setCategory] = useState("");
  const [difficulty, setDifficulty] = useState<Difficulty>("medium");
  const [preview, setPreview] = useState<{ upload: Upload; result: QuestionImportPreview }>();
  const [skipConfirmed, setSkipConfirmed] = useState(false);
  const [skipInvalid, setSkipInvalid] = useState(false);
  const [lossesAccepted, setLossesAccepted] = useState(false);
  const [multichoiceset, setMultichoiceset] = useState(false);
  const [exportFormat, setExportFormat] = useState<BankFormat>("csv");
  const [problem, setProblem] = useState<string>();
  const location = useLocation();

  // A new preview replaces what was on screen: take the reader to it once it is drawn.
  useEffect(() => {
    if (preview) previewHeading.current?.focus();
  }, [preview]);

  async function showPreview() {
    setProblem(undefined);
    const file = fileInput.current?.files?.[0];
    if (!file) {
      setProblem("Choose a file to import.");
      return;
    }
    const text = await file.text();
    const query = {
      ...(format === "detect" ? {} : { format }),
      ...(category.trim() ? { category: category.trim() } : {}),
      difficulty,
    };
    await send(async (call) => {
      const result = await call("previewQuestionImport", { query, file: text });
      setPreview({ upload: { text, name: file.name, query: { ...query, format: result.format } }, result });
      setSkipConfirmed(false);
      setSkipInvalid(false);
      setLossesAccepted(false);
      return `Preview of ${file.name}: nothing has been imported yet.`;
    }, "The file could not be read.");
  }

  function confirmImport() {
    if (!preview) return;
    const { upload, result } = preview;
    void send(
      async (call) => {
        const done = await call("importQuestions", {
          query: {
            ...upload.query,
            skipUnsupported: result.unsupported.length > 0 ? "true" : "false",
            skipInvalid: result.problemCount > 0 ? "true" : "false",
            acceptLosses: result.questions.some((question) => question.losses) ? "true" : "false",
          },
          file: upload.text,
        });
        const skipped = done.skipped > 0 ? ` ${done.skipped} of kinds the bank does not hold were skipped.` : "";
        const invalid = done.invalid ? ` ${done.invalid} with problems were left out.` : "";
        const lost = done.withLosses ? ` ${done.withLosses} were imported without what they lose.` : "";
        return `Imported ${done.imported} questions.${skipped}${invalid}${lost}`;
      },
      "The import failed.",
      () => {
        setPreview(undefined);
        if (fileInput.current) fileInput.current.value = "";
      },
    );
  }

  function download(which: "export" | "template") {
    void send(async () => {
      if (which === "template") {
        await adminDownload("questionTemplate", "questions-template.csv");
      } else {
        // The category and difficulty filtered in the list below, if any; else the whole bank.
        const params = new URLSearchParams(location.search);
        const query = {
          format: exportFormat,
          category: params.get("category") || undefined,
          difficulty: (params.get("difficulty") as Difficulty | null) || undefined,
          multichoiceset: exportFormat === "moodle-xml" && multichoiceset ? "true" : undefined,
        };
        await adminDownload("questionExportAs", `questions.${FILE_EXTENSIONS[exportFormat]}`, { query });
      }
      return "The download has started.";
    }, "The download failed.");
  }

  const result = preview?.result;
  const withLosses = result?.questions.filter((question) => question.losses) ?? [];
  const blocked =
    !result ||
    (result.problemCount > 0 && !skipInvalid) ||
    result.questions.length === 0 ||
    (result.unsupported.length > 0 && !skipConfirmed) ||
    (withLosses.length > 0 && !lossesAccepted);

  return (
    <section aria-labelledby={`${ids}-heading`} className="mt-6 rounded border border-slate-200 p-4">
      <h2 id={`${ids}-heading`} className="text-xl font-semibold">
        Import and export
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        CSV (our columns: text, category, difficulty, type, scoring, correct, option1 to option10), GIFT, Aiken or
        Moodle XML, at most 5000 questions and 2 MB. You see what the file would create before anything is saved, and
        confirm what is left out: questions with problems, of kinds the bank does not hold, or parts a question cannot
        show.
      </p>
      {/* Grid items may shrink below their content: a file input's own width pushed a phone's page sideways. */}
      <div className="mt-3 grid gap-3 md:grid-cols-2 [&>*]:min-w-0">
        <div>
          <label htmlFor={`${ids}-file`} className="block font-medium">
            Question file
          </label>
          <input
            id={`${ids}-file`}
            ref={fileInput}
            type="file"
            accept=".csv,.txt,.gift,.xml,text/csv,text/plain,application/xml,text/xml"
            className="mt-1 block w-full"
            onChange={() => setPreview(undefined)}
          />
        </div>
        <div>
          <label htmlFor={`${ids}-format`} className="block font-medium">
            File format
          </label>
          <select
            id={`${ids}-format`}
            value={format}
            onChange={(event) => setFormat(event.target.value as BankFormat | "detect")}
            className="mt-1 block w-full rounded border border-slate-400 px-3 py-2"
          >
            <option value="detect">Detect from the file</option>
            {BANK_FORMATS.map((value) => (
              <option key={value} value={value}>
                {BANK_FORMAT_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${ids}-category`} className="block font-medium">
            Category for questions without one
          </label>
          <input
            id={`${ids}-category`}
            value={category}
            onChange={(event) => setCategory(event.target.value)}
            className="mt-1 block w-full rounded border border-slate-400 px-3 py-2"
          />
        </div>
        <div>
          <label htmlFor={`${ids}-difficulty`} className="block font-medium">
            Difficulty for questions without one
          </label>
          <select
            id={`${ids}-difficulty`}
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
      </div>
      {problem && (
        <div className="mt-3">
          <Alert tone="error">{problem}</Alert>
        </div>
      )}
      <button
        type="button"
        disabled={busy}
        onClick={() => void showPreview()}
        className="mt-3 rounded bg-brand-700 px-4 py-2 font-semibold text-white disabled:opacity-60"
      >
        Preview import
      </button>
      <div className="mt-4 flex flex-wrap items-end gap-3 border-t border-slate-200 pt-4">
        <div>
          <label htmlFor={`${ids}-export`} className="block font-medium">
            Export format
          </label>
          <select
            id={`${ids}-export`}
            value={exportFormat}
            onChange={(event) => setExportFormat(event.target.value as BankFormat)}
            className="mt-1 block rounded border border-slate-400 px-3 py-2"
          >
            {BANK_FORMATS.map((value) => (
              <option key={value} value={value}>
                {BANK_FORMAT_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          disabled={busy}
          onClick={() => download("export")}
          className="rounded border border-brand-700 px-4 py-2 font-semibold text-brand-700 disabled:opacity-60"
        >
          Export {BANK_FORMAT_LABELS[exportFormat]}
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() => download("template")}
          className="rounded border border-slate-400 px-4 py-2 font-semibold disabled:opacity-60"
        >
          Download template
        </button>
      </div>
      {exportFormat === "moodle-xml" && (
        <label className="mt-2 flex items-center gap-2">
          <input
            type="checkbox"
            checked={multichoiceset}
            onChange={(event) => setMultichoiceset(event.target.checked)}
          />
          Write all-or-nothing questions as multichoiceset (only for a Moodle site with the all-or-nothing plugin)
        </label>
      )}
      <p className="mt-2 text-sm text-slate-700">
        The export takes the category and difficulty chosen in the list's filters, or the whole bank. Aiken holds
        plain-text, one-line single-answer and true/false questions with one right option, without pictures or weights
        only; GIFT marks every multiple-answer question with partial credit. Moodle XML carries pictures inside the
        file; a stock Moodle has no all-or-nothing kind, so a multiple-answer question marked all or nothing with more
        than one right option gives part of the mark there for some of the right options and no wrong one (the file says
        so above each such question).
      </p>

      {preview && result && (
        <div className="mt-4 border-t border-slate-200 pt-4">
          <h3 ref={previewHeading} tabIndex={-1} className="text-lg font-semibold">
            Import preview: {preview.upload.name} ({BANK_FORMAT_LABELS[result.format]})
          </h3>
          <p className="mt-1">
            {result.questions.length === 1 ? "1 question" : `${result.questions.length} questions`} would be created
            {withLosses.length > 0 && `, ${withLosses.length} of them without something the file shows`}.
          </p>
          {result.problemCount > 0 && (
            <div className="mt-3">
              <Alert tone="error">
                {result.problemCount === 1 ? "1 problem" : `${result.problemCount} problems`} in the file: fix{" "}
                {result.problemCount === 1 ? "it" : "them"} and preview again, or import the rest without{" "}
                {result.problemCount === 1 ? "that question" : "those questions"}.
                <ul className="mt-2 list-disc pl-6">
                  {result.problems.map((item) => (
                    <li key={`${item.line}-${item.message}`}>
                      Line {item.line}: {item.message}
                    </li>
                  ))}
                </ul>
                <label className="mt-2 flex items-center gap-2 font-medium">
                  <input
                    type="checkbox"
                    checked={skipInvalid}
                    onChange={(event) => setSkipInvalid(event.target.checked)}
                  />
                  Leave out the {result.problemCount === 1 ? "question with a problem" : "questions with problems"} and
                  import the rest
                </label>
              </Alert>
            </div>
          )}
          {result.unsupported.length > 0 && (
            <div className="mt-3 rounded border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
              <p>
                {result.unsupported.length === 1
                  ? "1 question is of a kind the bank does not hold:"
                  : `${result.unsupported.length} questions are of kinds the bank does not hold:`}
              </p>
              <ul className="mt-2 list-disc pl-6">
                {result.unsupported.map((item) => (
                  <li key={`${item.line}-${item.title}`}>
                    Line {item.line}: {item.kind} — {item.title}
                  </li>
                ))}
              </ul>
              <label className="mt-2 flex items-center gap-2 font-medium">
                <input
                  type="checkbox"
                  checked={skipConfirmed}
                  onChange={(event) => setSkipConfirmed(event.target.checked)}
                />
                Skip {result.unsupported.length === 1 ? "this question" : "these questions"} and import the rest
              </label>
            </div>
          )}
          {withLosses.length > 0 && (
            <div className="mt-3 rounded border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
              <p>
                {withLosses.length === 1
                  ? "1 question shows something the bank cannot hold, which the import leaves out:"
                  : `${withLosses.length} questions show something the bank cannot hold, which the import leaves out:`}
              </p>
              <ul className="mt-2 list-disc pl-6">
                {withLosses.map((question) => (
                  <li key={question.line}>
                    Line {question.line}: {question.losses?.join("; ")}
                  </li>
                ))}
              </ul>
              <label className="mt-2 flex items-center gap-2 font-medium">
                <input
                  type="checkbox"
                  checked={lossesAccepted}
                  onChange={(event) => setLossesAccepted(event.target.checked)}
                />
                Import {withLosses.length === 1 ? "this question" : "these questions"} without what{" "}
                {withLosses.length === 1 ? "it loses" : "they lose"}
              </label>
            </div>
          )}
          {result.questions.some((question) => question.html === undefined) && (
            <p className="mt-3">
              The first {result.questions.filter((question) => question.html !== undefined).length} questions are shown
              as students will see them; the rest as they are written.
            </p>
          )}
          {result.questions.length > 0 && (
            <TableScrollBox label="Questions the import would create" className="mt-3">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Questions the import would create</caption>
                <thead>
                  <tr className="border-b border-slate-300">
                    <th scope="col" className="py-1 pr-3">
                      Line
                    </th>
                    <th scope="col" className="py-1 pr-3">
                      Question
                    </th>
                    <th scope="col" className="py-1 pr-3">
                      Type
                    </th>
                    <th scope="col" className="py-1 pr-3">
                      Category
                    </th>
                    <th scope="col" className="py-1 pr-3">
                      Difficulty
                    </th>
                    <th scope="col" className="py-1 pr-3">
                      Options (correct in bold)
                    </th>
                    <th scope="col" className="py-1">
                      Status
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {result.questions.map((question) => (
                    <tr key={question.line} className="border-b border-slate-100 align-top">
                      <td className="py-1 pr-3">{question.line}</td>
                      <td className="max-w-md min-w-48 py-1 pr-3">
                        <PreviewText html={question.html} text={question.text} />
                      </td>
                      <td className="py-1 pr-3">
                        {QUESTION_TYPE_LABELS[question.type]}
                        {question.type === "multiple" && ` (${SCORING_LABELS[question.scoring].toLowerCase()})`}
                      </td>
                      <td className="py-1 pr-3">{question.category}</td>
                      <td className="py-1 pr-3">{DIFFICULTY_LABELS[question.difficulty]}</td>
                      <td className="py-1 pr-3">
                        {question.options.map((option, index) => (
                          <span key={`${index}-${option.text}`}>
                            {index > 0 && " · "}
                            {option.isCorrect ? (
                              <strong>
                                <PreviewText inline html={option.html} text={option.text} />
                                <span className="sr-only"> (correct)</span>
                              </strong>
                            ) : (
                              <PreviewText inline html={option.html} text={option.text} />
                            )}
                            {/* Weights decide the marks: shown wherever they are more than right and wrong. */}
                            {((question.type === "multiple" && question.scoring === "partial") ||
                              (question.type === "single" && option.weight !== (option.isCorrect ? 100 : 0))) &&
                              ` (${option.weight}%)`}
                          </span>
                        ))}
                      </td>
                      <td className="py-1">{question.losses ? "Importable with losses" : "Importable"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScrollBox>
          )}
          <div className="mt-3 flex gap-3">
            <button
              type="button"
              disabled={busy || blocked}
              onClick={confirmImport}
              className="rounded bg-brand-700 px-4 py-2 font-semibold text-white disabled:opacity-60"
            >
              Import {result.questions.length === 1 ? "1 question" : `${result.questions.length} questions`}
            </button>
            <button
              type="button"
              onClick={() => setPreview(undefined)}
              className="rounded border border-slate-400 px-4 py-2 font-semibold"
            >
              Cancel import
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

/** A previewed text: as students will see it where the preview rendered it, else as written (Markdown). */
function PreviewText({ html, text, inline = false }: { html: string | undefined; text: string; inline?: boolean }) {
  if (html !== undefined) return <RichText inline={inline} html={html} />;
  return <span className="whitespace-pre-wrap">{text}</span>;
}
