import { mayUse } from "@trainwise/contract/admin-roles";
import type { PersonalLinkScope, RosterEntry } from "@trainwise/contract/drives";
import { useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { AdminShell } from "../../components/admin/admin-shell.tsx";
import {
  STACKED_BODY,
  STACKED_CELL,
  STACKED_HEAD,
  STACKED_ROW,
  STACKED_TABLE,
  TableScrollBox,
} from "../../components/admin/admin-table.tsx";
import { AnswerSignalsNote, answerSignalsText } from "../../components/admin/answer-signals.tsx";
import { ColumnHeadings } from "../../components/admin/column-headings.tsx";
import { QrCode } from "../../components/admin/qr-code.tsx";
import { ScoreWithSections } from "../../components/admin/section-scores.tsx";
import { Alert } from "../../components/ui/form-field.tsx";
import { adminCall, adminDownload, currentAdmin, useAdminAction } from "../../lib/admin-client.ts";
import { saveBlob } from "../../lib/api.ts";
import {
  closesText,
  DRIVE_STATUS_LABELS,
  opensText,
  resultsReleaseText,
  resultsWaitForRelease,
} from "../../lib/drive-display.ts";
import { formatInZone } from "../../lib/zoned-time.ts";
import type { Route } from "./+types/drive-detail";
import type { DriveNotice } from "./drives.tsx";

function linkStateText(link: RosterEntry["link"], timeZone: string): string {
  if (!link) return "None";
  if (link.usedAt) return `Used ${formatInZone(link.usedAt, timeZone)}`;
  if (link.emailedAt) return `E-mailed ${formatInZone(link.emailedAt, timeZone)}`;
  return `Made ${formatInZone(link.madeAt, timeZone)}`;
}

/** The drive's page lists its best attempts; all of them are in the CSV and in View Results. */
const RESULTS_SHOWN = 100;
/** The roster's first lines, by email then USN; the rest are a page further on (GET /api/drives/:id/roster). */
const ROSTER_SHOWN = 100;

export async function clientLoader({ params, request }: Route.ClientLoaderArgs) {
  // A viewer reads the drive as a report: no roster upload, no personal links (decision 027).
  const manages = mayUse((await currentAdmin()).role, "manage");
  const [drive, results, roster] = await Promise.all([
    adminCall("drive", { id: params.id, signal: request.signal }),
    adminCall("driveResults", { id: params.id, query: { limit: RESULTS_SHOWN }, signal: request.signal }),
    adminCall("driveRoster", { id: params.id, query: { page: 1, pageSize: ROSTER_SHOWN }, signal: request.signal }),
  ]);
  return { drive, results, roster, manages };
}

export const meta = () => [{ title: "Drive | Trainwise" }, { name: "robots", content: "noindex" }];

function shareLinkOf(code: string): string {
  return `${window.location.origin}/student/register?drive=${encodeURIComponent(code)}`;
}

export default function DriveDetail({ loaderData }: Route.ComponentProps) {
  const { drive, results, roster, manages } = loaderData;
  const id = drive._id;
  const { outcome, run, setOutcome } = useAdminAction();
  // Arriving from the form that created the drive: its message, until the first action here says something else.
  const created = (useLocation().state as Partial<DriveNotice> | null)?.notice;
  const shown = outcome ?? (created ? { ok: true, message: created } : undefined);
  const [copied, setCopied] = useState<string>();
  const rosterInput = useRef<HTMLInputElement>(null);

  async function copyLink(link: string) {
    try {
      await navigator.clipboard.writeText(link);
      setCopied("Link copied.");
    } catch {
      setCopied("Copying is not allowed here; select the link and copy it by hand.");
    }
  }

  async function uploadRoster() {
    const file = rosterInput.current?.files?.[0];
    if (!file) {
      setOutcome({ ok: false, message: "Choose a CSV file with the students' emails and USNs." });
      return;
    }
    const result = await run(
      async (call) => (await call("replaceRoster", { id, csv: await file.text() })).message,
      "The roster was not saved.",
    );
    if (result?.ok && rosterInput.current) rosterInput.current.value = "";
  }

  /** Makes personal links and saves them as a CSV: the only time the links are shown. */
  async function makeLinks(lines: PersonalLinkScope) {
    if (
      lines === "all" &&
      !window.confirm(
        "Make new links for every line? The links sent so far stop working, used ones included; registered students keep their registrations.",
      )
    ) {
      return;
    }
    await run(async (call) => {
      const made = await call("makePersonalLinks", { id, body: { lines } });
      if (made.made > 0)
        saveBlob(new Blob([made.csv], { type: "text/csv;charset=utf-8" }), `personal-links-${drive.code}.csv`);
      return made.message;
    }, "The personal links were not made.");
  }

  async function publishResults() {
    if (!window.confirm("Publish this drive's results? Its students see their scores and answers at once.")) return;
    await run(async (call) => (await call("publishResults", { id })).message, "The results were not published.");
  }

  async function downloadResults() {
    await run(
      async () => {
        await adminDownload("driveResultsExport", "drive-results.csv", { id });
        return "The results were downloaded as drive-results.csv.";
      },
      "The download failed.",
      { refresh: false },
    );
  }

  const title = `Drive: ${drive.name}`;
  const link = shareLinkOf(drive.code);

  return (
    <AdminShell title={title}>
      <p className="mb-4 flex flex-wrap gap-x-6 gap-y-2 print:hidden">
        {manages ? (
          <Link to="/admin/drives" className="text-brand-700 underline">
            Back to all drives
          </Link>
        ) : (
          <Link to={`/admin/results?driveId=${id}`} className="text-brand-700 underline">
            All results of this drive
          </Link>
        )}
        <Link to={`/admin/drives/${id}/live`} className="font-semibold text-brand-700 underline">
          Live board
        </Link>
        <Link to={`/admin/drives/${id}/analysis`} className="text-brand-700 underline">
          Item analysis of this drive
        </Link>
        <Link to={`/admin/drives/${id}/ranking`} className="text-brand-700 underline">
          Ranks and shortlists
        </Link>
      </p>
      {shown && (
        <div className="mb-4">
          <Alert tone={shown.ok ? "success" : "error"}>{shown.message}</Alert>
        </div>
      )}

      <section aria-labelledby="drive-details">
        <h2 id="drive-details" className="text-xl font-semibold">
          Details
        </h2>
        <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
          {(
            [
              ["Test", drive.testName],
              ["College or company", drive.organisation || "—"],
              ["Batch", drive.batch || "—"],
              ["Status", DRIVE_STATUS_LABELS[drive.status]],
              ["Opens", opensText(drive)],
              ["Closes", closesText(drive)],
              [
                "Late entry",
                drive.lateEntryMinutes === null
                  ? "Until the close"
                  : `Nobody new ${drive.lateEntryMinutes} ${drive.lateEntryMinutes === 1 ? "minute" : "minutes"} after opening`,
              ],
              [
                "Leaving the quiz",
                drive.focusLossLimit === null
                  ? "Noted, no limit"
                  : `${drive.focusLossEndsAttempt ? "Submitted" : "Warned"} at ${drive.focusLossLimit} ${drive.focusLossLimit === 1 ? "time" : "times"}`,
              ],
              [
                "Lost connections",
                drive.disconnectGraceSeconds === null || drive.disconnectCreditMinutes === null
                  ? "No time given back"
                  : `Time lost beyond ${drive.disconnectGraceSeconds} s of silence given back, up to ${drive.disconnectCreditMinutes} min in all`,
              ],
              [
                "On the test's screen",
                [
                  drive.fullScreen ? "Full screen asked for, exits counted" : "",
                  drive.blockCopyPaste ? "Copy and paste off" : "",
                ]
                  .filter(Boolean)
                  .join("; ") || "As usual",
              ],
              [
                "Exam room",
                drive.allowedAddresses.length === 0 ? "Anywhere" : `Only from ${drive.allowedAddresses.join(", ")}`,
              ],
              [
                "At the close",
                drive.closingEndsAttempts
                  ? "Running attempts end and are submitted"
                  : "Running attempts may finish their time",
              ],
              [
                "Who may register",
                drive.personalLinksOnly
                  ? `Only students on the roster (${drive.rosterSize} listed), through their personal links`
                  : drive.rosterOnly
                    ? `Only students on the roster (${drive.rosterSize} listed)`
                    : drive.verifyEmail
                      ? "Anyone with the code who confirms their e-mail address with a code we send"
                      : "Anyone with the code",
              ],
              ["Results", resultsReleaseText(drive)],
              [
                "Students",
                `${drive.students} registered, ${drive.submitted} submitted, ${drive.passed} passed, ${drive.failed} failed`,
              ],
            ] as const
          ).map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="font-semibold">{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        {manages && drive.holdResults && resultsWaitForRelease(drive) && drive.resultsReleaseAt === null && (
          <button
            type="button"
            onClick={() => void publishResults()}
            className="mt-4 rounded bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-900 print:hidden"
          >
            Publish results
          </button>
        )}
      </section>

      <section
        aria-labelledby="drive-access"
        data-print-sheet
        className="mt-8 rounded border border-slate-200 p-4 print:border-0"
      >
        <h2 id="drive-access" className="text-xl font-semibold">
          How students join {drive.name}
        </h2>
        {/* The sheet is the notice for a notice board: what the test is, when, and how to join. */}
        <p className="mt-3">
          {drive.testName}
          {drive.organisation && ` for ${drive.organisation}`}
          {drive.batch && `, ${drive.batch}`}. Opens: {opensText(drive)}. Closes: {closesText(drive)}.
        </p>
        <ol className="mt-3 list-decimal space-y-1 pl-6">
          <li>Scan the QR code with your phone, or open the link, and check the drive's name.</li>
          <li>
            {drive.personalLinksOnly
              ? "Register through the personal link your placement officer sent you: it fills in your email and USN."
              : drive.rosterOnly
                ? "Register with the email and USN your placement officer has for you."
                : "Register with your own email and USN."}
          </li>
          <li>Write down the resume code you are shown: with it you can come back on any device.</li>
          <li>Answer before the time runs out; your answers are saved as you go.</li>
        </ol>
        <p className="mt-3">
          Drive code: <strong className="font-mono text-2xl tracking-widest">{drive.code}</strong>
        </p>
        <p className="mt-2">
          Share link:{" "}
          <a href={link} className="break-all text-brand-700 underline">
            {link}
          </a>
        </p>
        <QrCode
          text={link}
          label={`QR code of the link to register for ${drive.name}`}
          className="mt-4 h-56 w-56 print:h-80 print:w-80"
        />
        <div className="mt-4 flex flex-wrap items-center gap-3 print:hidden">
          <button
            type="button"
            onClick={() => void copyLink(link)}
            className="rounded border border-brand-700 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50"
          >
            Copy link
          </button>
          <button
            type="button"
            onClick={() => window.print()}
            className="rounded bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-900"
          >
            Print
          </button>
          <p role="status" className="text-sm text-slate-700">
            {copied}
          </p>
        </div>
      </section>

      <section aria-labelledby="drive-roster" className="mt-8 rounded border border-slate-200 p-4">
        <h2 id="drive-roster" className="text-xl font-semibold">
          Roster
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          {drive.rosterOnly
            ? "Only the students listed here may register for this drive."
            : "This drive takes anyone with the code; a roster applies once the drive is set to roster only."}{" "}
          A CSV file with a header row naming an email column, a usn column, or both; uploading replaces the list.
          Listed now: {drive.rosterSize}.
        </p>
        {manages && (
          <>
            <div className="mt-3 flex flex-wrap items-end gap-3">
              {/* A file input is wider than a 360 px phone leaves it: it may shrink with its box. */}
              <div className="min-w-0 max-w-full">
                <label htmlFor="roster-file" className="block font-medium">
                  Roster CSV file
                </label>
                <input
                  id="roster-file"
                  ref={rosterInput}
                  type="file"
                  accept=".csv,text/csv"
                  className="mt-1 block w-full"
                />
              </div>
              <button
                type="button"
                onClick={() => void uploadRoster()}
                className="rounded bg-brand-700 px-4 py-2 font-semibold text-white"
              >
                Upload roster
              </button>
            </div>
            <h3 className="mt-5 font-semibold">Personal links</h3>
            <p className="mt-1 text-sm text-slate-700">
              Each roster line can have its own link, which fills in and locks the student's email and USN and works for
              one registration.{" "}
              {drive.personalLinksOnly
                ? "This drive admits new students only through their links."
                : "Set the drive to personal links only (Edit on the drives page) so that knowing a classmate's email and USN lets nobody in."}{" "}
              The links download as a CSV for the placement officer and are shown only then; when the server has e-mail
              set up, each line with an email address is also sent its link.
            </p>
            <div className="mt-2 flex flex-wrap gap-3">
              <button
                type="button"
                onClick={() => void makeLinks("unlinked")}
                className="rounded bg-brand-700 px-4 py-2 font-semibold text-white"
              >
                Make links for lines without one
              </button>
              <button
                type="button"
                onClick={() => void makeLinks("all")}
                className="rounded border border-brand-700 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50"
              >
                Make new links for every line
              </button>
            </div>
          </>
        )}
        {roster.length > 0 && (
          <TableScrollBox label="Roster table" className="mt-3">
            <table className={`w-full border-collapse text-left ${STACKED_TABLE}`}>
              <caption className="text-left text-sm text-slate-700">
                {drive.rosterSize > roster.length
                  ? `The first ${roster.length} of ${drive.rosterSize} lines, by email then USN.`
                  : "Every line, by email then USN."}{" "}
                A line with both an email and a USN admits only the student with both.
              </caption>
              <ColumnHeadings className={STACKED_HEAD} names={["Email", "USN", "Registered", "Personal link"]} />
              <tbody className={STACKED_BODY}>
                {roster.map((line, place) => (
                  // A roster may list the same line twice; the page's lines never move.
                  <tr
                    key={`${place}|${line.email ?? ""}|${line.usnNo ?? ""}`}
                    className={`border-b border-slate-200 ${STACKED_ROW}`}
                  >
                    <td data-label="Email" className={`px-3 py-2 break-all ${STACKED_CELL}`}>
                      {line.email ?? "—"}
                    </td>
                    <td data-label="USN" className={`px-3 py-2 ${STACKED_CELL}`}>
                      {line.usnNo ?? "—"}
                    </td>
                    <td data-label="Registered" className={`px-3 py-2 ${STACKED_CELL}`}>
                      {line.registered ? line.registered.name : "Not yet"}
                    </td>
                    <td data-label="Personal link" className={`px-3 py-2 ${STACKED_CELL}`}>
                      {linkStateText(line.link, drive.timeZone)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScrollBox>
        )}
      </section>

      <section aria-labelledby="drive-results" className="mt-8">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="drive-results" className="text-xl font-semibold">
            Results
          </h2>
          <button
            type="button"
            onClick={() => void downloadResults()}
            className="rounded border border-brand-700 px-4 py-2 font-semibold text-brand-700"
          >
            Download CSV
          </button>
        </div>
        {results.length === 0 && <p className="mt-3">Nobody has submitted this drive's test yet.</p>}
        {drive.submitted > results.length && (
          <p className="mt-3">
            The best {results.length} of {drive.submitted} attempts.{" "}
            <Link to={`/admin/results?driveId=${id}`} className="text-brand-700 underline">
              Search, sort and page through all of them in View Results
            </Link>
            , or download the CSV.
          </p>
        )}
        {results.length > 0 && <AnswerSignalsNote />}
        {results.length > 0 && (
          <TableScrollBox label="Results table" className="mt-3">
            <table className={`w-full border-collapse text-left ${STACKED_TABLE}`}>
              <caption className="sr-only">Submitted attempts of {drive.name}, best first</caption>
              <ColumnHeadings
                className={STACKED_HEAD}
                names={["Student", "USN", "Score", "Result", "Submitted", "Left the quiz", "Answer times"]}
              />
              <tbody className={STACKED_BODY}>
                {results.map((row) => (
                  <tr key={row._id} className={`border-b border-slate-200 align-top ${STACKED_ROW}`}>
                    <th scope="row" data-label="Student" className={`px-3 py-2 font-normal ${STACKED_CELL}`}>
                      <span className="min-w-0">
                        {row.studentName}
                        <span className="block break-all text-sm text-slate-700">{row.email}</span>
                      </span>
                    </th>
                    <td data-label="USN" className={`px-3 py-2 ${STACKED_CELL}`}>
                      {row.usnNo}
                    </td>
                    <td data-label="Score" className={`px-3 py-2 whitespace-nowrap ${STACKED_CELL}`}>
                      <ScoreWithSections
                        marks={row.marks}
                        totalQuestions={row.totalQuestions}
                        sections={row.sections}
                      />
                    </td>
                    <td data-label="Result" className={`px-3 py-2 ${STACKED_CELL}`}>
                      {row.passed === null ? "—" : row.passed ? "Pass" : "Fail"}
                    </td>
                    <td data-label="Submitted" className={`px-3 py-2 ${STACKED_CELL}`}>
                      <span>
                        {formatInZone(row.submittedAt, drive.timeZone)}
                        {row.autoSubmitted && (
                          <span className="block font-semibold text-amber-900">Auto-submitted</span>
                        )}
                      </span>
                    </td>
                    <td data-label="Left the quiz" className={`px-3 py-2 ${STACKED_CELL}`}>
                      {row.focusLosses === 1 ? "1 time" : `${row.focusLosses} times`}
                    </td>
                    <td data-label="Answer times" className={`px-3 py-2 ${STACKED_CELL}`}>
                      {answerSignalsText(row) ?? "—"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScrollBox>
        )}
      </section>
    </AdminShell>
  );
}
