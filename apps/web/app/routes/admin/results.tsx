import { type ResultTableRow, resultTableQuerySchema } from "@trainwise/contract/admin-tables";
import { addedTimeText, type ResultDetail } from "@trainwise/contract/students";
import { useEffect, useState } from "react";
import { Link, type ShouldRevalidateFunctionArgs } from "react-router";
import { AdminShell } from "../../components/admin/admin-shell.tsx";
import {
  BusyNote,
  type Column,
  DataTable,
  ExportButton,
  FilterSelect,
  PageLinks,
  SearchBox,
  SortSelect,
  TableToolbar,
  TextFilter,
  useTableBusy,
  useTableParams,
} from "../../components/admin/admin-table.tsx";
import { AnswerSignalsNote, answerSignalsText } from "../../components/admin/answer-signals.tsx";
import { ScoreWithSections } from "../../components/admin/section-scores.tsx";
import { Alert } from "../../components/ui/form-field.tsx";
import { RichText } from "../../components/ui/rich-text.tsx";
import { adminCall, tableQueryFrom, useAdminCall, useTableExport } from "../../lib/admin-client.ts";
import { messageOf } from "../../lib/api.ts";
import { formatScore } from "../../lib/format.ts";
import { formatInZone } from "../../lib/zoned-time.ts";
import type { Route } from "./+types/results";

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const query = tableQueryFrom(resultTableQuerySchema, request.url);
  const choices = (call: Promise<{ _id: string; name: string }[]>) =>
    call.catch((error) => {
      if (error instanceof Response) throw error;
      return [];
    });
  const [page, drives, tests] = await Promise.all([
    adminCall("resultTable", { query, signal: request.signal }),
    choices(adminCall("driveChoices", { signal: request.signal })),
    choices(adminCall("testChoices", { signal: request.signal })),
  ]);
  return { page, drives, tests };
}

/** Opening or closing a row's answers changes only `open` in the address: the table is not fetched again. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const without = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete("open");
    return params.toString();
  };
  return without(currentUrl) === without(nextUrl) ? false : defaultShouldRevalidate;
}

export const meta = () => [{ title: "Results | Trainwise" }, { name: "robots", content: "noindex" }];

type AnswersData = { id: string; detail: ResultDetail } | { id: string; failure: string };

/**
 * The answers of the attempt whose row is open. Opening another row cancels the load before it, and an answer is
 * kept only for the row it was asked for, so a late answer never opens under another row; a failure says so.
 */
function useAnswers(openId: string | undefined): AnswersData | undefined {
  const call = useAdminCall();
  const [answers, setAnswers] = useState<AnswersData>();
  useEffect(() => {
    if (!openId) return;
    const controller = new AbortController();
    call("resultDetail", { id: openId, signal: controller.signal }).then(
      (detail) => setAnswers({ id: openId, detail }),
      (error: Error) => {
        if (error.name !== "AbortError")
          setAnswers({ id: openId, failure: messageOf(error, "Could not load the answers.") });
      },
    );
    return () => controller.abort();
  }, [openId, call]);
  return answers?.id === openId ? answers : undefined;
}

/** The answers of the open attempt, shown only when they are that attempt's (a late answer for another is dropped). */
function Answers({ row, data }: { row: ResultTableRow; data: AnswersData | undefined }) {
  const id = row._id;
  if (!data || data.id !== id) return <p role="status">Loading...</p>;
  if ("failure" in data) return <Alert tone="error">{data.failure}</Alert>;
  const { detail } = data;
  return (
    <div id={`answers-${id}`} className="min-w-0">
      <p className="text-sm">
        Score {formatScore(row.marks, row.totalQuestions)}
        {detail.autoSubmitted ? " · Auto-submitted when the time ran out" : " · Submitted by the student"} ·{" "}
        {formatInZone(detail.submittedAt, detail.timeZone)}.
      </p>
      <p className="mt-1 text-sm">
        Left the quiz window {detail.focusLosses} {detail.focusLosses === 1 ? "time" : "times"}. Answer times:{" "}
        {answerSignalsText(detail) ?? "nothing remarkable"}.
      </p>
      <AnswerSignalsNote />
      {detail.credits.length > 0 && (
        <>
          <p className="mt-1 text-sm">Time given back for lost connections:</p>
          <ul className="list-disc pl-5 text-sm">
            {detail.credits.map((credit) => (
              <li key={credit.silentFrom}>
                {addedTimeText(Math.round(credit.seconds))}: silent from{" "}
                {formatInZone(credit.silentFrom, detail.timeZone)} until {formatInZone(credit.heardAt, detail.timeZone)}
              </li>
            ))}
          </ul>
        </>
      )}
      {detail.keyHidden && (
        <p className="mt-2 text-sm">
          Which options were chosen and which are right is shown to viewers once the drive has ended
          {detail.keyShownFrom ? ` (${formatInZone(detail.keyShownFrom, detail.timeZone)})` : ""}, so the answers of a
          drive still running stay secret.
        </p>
      )}
      {/* Each question as the student saw it: formulas typeset, code highlighted (and wrapping, so nothing is cut
          off on a phone), pictures shown; never the Markdown source. */}
      <ol className="mt-2 space-y-3">
        {detail.answers.map((answer, index) => (
          <li key={answer.questionId} className="min-w-0">
            <div className="flex gap-2 font-semibold">
              <span>{index + 1}.</span>
              <RichText html={answer.questionHtml} className="rich-text-wrap-code min-w-0 flex-1" />
            </div>
            <p
              className={`text-sm font-semibold ${
                answer.isCorrect === null ? "text-slate-700" : answer.isCorrect ? "text-green-800" : "text-red-800"
              }`}
            >
              {markLabel(answer)}
            </p>
            <p className="text-sm">
              {detail.keyHidden ? (
                answer.answered ? (
                  "Answered"
                ) : (
                  "Not answered"
                )
              ) : (
                <>
                  Answered: {answer.chosenHtml === null ? "Not answered" : <RichText inline html={answer.chosenHtml} />}{" "}
                  · Correct: <RichText inline html={answer.correctHtml ?? ""} />
                </>
              )}
              {answer.secondsToAnswer !== null && ` · after ${answer.secondsToAnswer} s`}
              {answer.focusLosses > 0 && ` · left the quiz ${answer.focusLosses}×`}
            </p>
          </li>
        ))}
      </ol>
    </div>
  );
}

export default function Results({ loaderData }: Route.ComponentProps) {
  const busy = useTableBusy();
  const { params, update } = useTableParams();
  const exporter = useTableExport("resultExport", "results.csv", () => {
    const { search, driveId, testId, college, outcome } = tableQueryFrom(resultTableQuerySchema, window.location.href);
    return { search, driveId, testId, college, outcome };
  });
  const openId = params.get("open") ?? undefined;
  const answers = useAnswers(openId);
  const { page, drives, tests } = loaderData;

  function toggle(row: ResultTableRow) {
    update({ open: openId === row._id ? undefined : row._id }, { replace: true, keepPage: true });
  }

  const columns: Column<ResultTableRow>[] = [
    { header: "Student", cell: (row) => row.studentName },
    { header: "USN", cell: (row) => row.usnNo, className: "whitespace-nowrap" },
    { header: "College", cell: (row) => row.college },
    {
      header: "Drive",
      // The drive's page is a report every admin reads (decision 027).
      cell: (row) => (
        <Link to={`/admin/drives/${row.driveId}`} className="text-brand-700 underline">
          {row.driveName}
        </Link>
      ),
    },
    {
      header: "Score",
      cell: (row) => (
        <ScoreWithSections marks={row.marks} totalQuestions={row.totalQuestions} sections={row.sections} />
      ),
      className: "whitespace-nowrap",
    },
    {
      header: "Result",
      cell: (row) => (row.passed === null ? "—" : row.passed ? "Pass" : "Fail"),
    },
    {
      header: "Submitted",
      cell: (row) => (
        <>
          {formatInZone(row.submittedAt, row.timeZone)}
          {row.autoSubmitted && <span className="block font-semibold text-amber-900">Auto-submitted</span>}
        </>
      ),
    },
    {
      header: "Answers",
      cell: (row) => (
        <button
          type="button"
          aria-expanded={openId === row._id}
          onClick={() => toggle(row)}
          className="rounded border border-brand-700 px-3 py-1 text-sm whitespace-nowrap text-brand-700"
        >
          {openId === row._id ? "Hide answers" : "View answers"} <span className="sr-only">of {row.studentName}</span>
        </button>
      ),
    },
  ];
  const exportFailed = exporter.failed;

  return (
    <AdminShell title="Results">
      {exportFailed && (
        <div className="mb-4">
          <Alert tone="error">{exportFailed.message}</Alert>
        </div>
      )}
      <TableToolbar>
        <SearchBox label="Search results" />
        <FilterSelect
          label="Drive"
          name="driveId"
          allLabel="All drives"
          choices={drives.map((drive) => [drive._id, drive.name] as const)}
        />
        <FilterSelect
          label="Test"
          name="testId"
          allLabel="All tests"
          choices={tests.map((test) => [test._id, test.name] as const)}
        />
        <TextFilter label="College" name="college" />
        <FilterSelect
          label="Pass or fail"
          name="outcome"
          allLabel="Everyone"
          choices={[
            ["pass", "Passed"],
            ["fail", "Failed"],
          ]}
        />
        <SortSelect
          choices={[
            ["date:desc", "Newest first"],
            ["date:asc", "Oldest first"],
            ["score:desc", "Highest score"],
            ["score:asc", "Lowest score"],
            ["name:asc", "Name A–Z"],
            ["name:desc", "Name Z–A"],
          ]}
        />
        <ExportButton exporter={exporter} />
      </TableToolbar>
      <BusyNote busy={busy} />
      <DataTable
        caption="Submitted quizzes"
        columns={columns}
        rows={page.rows}
        busy={busy}
        empty={page.total === 0 && params.size === 0 ? "No quiz has been submitted yet." : "No results match."}
        after={(row) => (openId === row._id ? <Answers row={row} data={answers} /> : undefined)}
      />
      <PageLinks of={page} label="Results" noun={["result", "results"]} />
    </AdminShell>
  );
}

/** Right, wrong (with what it cost, for an option weighted below 0), not answered, or the share of a partly right answer. */
function markLabel(answer: { isCorrect: boolean | null; answered: boolean; mark: number | null }): string {
  if (!answer.answered) return "Not answered";
  if (answer.isCorrect === null || answer.mark === null) return "Answered; marks once the drive has ended";
  if (answer.isCorrect) return "Right";
  if (answer.mark < 0) return `Wrong: ${answer.mark.toFixed(2)} of 1`;
  return answer.mark > 0 ? `Partly right: ${answer.mark.toFixed(2)} of 1` : "Wrong";
}
