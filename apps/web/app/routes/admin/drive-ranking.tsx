import {
  formatTimeTaken,
  RANKING_ROWS_SHOWN,
  type Ranking,
  SHORTLIST_CUT_LABELS,
  SHORTLIST_CUTS,
  type ShortlistCut,
  type ShortlistQuery,
  shortlistFileName,
} from "@trainwise/contract/ranking";
import { useState } from "react";
import { Form, Link } from "react-router";
import { AdminShell } from "../../components/admin/admin-shell.tsx";
import {
  STACKED_BODY,
  STACKED_CELL,
  STACKED_HEAD,
  STACKED_ROW,
  STACKED_TABLE,
  TableScrollBox,
} from "../../components/admin/admin-table.tsx";
import { ColumnHeadings } from "../../components/admin/column-headings.tsx";
import { ScoreWithSections } from "../../components/admin/section-scores.tsx";
import { Alert } from "../../components/ui/form-field.tsx";
import { adminCall, adminDownload, useAdminAction } from "../../lib/admin-client.ts";
import { messageOf } from "../../lib/api.ts";
import { formatCount } from "../../lib/format.ts";
import type { Route } from "./+types/drive-ranking";

/** The shortlist the address asks for: its cut, how many top candidates, one college and one course. */
function shortlistOf(url: URL): ShortlistQuery {
  const params = url.searchParams;
  const cut = params.get("cut");
  const query: ShortlistQuery = { cut: SHORTLIST_CUTS.includes(cut as ShortlistCut) ? (cut as ShortlistCut) : "all" };
  if (query.cut === "top") query.top = Number(params.get("top") ?? "");
  for (const key of ["college", "course"] as const) {
    const value = params.get(key);
    if (value) query[key] = value;
  }
  return query;
}

export async function clientLoader({ params, request }: Route.ClientLoaderArgs) {
  const shortlist = shortlistOf(new URL(request.url));
  const drive = await adminCall("drive", { id: params.id, signal: request.signal });
  try {
    const ranking = await adminCall("driveRanking", { id: params.id, query: shortlist, signal: request.signal });
    return { drive, shortlist, ranking, error: undefined };
  } catch (error) {
    if (error instanceof Response) throw error;
    return { drive, shortlist, ranking: undefined, error: messageOf(error, "Could not rank the drive.") };
  }
}

export const meta = () => [{ title: "Ranks and shortlists | Trainwise" }, { name: "robots", content: "noindex" }];

/** One of the names the drive's candidates gave (a college, a course), or every one. */
function NamedChoice(props: { name: string; label: string; every: string; chosen?: string; names: string[] }) {
  return (
    <label className="flex flex-col gap-1">
      <span className="font-semibold">{props.label}</span>
      <select name={props.name} defaultValue={props.chosen ?? ""} className="rounded border border-slate-400 px-2 py-1">
        <option value="">{props.every}</option>
        {props.names.map((name) => (
          <option key={name}>{name}</option>
        ))}
        {/* A name from an old link that no candidate has now: shown, so the page says what it filters by. */}
        {props.chosen && !props.names.includes(props.chosen) && (
          <option value={props.chosen}>{props.chosen} (no candidates)</option>
        )}
      </select>
    </label>
  );
}

function Provisional({ ranking }: { ranking: Ranking }) {
  if (ranking.final)
    return (
      <Alert tone="success">
        Final: the drive has closed and every attempt is in. These ranks change only if an admin removes a registration.
      </Alert>
    );
  return (
    <Alert tone="info">
      <strong>Provisional.</strong>{" "}
      {ranking.unfinished > 0
        ? `${formatCount(ranking.unfinished)} ${ranking.unfinished === 1 ? "attempt is" : "attempts are"} not in yet (still running, or out of time and being closed) and may change these ranks.`
        : "The drive is still open: candidates who start later may change these ranks."}{" "}
      A shortlist taken now is marked provisional in its file name.
    </Alert>
  );
}

/** The shortlist's cut and filters, sent as the address's query (a GET form: the view is bookmarkable). */
function ShortlistForm({
  shortlist,
  colleges,
  courses,
}: {
  shortlist: ShortlistQuery;
  colleges: string[];
  courses: string[];
}) {
  const [chosenCut, setChosenCut] = useState<ShortlistCut>(shortlist.cut);
  return (
    <Form method="get" className="rounded border border-slate-200 p-4" aria-label="Shortlist">
      <div className="flex flex-wrap gap-6">
        <fieldset>
          <legend className="font-semibold">Keep</legend>
          {SHORTLIST_CUTS.map((cut) => (
            <label key={cut} className="mt-2 flex items-center gap-2">
              <input
                type="radio"
                name="cut"
                value={cut}
                checked={chosenCut === cut}
                onChange={() => setChosenCut(cut)}
              />
              {SHORTLIST_CUT_LABELS[cut]}
            </label>
          ))}
        </fieldset>
        <div className="flex flex-col gap-3">
          <label className="flex flex-col gap-1">
            <span className="font-semibold">How many top candidates</span>
            <input
              type="number"
              name="top"
              // Only the top cut reads it: disabled, it neither blocks another cut nor goes in the address.
              disabled={chosenCut !== "top"}
              required
              min={1}
              inputMode="numeric"
              defaultValue={shortlist.top ?? 10}
              aria-describedby="top-help"
              className="w-32 rounded border border-slate-400 px-2 py-1"
            />
            <span id="top-help" className="text-sm text-slate-700">
              With "The top candidates": ranks 1 to this number, and everyone tied at the last of them.
            </span>
          </label>
          <NamedChoice
            name="college"
            label="College"
            every="Every college"
            chosen={shortlist.college}
            names={colleges}
          />
          <NamedChoice name="course" label="Course" every="Every course" chosen={shortlist.course} names={courses} />
        </div>
      </div>
      <button type="submit" className="mt-4 rounded bg-brand-700 px-4 py-2 font-semibold text-white">
        Show shortlist
      </button>
    </Form>
  );
}

export default function DriveRanking({ loaderData }: Route.ComponentProps) {
  const { drive, shortlist, ranking, error } = loaderData;
  const { outcome, run } = useAdminAction();
  const colleges = [...new Set(ranking?.groups.map((group) => group.college))].sort();
  const courses = [...new Set(ranking?.groups.map((group) => group.course))].sort();
  // The candidates the college and course filters leave, before the cut: what the shortlist is a part of.
  const inFilter =
    ranking?.groups
      .filter(
        (group) =>
          (!shortlist.college || group.college === shortlist.college) &&
          (!shortlist.course || group.course === shortlist.course),
      )
      .reduce((sum, group) => sum + group.candidates, 0) ?? 0;
  const filtered = Boolean(shortlist.college || shortlist.course);

  async function download(query: ShortlistQuery) {
    const filename = shortlistFileName(drive.code, query, ranking?.final ?? false);
    await run(
      async () => {
        await adminDownload("driveShortlistExport", filename, { id: drive._id, query });
        return `The shortlist was downloaded as ${filename}.`;
      },
      "The download failed.",
      { refresh: false },
    );
  }

  return (
    <AdminShell title={`Ranks and shortlists: ${drive.name}`}>
      <p className="mb-4 print:hidden">
        <Link to={`/admin/drives/${drive._id}`} className="text-brand-700 underline">
          Back to the drive
        </Link>
      </p>

      {/* Keyed by the address: Back and Forward bring the form back to the list they show. */}
      <ShortlistForm key={JSON.stringify(shortlist)} shortlist={shortlist} colleges={colleges} courses={courses} />

      <div className="mt-4 flex flex-col gap-3">
        {error && <Alert tone="error">{error}</Alert>}
        {outcome && <Alert tone={outcome.ok ? "success" : "error"}>{outcome.message}</Alert>}
        {ranking && <Provisional ranking={ranking} />}
        {ranking && shortlist.cut === "pass" && !ranking.hasPassMark && (
          <Alert tone="info">
            This drive's test has no pass mark, so nobody passed: keep the top candidates instead.
          </Alert>
        )}
      </div>

      {ranking && (
        <>
          <p className="mt-4">{ranking.rule}</p>

          <section aria-labelledby="ranked" className="mt-8">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 id="ranked" className="text-xl font-semibold">
                Shortlist: {formatCount(ranking.shortlisted)} of {formatCount(inFilter)}{" "}
                {filtered
                  ? `candidates from ${[shortlist.college, shortlist.course].filter(Boolean).join(", ")}`
                  : "candidates"}
              </h2>
              <button
                type="button"
                onClick={() => void download(shortlist)}
                className="rounded border border-brand-700 px-4 py-2 font-semibold text-brand-700"
              >
                Download CSV
              </button>
            </div>
            {ranking.shortlisted > RANKING_ROWS_SHOWN && (
              <p className="mt-3">
                The first {RANKING_ROWS_SHOWN} are shown; the CSV has all {formatCount(ranking.shortlisted)}.
              </p>
            )}
            {/* Read out after each Show shortlist: the heading alone changes silently. */}
            <p role="status" className="sr-only">
              {formatCount(ranking.shortlisted)} shortlisted of {formatCount(inFilter)}.
            </p>
            {ranking.rows.length === 0 ? (
              <p className="mt-3">
                Nobody is on this shortlist.
                {filtered && shortlist.cut === "top"
                  ? ` Ranks are the drive's: none of these candidates is within its top ${shortlist.top}.`
                  : ""}
              </p>
            ) : (
              <TableScrollBox label="Shortlist table" className="mt-3">
                <table className={`w-full border-collapse text-left ${STACKED_TABLE}`}>
                  <caption className="sr-only">The shortlist of {drive.name}, in rank order</caption>
                  <ColumnHeadings
                    className={STACKED_HEAD}
                    names={[
                      "Rank",
                      "Candidate",
                      "USN",
                      "College",
                      "Course",
                      "Score",
                      "Percentile",
                      "Result",
                      "Time taken",
                    ]}
                  />
                  <tbody className={STACKED_BODY}>
                    {ranking.rows.map((row) => (
                      <tr key={row.attemptId} className={`border-b border-slate-200 align-top ${STACKED_ROW}`}>
                        <td data-label="Rank" className={`px-3 py-2 font-semibold ${STACKED_CELL}`}>
                          {row.rank}
                        </td>
                        <th scope="row" data-label="Candidate" className={`px-3 py-2 font-normal ${STACKED_CELL}`}>
                          <span className="min-w-0 wrap-anywhere">
                            {row.name}
                            <span className="block break-all text-sm text-slate-700">{row.email}</span>
                          </span>
                        </th>
                        <td data-label="USN" className={`px-3 py-2 wrap-anywhere ${STACKED_CELL}`}>
                          {row.usnNo}
                        </td>
                        <td data-label="College" className={`px-3 py-2 wrap-anywhere ${STACKED_CELL}`}>
                          {row.college}
                        </td>
                        <td data-label="Course" className={`px-3 py-2 wrap-anywhere ${STACKED_CELL}`}>
                          {row.course}
                        </td>
                        <td data-label="Score" className={`px-3 py-2 whitespace-nowrap ${STACKED_CELL}`}>
                          <ScoreWithSections
                            marks={row.marks}
                            totalQuestions={row.totalQuestions}
                            sections={row.sections}
                          />
                        </td>
                        <td data-label="Percentile" className={`px-3 py-2 ${STACKED_CELL}`}>
                          {row.percentile}
                        </td>
                        <td data-label="Result" className={`px-3 py-2 ${STACKED_CELL}`}>
                          {row.passed === null ? "—" : row.passed ? "Pass" : "Fail"}
                        </td>
                        <td data-label="Time taken" className={`px-3 py-2 whitespace-nowrap ${STACKED_CELL}`}>
                          {formatTimeTaken(row.secondsTaken)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScrollBox>
            )}
          </section>

          <section aria-labelledby="groups" className="mt-8">
            <h2 id="groups" className="text-xl font-semibold">
              By college and course
            </h2>
            <p className="mt-2">
              Each line's file keeps the same cut, with that college's and course's candidates only.
            </p>
            {ranking.groups.length === 0 ? (
              <p className="mt-3">Nobody has submitted this drive's test yet.</p>
            ) : (
              <TableScrollBox label="Colleges and courses table" className="mt-3">
                <table className={`w-full border-collapse text-left ${STACKED_TABLE}`}>
                  <caption className="sr-only">Candidates and shortlisted candidates per college and course</caption>
                  <ColumnHeadings
                    className={STACKED_HEAD}
                    names={["College", "Course", "Candidates", "Shortlisted", "Shortlist file"]}
                  />
                  <tbody className={STACKED_BODY}>
                    {ranking.groups.map((group) => (
                      <tr
                        key={`${group.college}|${group.course}`}
                        className={`border-b border-slate-200 ${STACKED_ROW}`}
                      >
                        <th
                          scope="row"
                          data-label="College"
                          className={`px-3 py-2 font-normal wrap-anywhere ${STACKED_CELL}`}
                        >
                          {group.college}
                        </th>
                        <td data-label="Course" className={`px-3 py-2 wrap-anywhere ${STACKED_CELL}`}>
                          {group.course}
                        </td>
                        <td data-label="Candidates" className={`px-3 py-2 ${STACKED_CELL}`}>
                          {formatCount(group.candidates)}
                        </td>
                        <td data-label="Shortlisted" className={`px-3 py-2 ${STACKED_CELL}`}>
                          {formatCount(group.shortlisted)}
                        </td>
                        <td data-label="Shortlist file" className={`px-3 py-2 ${STACKED_CELL}`}>
                          <button
                            type="button"
                            disabled={group.shortlisted === 0}
                            onClick={() =>
                              void download({ ...shortlist, college: group.college, course: group.course })
                            }
                            aria-label={`Download the shortlist of ${group.college}, ${group.course}`}
                            className="text-brand-700 underline disabled:text-slate-500 disabled:no-underline"
                          >
                            Download
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScrollBox>
            )}
          </section>
        </>
      )}
    </AdminShell>
  );
}
