import { mayUse } from "@trainwise/contract/admin-roles";
import {
  ANALYSIS_FLAG_TEXT,
  ANALYSIS_FLAGS,
  ANALYSIS_GROUP_SHARE,
  type AnalysisQuestion,
  type AnalysisSection,
  type ItemAnalysis,
} from "@trainwise/contract/analysis";
import { useId, useMemo, useState } from "react";
import { Link } from "react-router";
import { AdminShell } from "../../components/admin/admin-shell.tsx";
import {
  STACKED_BODY,
  STACKED_CELL,
  STACKED_HEAD,
  STACKED_ROW,
  STACKED_TABLE,
  TableScrollBox,
} from "../../components/admin/admin-table.tsx";
import { formatDiscrimination, ItemAnalysisChart } from "../../components/admin/item-analysis-chart.tsx";
import { Alert } from "../../components/ui/form-field.tsx";
import { RichText } from "../../components/ui/rich-text.tsx";
import { adminCall, adminDownload, currentAdmin, useAdminAction } from "../../lib/admin-client.ts";
import { messageOf } from "../../lib/api.ts";
import { formatCount, formatScorePercent, formatShare } from "../../lib/format.ts";
import type { Route } from "./+types/item-analysis";

/** The same screen serves /admin/drives/:id/analysis and /admin/tests/:id/analysis. */
export async function clientLoader({ params, request }: Route.ClientLoaderArgs) {
  const kind = new URL(request.url).pathname.startsWith("/admin/tests/") ? "test" : "drive";
  // A viewer reads the report (without the key until it is released) but neither retires questions nor takes
  // the CSV, which marks the right options (decision 027).
  const manages = mayUse((await currentAdmin()).role, "manage");
  try {
    const analysis = await adminCall(kind === "test" ? "testAnalysis" : "driveAnalysis", {
      id: params.id,
      signal: request.signal,
    });
    return { kind, manages, analysis, error: undefined };
  } catch (error) {
    if (error instanceof Response) throw error;
    return { kind, manages, analysis: undefined, error: messageOf(error, "Could not load the analysis.") };
  }
}

export const meta = () => [{ title: "Item analysis | Trainwise" }, { name: "robots", content: "noindex" }];

type SortKey = "order" | "facility" | "discrimination" | "served";
const SORT_LABELS: Record<SortKey, string> = {
  order: "Question",
  served: "Served",
  facility: "Facility",
  discrimination: "Discrimination",
};

type Row = { label: string; order: number; question: AnalysisQuestion };

function sortedRows(rows: Row[], key: SortKey, ascending: boolean): Row[] {
  const value = (row: Row): number =>
    key === "order"
      ? row.order
      : key === "served"
        ? row.question.served
        : key === "facility"
          ? row.question.facility
          : (row.question.discrimination ?? Number.NEGATIVE_INFINITY);
  return [...rows].sort((a, b) => (value(a) - value(b) || a.order - b.order) * (ascending ? 1 : -1));
}

/** The section filter's value for every question, whatever its section. */
const ALL_SECTIONS = "";

/** The questions of one section (by the name the report gives each question), or all of them. */
function rowsInSection(rows: Row[], section: string): Row[] {
  return section === ALL_SECTIONS ? rows : rows.filter((row) => row.question.section === section);
}

/** What the section filter shows, said once the filter changes (a live region). */
function filterStatus(section: string, shown: number, all: number): string {
  if (section === ALL_SECTIONS) return `All ${formatCount(all)} questions`;
  // A question served in several sections is listed under one, so a section can end up with none listed.
  if (shown === 0) return `No question is listed in ${section}: each is listed in the section it was served in most.`;
  return `${formatCount(shown)} of ${formatCount(all)} questions, in ${section}`;
}

const figureOr = (value: number | null, format: (value: number) => string) => (value === null ? "—" : format(value));

function Summary({ analysis }: { analysis: ItemAnalysis }) {
  const { summary } = analysis;
  const figures: [string, string][] = [
    ["Submitted attempts", formatCount(summary.attempts)],
    ["Mean score", figureOr(summary.mean, formatScorePercent)],
    ["Median score", figureOr(summary.median, formatScorePercent)],
    ["Standard deviation", figureOr(summary.standardDeviation, (value) => `${value.toFixed(1)} points`)],
    ["Reliability (KR-20)", figureOr(summary.kr20, (value) => value.toFixed(2))],
    ["Upper and lower groups", summary.groupSize > 0 ? `${formatCount(summary.groupSize)} attempts each` : "—"],
  ];
  return (
    <dl aria-label="Summary" className="grid grid-cols-2 gap-3 md:grid-cols-3">
      {figures.map(([label, value]) => (
        <div key={label} className="min-w-0 rounded bg-brand-50 p-3">
          <dt className="text-sm text-slate-700">{label}</dt>
          <dd className="text-xl font-bold break-words text-brand-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const SECTION_COLUMNS = ["Section", "Attempts", "Mean", "Median", "Met the cut-off"] as const;

/**
 * How the cohort did in each section. On a phone its rows stack as "Header: value" lines (decision 027), so it
 * never scrolls sideways.
 */
function SectionsTable({ sections }: { sections: AnalysisSection[] }) {
  return (
    <table className={`mt-6 w-full border-collapse text-left text-sm ${STACKED_TABLE}`}>
      <caption className="mb-2 text-left max-sm:block">
        <span className="block text-xl font-semibold">Sections</span>
        <span className="block text-slate-700">
          Marks in each section, negative marking applied, in percent of its questions.
        </span>
      </caption>
      <thead className={STACKED_HEAD}>
        <tr className="border-b border-slate-300 bg-slate-50">
          {SECTION_COLUMNS.map((header) => (
            <th key={header} scope="col" className="px-3 py-2 align-bottom">
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={STACKED_BODY}>
        {sections.map((section) => {
          const cells = [
            formatCount(section.attempts),
            figureOr(section.mean, formatScorePercent),
            figureOr(section.median, formatScorePercent),
            section.metCutOff === null
              ? "No cut-off"
              : `${formatCount(section.metCutOff)} of ${formatCount(section.attempts)}`,
          ];
          return (
            <tr key={section.name} className={`border-b border-slate-200 align-top ${STACKED_ROW}`}>
              <th
                scope="row"
                data-label={SECTION_COLUMNS[0]}
                className={`px-3 py-2 font-semibold break-words ${STACKED_CELL}`}
              >
                <div className="min-w-0">{section.name}</div>
              </th>
              {cells.map((cell, index) => (
                <td
                  key={SECTION_COLUMNS[index + 1]}
                  data-label={SECTION_COLUMNS[index + 1]}
                  className={`px-3 py-2 ${STACKED_CELL}`}
                >
                  <div className="min-w-0">{cell}</div>
                </td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function FlagBadges({ question }: { question: AnalysisQuestion }) {
  if (question.flags.length === 0) return <span className="text-slate-600">None</span>;
  return (
    <ul className="flex flex-col gap-1">
      {question.flags.map((flag) => (
        <li
          key={flag}
          className="rounded border border-red-700 bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-800"
        >
          {ANALYSIS_FLAG_TEXT[flag].label}
        </li>
      ))}
    </ul>
  );
}

export default function ItemAnalysisPage({ loaderData }: Route.ComponentProps) {
  const { kind, manages, analysis, error } = loaderData;
  const [sort, setSort] = useState<{ key: SortKey; ascending: boolean }>({ key: "order", ascending: true });
  const [section, setSection] = useState(ALL_SECTIONS);
  const sectionFilterId = useId();
  const { busy, outcome, run } = useAdminAction();

  const rows = useMemo<Row[]>(
    () => (analysis?.questions ?? []).map((question, index) => ({ label: `Q${index + 1}`, order: index, question })),
    [analysis],
  );
  // The filter narrows the table only; questions keep their numbers (Q3 is Q3 in every section), so the table and
  // the chart, which plots every question, still agree.
  const inSection = useMemo(() => rowsInSection(rows, section), [rows, section]);
  const shown = useMemo(() => sortedRows(inSection, sort.key, sort.ascending), [inSection, sort]);
  const sections = analysis?.summary.sections ?? [];
  const back =
    kind === "drive" && analysis
      ? { to: `/admin/drives/${analysis.scope._id}`, text: `Back to the drive ${analysis.scope.name}` }
      : manages
        ? { to: kind === "drive" ? "/admin/drives" : "/admin/tests", text: `Back to all ${kind}s` }
        : { to: "/admin/results", text: "Back to the results" };

  function sortBy(key: SortKey) {
    // A new column starts lowest first: the hardest and the least discriminating questions are the ones to read.
    setSort((current) => ({ key, ascending: current.key === key ? !current.ascending : true }));
  }

  function setRetired(question: AnalysisQuestion, retired: boolean) {
    void run(
      async (call) => (await call("setQuestionRetired", { id: question.questionId, body: { retired } })).message,
      "The question was not changed.",
    );
  }

  const title = analysis ? `Item analysis: ${analysis.scope.name}` : "Item analysis";
  const groupPercent = Math.round(ANALYSIS_GROUP_SHARE * 100);

  return (
    <AdminShell title={title}>
      <p className="mb-4">
        <Link to={back.to} className="text-brand-700 underline">
          {back.text}
        </Link>
      </p>
      {error && <Alert tone="error">{error}</Alert>}
      {outcome && (
        <div className="mb-4">
          <Alert tone={outcome.ok ? "success" : "error"}>{outcome.message}</Alert>
        </div>
      )}
      {analysis && (
        <>
          <p className="mb-4 text-slate-700">
            {analysis.scope.kind === "drive"
              ? `Submitted attempts of this drive of the test ${analysis.scope.testName}.`
              : "Submitted attempts of every drive of this test."}
          </p>
          <Summary analysis={analysis} />
          {sections.length > 0 && <SectionsTable sections={sections} />}
          {analysis.keyHidden && (
            <div className="mt-4">
              <Alert tone="info">
                {analysis.marksHidden
                  ? "This is a secure test: which questions were answered right is shown once its drives have ended"
                  : "Which options are right, and how often each was chosen, are shown once the drives have ended"}
                , so the answers of a drive still running stay secret.
              </Alert>
            </div>
          )}
          {analysis.summary.attempts > 0 && analysis.summary.groupSize === 0 && (
            <div className="mt-4">
              <Alert tone="info">
                Discrimination is not shown: it compares the top and bottom {groupPercent}% of students, which needs at
                least {analysis.summary.minimumCohort} submitted attempts (there{" "}
                {analysis.summary.attempts === 1 ? "is 1" : `are ${analysis.summary.attempts}`}). Facility and option
                choices are shown, but with so few students they are only a first hint.
              </Alert>
            </div>
          )}
          {analysis.summary.attempts === 0 && (
            <div className="mt-4">
              <Alert tone="info">No attempt has been submitted yet, so there is nothing to analyse.</Alert>
            </div>
          )}

          {rows.length > 0 && (
            <>
              <div className="mt-6 grid gap-6 lg:grid-cols-2">
                <ItemAnalysisChart questions={rows} />
                <section aria-labelledby="analysis-reading" className="min-w-0 text-sm text-slate-800">
                  <h2 id="analysis-reading" className="text-lg font-semibold">
                    How to read this
                  </h2>
                  <p className="mt-2">
                    <strong>Facility</strong>: the share of students served the question who answered it right.
                  </p>
                  <p className="mt-2">
                    <strong>Discrimination</strong>: students are ranked by total score (ties by attempt); the top{" "}
                    {groupPercent}% form the upper group and the bottom {groupPercent}% the lower (rounded up). It is
                    the share right in the upper group less the share right in the lower group, from −1 to 1: above 0.3
                    tells strong and weak students apart well, below 0 favours the weak ones.
                  </p>
                  <dl className="mt-2 space-y-1">
                    {ANALYSIS_FLAGS.map((flag) => (
                      <div key={flag}>
                        <dt className="inline font-semibold">{ANALYSIS_FLAG_TEXT[flag].label}: </dt>
                        <dd className="inline">{ANALYSIS_FLAG_TEXT[flag].explanation}</dd>
                      </div>
                    ))}
                  </dl>
                </section>
              </div>

              <div className="mt-6 flex flex-wrap items-center gap-3">
                <h2 className="text-xl font-semibold">Questions</h2>
                {manages && (
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() =>
                      void run(
                        async () => {
                          await adminDownload(
                            analysis.scope.kind === "drive" ? "driveAnalysisExport" : "testAnalysisExport",
                            "item-analysis.csv",
                            { id: analysis.scope._id },
                          );
                          return "The CSV has been downloaded.";
                        },
                        "The download failed. Please try again.",
                        { refresh: false },
                      )
                    }
                    className="rounded border border-brand-700 px-3 py-1 text-sm font-semibold text-brand-700 hover:bg-brand-50"
                  >
                    Download CSV
                  </button>
                )}
              </div>
              {sections.length > 0 && (
                <div className="mt-3 flex flex-wrap items-end gap-x-4 gap-y-2">
                  <div>
                    <label htmlFor={sectionFilterId} className="block text-sm font-semibold">
                      Section
                    </label>
                    <select
                      id={sectionFilterId}
                      value={section}
                      onChange={(event) => setSection(event.target.value)}
                      className="mt-1 max-w-full rounded border border-slate-400 px-2 py-1"
                    >
                      <option value={ALL_SECTIONS}>All sections</option>
                      {sections.map(({ name }) => (
                        <option key={name} value={name}>
                          {name}
                        </option>
                      ))}
                    </select>
                  </div>
                  <p aria-live="polite" className="text-sm text-slate-700">
                    {filterStatus(section, inSection.length, rows.length)}
                  </p>
                </div>
              )}
              <TableScrollBox
                label="Questions table"
                className="mt-3 max-h-[40rem] overflow-y-auto rounded border border-slate-200"
              >
                <table className="w-full min-w-[56rem] text-left text-sm">
                  <caption className="sr-only">
                    Per question: times served, facility, discrimination, option choices and flags
                  </caption>
                  <thead className="bg-slate-50">
                    <tr>
                      {(["order", "served", "facility", "discrimination"] as const).map((key) => (
                        <th
                          key={key}
                          scope="col"
                          className="px-2 py-2"
                          aria-sort={sort.key === key ? (sort.ascending ? "ascending" : "descending") : undefined}
                        >
                          <button type="button" onClick={() => sortBy(key)} className="font-semibold underline">
                            {SORT_LABELS[key]}
                            {sort.key === key && <span aria-hidden="true">{sort.ascending ? " ▲" : " ▼"}</span>}
                          </button>
                        </th>
                      ))}
                      <th scope="col" className="px-2 py-2">
                        Options chosen
                      </th>
                      <th scope="col" className="px-2 py-2">
                        Flags
                      </th>
                      {manages && (
                        <th scope="col" className="px-2 py-2">
                          Draws
                        </th>
                      )}
                    </tr>
                  </thead>
                  <tbody>
                    {shown.map(({ label, question }) => (
                      <tr
                        key={question.questionId}
                        data-question={label}
                        className={`border-t border-slate-200 align-top ${question.retired ? "bg-slate-100 text-slate-600" : ""}`}
                      >
                        <th scope="row" className="max-w-xs px-2 py-2 text-left font-normal break-words">
                          <span className="font-semibold">{label}</span> <RichText html={question.html} />
                          <span className="block text-xs text-slate-600">{question.category}</span>
                          {question.section !== null && (
                            <span className="block text-xs text-slate-600">Section: {question.section}</span>
                          )}
                          {question.retired && (
                            <span className="mt-1 inline-block rounded border border-slate-500 px-2 text-xs font-semibold">
                              Retired
                            </span>
                          )}
                        </th>
                        <td className="px-2 py-2" data-column="served">
                          {formatCount(question.served)}
                        </td>
                        <td className="px-2 py-2" data-column="facility">
                          {formatShare(question.facility)}
                        </td>
                        <td className="px-2 py-2" data-column="discrimination">
                          {figureOr(question.discrimination, formatDiscrimination)}
                        </td>
                        <td className="px-2 py-2">
                          <ul className="space-y-0.5">
                            {question.options.map((option) => (
                              <li key={option._id} className="break-words">
                                <RichText inline html={option.html} />
                                {option.share !== null && (
                                  <>
                                    : <span className="font-semibold">{formatShare(option.share)}</span>
                                  </>
                                )}
                                {option.isCorrect && <span className="font-semibold"> (correct)</span>}
                              </li>
                            ))}
                            <li>
                              Not answered:{" "}
                              <span className="font-semibold">{formatShare(question.notAnsweredShare)}</span>
                            </li>
                          </ul>
                        </td>
                        <td className="px-2 py-2" data-column="flags">
                          <FlagBadges question={question} />
                        </td>
                        {manages && (
                          <td className="px-2 py-2">
                            <button
                              type="button"
                              disabled={busy}
                              onClick={() => setRetired(question, !question.retired)}
                              className="rounded border border-brand-700 px-2 py-1 text-xs text-brand-700 hover:bg-brand-50"
                            >
                              {question.retired ? "Restore" : "Retire"}{" "}
                              <span className="sr-only">question {label}</span>
                            </button>
                          </td>
                        )}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScrollBox>
              {manages && (
                <p className="mt-2 text-sm text-slate-700">
                  Retiring a question stops new attempts drawing it and removes it from the question bank; results keep
                  it. Restore brings it back.
                </p>
              )}
            </>
          )}
        </>
      )}
    </AdminShell>
  );
}
