import type { Drive, DriveResult } from "@trainwise/contract/drives";
import { useCallback, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { AdminShell } from "../../components/admin-shell.tsx";
import { ColumnHeadings } from "../../components/column-headings.tsx";
import { Alert } from "../../components/form-field.tsx";
import { QrCode } from "../../components/qr-code.tsx";
import { adminDownload, adminTokenOrLogin, useAdminCall } from "../../lib/admin-client.ts";
import { messageOf } from "../../lib/api.ts";
import { closesText, DRIVE_STATUS_LABELS, opensText } from "../../lib/drive-display.ts";
import { formatInZone } from "../../lib/zoned-time.ts";
import type { Route } from "./+types/drive-detail";

export function clientLoader({ params }: Route.ClientLoaderArgs) {
  return { token: adminTokenOrLogin(), id: params.id };
}

export const meta = () => [{ title: "Drive | Trainwise" }, { name: "robots", content: "noindex" }];

type Notice = { tone: "success" | "error"; message: string };

function shareLinkOf(code: string): string {
  return `${window.location.origin}/student/register?drive=${encodeURIComponent(code)}`;
}

export default function DriveDetail({ loaderData }: Route.ComponentProps) {
  const { id } = loaderData;
  const call = useAdminCall();
  const [drive, setDrive] = useState<Drive>();
  const [results, setResults] = useState<DriveResult[]>();
  const [loadError, setLoadError] = useState<string>();
  const [notice, setNotice] = useState<Notice>();
  const [copied, setCopied] = useState<string>();
  const rosterInput = useRef<HTMLInputElement>(null);

  const load = useCallback(async () => {
    try {
      const [found, rows] = await Promise.all([call("drive", { id }), call("driveResults", { id })]);
      setDrive(found);
      setResults(rows);
      setLoadError(undefined);
    } catch (error) {
      setLoadError(messageOf(error, "Could not load the drive."));
    }
  }, [id, call]);

  useEffect(() => {
    void load();
  }, [load]);

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
      setNotice({ tone: "error", message: "Choose a CSV file with the students' emails and USNs." });
      return;
    }
    try {
      const { message } = await call("replaceRoster", { id, csv: await file.text() });
      setNotice({ tone: "success", message });
      if (rosterInput.current) rosterInput.current.value = "";
      await load();
    } catch (error) {
      setNotice({ tone: "error", message: messageOf(error, "The roster was not saved.") });
    }
  }

  const title = drive ? `Drive: ${drive.name}` : "Drive";
  const link = drive ? shareLinkOf(drive.code) : "";

  return (
    <AdminShell title={title}>
      <p className="mb-4 flex flex-wrap gap-x-6 gap-y-2 print:hidden">
        <Link to="/admin/drives" className="text-brand-700 underline">
          Back to all drives
        </Link>
        <Link to={`/admin/drives/${id}/live`} className="font-semibold text-brand-700 underline">
          Live board
        </Link>
        <Link to={`/admin/drives/${id}/analysis`} className="text-brand-700 underline">
          Item analysis of this drive
        </Link>
      </p>
      {loadError && <Alert tone="error">{loadError}</Alert>}
      {notice && (
        <div className="mb-4">
          <Alert tone={notice.tone}>{notice.message}</Alert>
        </div>
      )}
      {!drive && !loadError && <p role="status">Loading...</p>}
      {drive && (
        <>
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
                    "Who may register",
                    drive.rosterOnly
                      ? `Only students on the roster (${drive.rosterSize} listed)`
                      : "Anyone with the code",
                  ],
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
          </section>

          <section
            aria-labelledby="drive-access"
            data-print-sheet
            className="mt-8 rounded border border-slate-200 p-4 print:border-0"
          >
            <h2 id="drive-access" className="text-xl font-semibold">
              How students join {drive.name}
            </h2>
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
            <div className="mt-3 flex flex-wrap items-end gap-3">
              <div>
                <label htmlFor="roster-file" className="block font-medium">
                  Roster CSV file
                </label>
                <input id="roster-file" ref={rosterInput} type="file" accept=".csv,text/csv" className="mt-1 block" />
              </div>
              <button
                type="button"
                onClick={() => void uploadRoster()}
                className="rounded bg-brand-700 px-4 py-2 font-semibold text-white"
              >
                Upload roster
              </button>
            </div>
          </section>

          <section aria-labelledby="drive-results" className="mt-8">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 id="drive-results" className="text-xl font-semibold">
                Results
              </h2>
              <button
                type="button"
                onClick={() =>
                  void adminDownload("driveResultsExport", "drive-results.csv", { id }).catch((error) =>
                    setNotice({ tone: "error", message: messageOf(error, "The download failed.") }),
                  )
                }
                className="rounded border border-brand-700 px-4 py-2 font-semibold text-brand-700"
              >
                Download CSV
              </button>
            </div>
            {results?.length === 0 && <p className="mt-3">Nobody has submitted this drive's test yet.</p>}
            {results && results.length > 0 && (
              // A table of text alone has nothing to focus: the region itself takes focus so that a keyboard can
              // scroll it sideways on a narrow screen.
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
              <section tabIndex={0} aria-label="Results table" className="relative mt-3 max-w-full overflow-x-auto">
                <table className="w-full border-collapse text-left">
                  <caption className="sr-only">Submitted attempts of {drive.name}, best first</caption>
                  <ColumnHeadings
                    names={[
                      "Student",
                      "Email",
                      "USN",
                      "Score",
                      "Marks",
                      "%",
                      "Pass/fail",
                      "Left the quiz",
                      "Submitted",
                    ]}
                  />
                  <tbody>
                    {results.map((row) => (
                      <tr key={row._id} className="border-b border-slate-200">
                        <th scope="row" className="px-3 py-2 font-normal">
                          {row.studentName}
                        </th>
                        <td className="px-3 py-2">{row.email}</td>
                        <td className="px-3 py-2">{row.usnNo}</td>
                        <td className="px-3 py-2">
                          {row.score} of {row.totalQuestions}
                        </td>
                        <td className="px-3 py-2">{row.marks}</td>
                        <td className="px-3 py-2">{row.percentage}%</td>
                        <td className="px-3 py-2">{row.passed === null ? "—" : row.passed ? "Pass" : "Fail"}</td>
                        <td className="px-3 py-2">{row.focusLosses === 1 ? "1 time" : `${row.focusLosses} times`}</td>
                        <td className="px-3 py-2">{formatInZone(row.submittedAt, drive.timeZone)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
            )}
          </section>
        </>
      )}
    </AdminShell>
  );
}
