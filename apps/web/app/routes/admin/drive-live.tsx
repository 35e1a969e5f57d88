// The live board of a drive: every student's state, question and score, kept current by the API's stream of
// changes without reloading (decision 017).
import { mayUse } from "@trainwise/contract/admin-roles";
import type { AttemptEnding } from "@trainwise/contract/drives";
import {
  LIVE_QUIET_AFTER_SECONDS,
  LIVE_STATE_LABELS,
  LIVE_STATES,
  type LiveBoard,
  type LiveCounts,
  type LiveState,
  type LiveStudent,
} from "@trainwise/contract/live-board";
import { DRIVE_MESSAGE_LENGTH } from "@trainwise/contract/notices";
import { addedTimeText } from "@trainwise/contract/students";
import { type FormEvent, useEffect, useReducer, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { AdminShell } from "../../components/admin/admin-shell.tsx";
import { TableScrollBox } from "../../components/admin/admin-table.tsx";
import { AnswerSignalsNote, answerSignalsText } from "../../components/admin/answer-signals.tsx";
import { ScoreWithSections } from "../../components/admin/section-scores.tsx";
import { Alert } from "../../components/ui/form-field.tsx";
import { adminCall, currentAdmin, followAdminStream, useAdminAction } from "../../lib/admin-client.ts";
import { formatScorePercent } from "../../lib/format.ts";
import { liveBoardReducer } from "../../lib/live-board-state.ts";
import { formatInZone } from "../../lib/zoned-time.ts";
import type { Route } from "./+types/drive-live";

export async function clientLoader({ params, request }: Route.ClientLoaderArgs) {
  const [drive, board, admin] = await Promise.all([
    adminCall("drive", { id: params.id, signal: request.signal }),
    adminCall("driveLive", { id: params.id, signal: request.signal }),
    currentAdmin(),
  ]);
  // Every admin watches; an examiner or owner may also end an attempt from the board (decision 035).
  return { drive, board, invigilates: mayUse(admin.role, "manage") };
}

export const meta = () => [{ title: "Live board | Trainwise" }, { name: "robots", content: "noindex" }];

/** The board's rows on screen at once; a drive of thousands is narrowed with the state filter. */
const ROWS_SHOWN = 200;
/** Screen readers hear the counts at most this often, however often they change. */
const ANNOUNCE_EVERY_MS = 30_000;

/** Who ended an attempt before its student or its time did, as the board says it (decision 035). */
const ENDED_BY: Record<AttemptEnding, string> = {
  focus_limit: "Submitted at the drive's limit",
  invigilator: "Ended by the invigilator",
};

const STATE_STYLES: Record<LiveState, string> = {
  not_started: "border-slate-400 bg-slate-50 text-slate-800",
  in_progress: "border-sky-700 bg-sky-50 text-sky-900",
  quiet: "border-amber-700 bg-amber-50 text-amber-900",
  submitted: "border-emerald-700 bg-emerald-50 text-emerald-900",
  auto_submitted: "border-violet-700 bg-violet-50 text-violet-900",
};

/** Time added to an attempt, as the board says it: "3 min added", "1 min 30 s added". */
function countsSentence(counts: LiveCounts, averagePercentage: number | null): string {
  const parts = LIVE_STATES.map((state) => `${counts[state]} ${LIVE_STATE_LABELS[state].toLowerCase()}`);
  const average = averagePercentage === null ? "" : ` Average score ${formatScorePercent(averagePercentage)}.`;
  return `${parts.join(", ")}.${average}`;
}

/**
 * Where a student is: the question open by the server's clock (and its section) while in progress, the score and
 * each section's part once submitted.
 */
function Progress({ student }: { student: LiveStudent }) {
  if (student.state === "submitted" || student.state === "auto_submitted") {
    const marks = student.marks ?? student.score ?? 0;
    return (
      <ScoreWithSections
        lead="Scored "
        marks={marks}
        totalQuestions={student.totalQuestions ?? 0}
        sections={student.sections}
      />
    );
  }
  if (student.studentId === null) return "Not registered";
  if (student.state === "not_started") return "Registered";
  // A student who moves freely between questions has none open: the board says how far their answers have got.
  return (
    <>
      {student.position === null
        ? `${student.answered} of ${student.totalQuestions} answered`
        : `Question ${student.position} of ${student.totalQuestions}`}
      {student.section && <span className="block text-xs text-slate-700">{student.section}</span>}
    </>
  );
}

/** The per-question rows in runs of one section, each run under its section's name (one run without sections). */
function sectionRuns(positions: LiveBoard["positions"]) {
  const runs: { section: string | null; positions: LiveBoard["positions"] }[] = [];
  for (const row of positions) {
    const last = runs.at(-1);
    if (last && last.section === row.section) last.positions.push(row);
    else runs.push({ section: row.section, positions: [row] });
  }
  return runs;
}

/**
 * What the live region says: the counts as they are now, passed on at most once per `everyMs` (a region that
 * changes every second is noise). Between two announcements it holds nothing rather than counts that are no longer
 * true (emptying a region is not announced); the latest counts follow when the wait is over.
 */
function useAnnounced(text: string, everyMs: number): string {
  const [said, setSaid] = useState(text);
  const lastAt = useRef(0);
  useEffect(() => {
    if (text === said) return;
    const wait = Math.max(0, lastAt.current + everyMs - Date.now());
    if (wait > 0) setSaid("");
    const timer = setTimeout(() => {
      lastAt.current = Date.now();
      setSaid(text);
    }, wait);
    return () => clearTimeout(timer);
  }, [text, said, everyMs]);
  return said;
}

export default function DriveLive({ loaderData }: Route.ComponentProps) {
  const { drive } = loaderData;
  const navigate = useNavigate();
  const [{ board, connection }, dispatch] = useReducer(liveBoardReducer, {
    board: loaderData.board,
    connection: "connecting",
  });
  const [filter, setFilter] = useState<LiveState | "all">("all");
  const { busy, outcome, run } = useAdminAction();

  /**
   * Asks how many minutes to add (decision 037); the server checks the number and says what it did. A cancelled
   * question sends nothing.
   */
  function askMinutes(question: string): number | undefined {
    const answer = window.prompt(question, "5");
    if (answer === null || answer.trim() === "") return undefined;
    return Number(answer.trim());
  }

  async function addTimeFor(student: LiveStudent) {
    if (!student.studentId) return;
    const minutes = askMinutes(`Minutes to add to the attempt of ${student.name} (${student.usnNo}):`);
    if (minutes === undefined) return;
    const id = student.studentId;
    await run(async (call) => (await call("addStudentTime", { id, body: { minutes } })).message, "No time was added.", {
      refresh: false,
    });
  }

  async function addTimeForEveryone() {
    const minutes = askMinutes(`Minutes to add to every attempt of ${drive.name} running now:`);
    if (minutes === undefined) return;
    await run(
      async (call) => (await call("addDriveTime", { id: drive._id, body: { minutes } })).message,
      "No time was added.",
      { refresh: false },
    );
  }

  /** Pauses the whole drive (decision 039), once asked: every running clock stops until it is resumed. */
  async function pauseDrive() {
    const question = `Pause ${drive.name} now? Every running clock stops, and every candidate's screen puts the test away until you resume it.`;
    if (!window.confirm(question)) return;
    await run(async (call) => (await call("pauseDrive", { id: drive._id })).message, "The drive was not paused.");
  }

  async function resumeDrive() {
    await run(async (call) => (await call("resumeDrive", { id: drive._id })).message, "The drive was not resumed.");
  }

  const [message, setMessage] = useState("");
  async function sendMessage(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const sent = await run(
      async (call) => (await call("sendDriveMessage", { id: drive._id, body: { text: message } })).message,
      "The message was not sent.",
      { refresh: false },
    );
    if (sent?.ok) setMessage("");
  }

  async function endAttempt(student: LiveStudent) {
    if (!student.studentId) return;
    // With the USN: two candidates of one name sit in one hall.
    const question = `End the attempt of ${student.name} (${student.usnNo}) now? It is scored with the answers saved so far, and cannot be undone.`;
    if (!window.confirm(question)) return;
    const id = student.studentId;
    await run(async (call) => (await call("endAttempt", { id })).message, "The attempt was not ended.", {
      refresh: false,
    });
  }

  useEffect(() => {
    // Leaving the screen aborts the request, which closes the stream on the server too.
    const leaving = new AbortController();
    followAdminStream("driveLiveStream", {
      id: drive._id,
      signal: leaving.signal,
      onEvent: (event, data) => dispatch({ type: "event", event, data }),
      onConnection: (next) => dispatch({ type: "connection", connection: next }),
    }).catch((error: unknown) => {
      if (error instanceof Response) navigate(error.headers.get("Location") ?? "/admin/login", { replace: true });
    });
    return () => leaving.abort();
  }, [drive._id, navigate]);

  const announced = useAnnounced(countsSentence(board.counts, board.averagePercentage), ANNOUNCE_EVERY_MS);
  const rows = filter === "all" ? board.students : board.students.filter((student) => student.state === filter);
  const shown = rows.slice(0, ROWS_SHOWN);

  return (
    <AdminShell title={`Live: ${drive.name}`}>
      <p className="mb-4">
        <Link to={`/admin/drives/${drive._id}`} className="text-brand-700 underline">
          Back to the drive
        </Link>
      </p>
      {outcome && (
        <div className="mb-4">
          <Alert tone={outcome.ok ? "success" : "error"}>{outcome.message}</Alert>
        </div>
      )}
      <p className="text-sm text-slate-700">
        {connection === "live"
          ? "Updating as students answer."
          : connection === "connecting"
            ? "Connecting for updates…"
            : connection === "reconnecting"
              ? "Connection lost; reconnecting… The board shows the last update."
              : `${connection.refused} The board shows the last update.`}{" "}
        A student in progress goes quiet after {LIVE_QUIET_AFTER_SECONDS} seconds without a request.
      </p>

      <section aria-labelledby="live-counts" className="mt-6">
        <h2 id="live-counts" className="text-xl font-semibold">
          Where students stand
        </h2>
        <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          {LIVE_STATES.map((state) => (
            <div key={state} className={`rounded border-l-4 p-3 ${STATE_STYLES[state]}`}>
              <dt className="text-sm">{LIVE_STATE_LABELS[state]}</dt>
              <dd className="text-2xl font-bold" data-testid={`count-${state}`}>
                {board.counts[state]}
              </dd>
            </div>
          ))}
          <div className="rounded border-l-4 border-brand-700 bg-white p-3">
            <dt className="text-sm">Average score</dt>
            <dd className="text-2xl font-bold">
              {board.averagePercentage === null ? "—" : formatScorePercent(board.averagePercentage)}
            </dd>
          </div>
        </dl>
        <p className="mt-2 text-sm text-slate-700">
          Focus lost {board.focusLosses} {board.focusLosses === 1 ? "time" : "times"} in all; the quiz reloaded{" "}
          {board.reloads} {board.reloads === 1 ? "time" : "times"} (a reload, a tab reopened or another device is not a
          loss of focus). Auto-submitted: the time ran out before the student submitted.
        </p>
        <AnswerSignalsNote />
        <p aria-live="polite" aria-atomic="true" className="sr-only">
          {announced}
        </p>
      </section>

      {drive.pausedAt && (
        <div className="mt-6">
          <Alert tone="info">
            Paused since {formatInZone(drive.pausedAt, drive.timeZone)}: every candidate's clock stands still, nothing
            new starts and no answer changes until the drive is resumed.
          </Alert>
        </div>
      )}
      {loaderData.invigilates && (
        <div className="mt-4">
          <button
            type="button"
            disabled={busy}
            onClick={() => void (drive.pausedAt ? resumeDrive() : pauseDrive())}
            className="min-h-11 rounded bg-brand-700 px-4 py-1 font-medium text-white disabled:opacity-60"
          >
            {drive.pausedAt ? "Resume the drive" : "Pause the drive"}
          </button>
        </div>
      )}
      {loaderData.invigilates && (
        <form onSubmit={(event) => void sendMessage(event)} className="mt-6 max-w-2xl">
          <label htmlFor="drive-message" className="block font-medium">
            Message to every candidate
          </label>
          <p id="drive-message-help" className="text-sm text-slate-700">
            It appears on the screen of every candidate of this drive within seconds, and of anyone who opens the quiz
            later. At most {DRIVE_MESSAGE_LENGTH.max} characters.
          </p>
          <input
            id="drive-message"
            type="text"
            aria-describedby="drive-message-help"
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            maxLength={DRIVE_MESSAGE_LENGTH.max}
            className="mt-1 block w-full rounded border border-slate-400 px-2 py-1"
          />
          <button
            type="submit"
            disabled={busy}
            className="mt-2 min-h-11 rounded bg-brand-700 px-4 py-1 font-medium text-white disabled:opacity-60"
          >
            Send message
          </button>
        </form>
      )}

      <section aria-labelledby="live-students" className="mt-8">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="live-students" className="text-xl font-semibold">
            Students
          </h2>
          {loaderData.invigilates && (
            <button
              type="button"
              onClick={() => void addTimeForEveryone()}
              className="min-h-11 rounded border border-brand-700 px-3 py-1 font-medium text-brand-700"
            >
              Add time for everyone
            </button>
          )}
          <div>
            <label htmlFor="live-filter" className="mr-2 font-medium">
              Show
            </label>
            <select
              id="live-filter"
              value={filter}
              onChange={(event) => setFilter(event.target.value as LiveState | "all")}
              className="rounded border border-slate-400 px-2 py-1"
            >
              <option value="all">Everyone</option>
              {LIVE_STATES.map((state) => (
                <option key={state} value={state}>
                  {LIVE_STATE_LABELS[state]}
                </option>
              ))}
            </select>
          </div>
        </div>
        {rows.length > shown.length && (
          <p className="mt-2 text-sm text-slate-700">
            Showing the first {shown.length} of {rows.length}; choose a state to narrow the list.
          </p>
        )}
        <TableScrollBox label="Students and where each stands" className="mt-3">
          <table className="w-full border-collapse text-left text-sm">
            <caption className="sr-only">Students of {drive.name} and where each stands</caption>
            <thead>
              <tr className="border-b border-slate-300">
                <th scope="col" className="py-2 pr-2">
                  Student
                </th>
                <th scope="col" className="py-2 pr-2">
                  State
                </th>
                <th scope="col" className="py-2 pr-2">
                  Question or score
                </th>
                <th scope="col" className="py-2">
                  Focus lost
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((student) => (
                <tr key={student.id} className="border-b border-slate-200 align-top">
                  <th scope="row" className="py-2 pr-2 font-normal">
                    <span className="block break-words font-medium">{student.name}</span>
                    <span className="block break-all text-xs text-slate-700">{student.usnNo}</span>
                    {loaderData.invigilates && (student.state === "in_progress" || student.state === "quiet") && (
                      <>
                        <button
                          type="button"
                          onClick={() => void addTimeFor(student)}
                          aria-label={`Add time to the attempt of ${student.name} (${student.usnNo})`}
                          className="mt-1 block min-h-11 text-left text-sm font-normal text-brand-700 underline"
                        >
                          Add time
                        </button>
                        <button
                          type="button"
                          onClick={() => void endAttempt(student)}
                          aria-label={`End attempt of ${student.name} (${student.usnNo})`}
                          className="block min-h-11 text-left text-sm font-normal text-red-800 underline"
                        >
                          End attempt
                        </button>
                      </>
                    )}
                  </th>
                  <td className="py-2 pr-2">
                    <span className={`inline-block rounded border-l-4 px-2 py-0.5 ${STATE_STYLES[student.state]}`}>
                      {LIVE_STATE_LABELS[student.state]}
                    </span>
                  </td>
                  <td className="py-2 pr-2">
                    <Progress student={student} />
                  </td>
                  <td className="py-2">
                    {student.focusLosses}
                    {student.fullScreenExits > 0 && (
                      <span className="block text-xs text-slate-700">
                        Left full screen {student.fullScreenExits} {student.fullScreenExits === 1 ? "time" : "times"}
                      </span>
                    )}
                    {student.addedSeconds > 0 && (
                      <span className="block text-xs text-slate-700">{addedTimeText(student.addedSeconds)} added</span>
                    )}
                    {student.heldUntil && (
                      <span className="block text-xs font-semibold text-amber-900">
                        Connection lost: held open until {formatInZone(student.heldUntil, drive.timeZone)}
                      </span>
                    )}
                    {student.creditedSeconds > 0 && (
                      <span className="block text-xs text-slate-700">
                        {addedTimeText(Math.round(student.creditedSeconds))} given back for lost connections
                      </span>
                    )}
                    {student.endedBy && (
                      <span className="block text-xs font-semibold text-red-800">{ENDED_BY[student.endedBy]}</span>
                    )}
                    {/* On a phone the board has no room for more columns: reloads and answer times go beneath. */}
                    {student.reloads > 0 && (
                      <span className="block text-xs text-slate-700">
                        Reloaded {student.reloads} {student.reloads === 1 ? "time" : "times"}
                      </span>
                    )}
                    {answerSignalsText(student) && (
                      <span className="block text-xs text-slate-700">{answerSignalsText(student)}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {board.students.length === 0 && <p className="mt-3">No student has registered for this drive yet.</p>}
        </TableScrollBox>
      </section>

      <section aria-labelledby="live-questions" className="mt-8">
        <h2 id="live-questions" className="text-xl font-semibold">
          Progress per question
        </h2>
        {board.positions.length === 0 ? (
          <p className="mt-3">No student has started yet.</p>
        ) : (
          <TableScrollBox label="Questions reached, answered and left unanswered" className="mt-3 max-w-md">
            <table className="w-full border-collapse text-left text-sm">
              <caption className="sr-only">
                How many students reached, answered and left unanswered each question
              </caption>
              <thead>
                <tr className="border-b border-slate-300">
                  <th scope="col" className="py-2 pr-2">
                    Question
                  </th>
                  <th scope="col" className="py-2 pr-2">
                    Reached
                  </th>
                  <th scope="col" className="py-2 pr-2">
                    Answered
                  </th>
                  <th scope="col" className="py-2">
                    Left unanswered
                  </th>
                </tr>
              </thead>
              {sectionRuns(board.positions).map((run) => (
                <tbody key={run.positions[0]?.position}>
                  {run.section !== null && (
                    <tr className="border-b border-slate-300">
                      <th scope="rowgroup" colSpan={4} className="pt-3 pb-1 font-semibold">
                        {run.section}
                      </th>
                    </tr>
                  )}
                  {run.positions.map((row) => (
                    <tr key={row.position} className="border-b border-slate-200">
                      <th scope="row" className="py-1 pr-2 font-normal">
                        {row.position}
                      </th>
                      <td className="py-1 pr-2">{row.reached}</td>
                      <td className="py-1 pr-2">{row.answered}</td>
                      <td className="py-1">{row.unanswered}</td>
                    </tr>
                  ))}
                </tbody>
              ))}
            </table>
          </TableScrollBox>
        )}
      </section>
    </AdminShell>
  );
}
