import type { Drive } from "@trainwise/contract/drives";
import { MAX_TIME_MULTIPLIER, type StudentAdmin } from "@trainwise/contract/students";
import { useCallback, useEffect, useState } from "react";
import { AdminShell } from "../../components/admin-shell.tsx";
import { ColumnHeadings } from "../../components/column-headings.tsx";
import { Alert } from "../../components/form-field.tsx";
import { Pager } from "../../components/pager.tsx";
import { requireAdminToken } from "../../guards.ts";
import { api, apiPage, downloadFile, messageOf } from "../../lib/api.ts";

export function clientLoader() {
  return { token: requireAdminToken() };
}

export const meta = () => [{ title: "Registered Students | Trainwise" }, { name: "robots", content: "noindex" }];

const PAGE_SIZE = 25;
const TIME_CHOICES = [1, 1.25, 1.5, 2, 2.5, MAX_TIME_MULTIPLIER];

export default function Students({ loaderData }: { loaderData: { token: string } }) {
  const { token } = loaderData;
  const [students, setStudents] = useState<StudentAdmin[]>();
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const [driveId, setDriveId] = useState("");
  const [drives, setDrives] = useState<Drive[]>([]);
  const [failed, setFailed] = useState(false);
  const [notice, setNotice] = useState<{ tone: "success" | "error"; message: string }>();

  const load = useCallback(
    async (signal?: AbortSignal) => {
      const query = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE) });
      if (search.trim()) query.set("search", search.trim());
      if (driveId) query.set("driveId", driveId);
      try {
        const result = await apiPage<StudentAdmin>(`/students?${query}`, { token, signal });
        setStudents(result.items);
        setTotal(result.total);
        setFailed(false);
      } catch (error) {
        if ((error as Error).name !== "AbortError") setFailed(true);
      }
    },
    [page, search, driveId, token],
  );

  // The drive filter's choices; without them the list still works, unfiltered.
  useEffect(() => {
    api<Drive[]>("/drives", { token }).then(setDrives, () => setDrives([]));
  }, [token]);

  // Each keystroke in the search starts a new request; the one it replaces is cancelled, so an answer for an
  // older search that arrives late never overwrites the list.
  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  async function act(call: () => Promise<{ message: string }>) {
    try {
      setNotice({ tone: "success", message: (await call()).message });
      await load();
    } catch (error) {
      setNotice({ tone: "error", message: messageOf(error, "That did not work. Please try again.") });
    }
  }

  return (
    <AdminShell title="Registered Students" token={token}>
      {failed && <Alert tone="error">Error fetching students</Alert>}
      {notice && (
        <div className="mb-4">
          <Alert tone={notice.tone}>{notice.message}</Alert>
        </div>
      )}
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-full max-w-md">
          <label htmlFor="student-search" className="block font-medium">
            Search students
          </label>
          <input
            id="student-search"
            type="search"
            value={search}
            onChange={(event) => {
              setPage(1);
              setSearch(event.target.value);
            }}
            className="mt-1 w-full rounded border border-slate-400 px-3 py-2"
          />
        </div>
        <div>
          <label htmlFor="student-drive" className="block font-medium">
            Drive
          </label>
          <select
            id="student-drive"
            value={driveId}
            onChange={(event) => {
              setPage(1);
              setDriveId(event.target.value);
            }}
            className="mt-1 rounded border border-slate-400 px-3 py-2"
          >
            <option value="">All drives</option>
            {drives.map((drive) => (
              <option key={drive._id} value={drive._id}>
                {drive.name}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          onClick={() =>
            void downloadFile("/students/export.csv", token, "students.csv").catch((error) =>
              setNotice({ tone: "error", message: messageOf(error, "The download failed.") }),
            )
          }
          className="rounded border border-brand-700 px-4 py-2 font-semibold text-brand-700"
        >
          Export CSV
        </button>
      </div>
      {!students && !failed && <p role="status">Loading...</p>}
      {students && (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full border-collapse text-left">
            <caption className="sr-only">Registered students, newest first</caption>
            <ColumnHeadings
              names={["Name", "Email", "Drive", "College", "Course", "Year", "Attempts", "Extra time", "Actions"]}
            />
            <tbody>
              {students.map((student) => (
                <tr key={student._id} className="border-b border-slate-200 align-top">
                  <td className="px-3 py-2">{student.name}</td>
                  <td className="px-3 py-2">{student.email}</td>
                  <td className="px-3 py-2">{student.driveName}</td>
                  <td className="px-3 py-2">{student.college}</td>
                  <td className="px-3 py-2">{student.course}</td>
                  <td className="px-3 py-2">{student.year}</td>
                  <td className="px-3 py-2">
                    {student.attemptsUsed} of {student.attemptsAllowed}
                  </td>
                  <td className="px-3 py-2">
                    <label className="sr-only" htmlFor={`time-${student._id}`}>
                      Extra time for {student.name}
                    </label>
                    <select
                      id={`time-${student._id}`}
                      value={student.timeMultiplier}
                      onChange={(event) =>
                        void act(() =>
                          api(`/students/${student._id}/accommodation`, {
                            method: "PUT",
                            token,
                            body: { timeMultiplier: Number(event.target.value) },
                          }),
                        )
                      }
                      className="rounded border border-slate-400 px-2 py-1"
                    >
                      {TIME_CHOICES.map((choice) => (
                        <option key={choice} value={choice}>
                          {choice === 1 ? "None" : `${choice}×`}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td className="px-3 py-2">
                    <div className="flex flex-wrap gap-2">
                      <button
                        type="button"
                        disabled={student.attemptsUsed < student.attemptsAllowed}
                        onClick={() =>
                          void act(() => api(`/students/${student._id}/extra-attempt`, { method: "POST", token }))
                        }
                        className="rounded border border-brand-700 px-3 py-1 text-sm text-brand-700 disabled:opacity-50"
                      >
                        Allow another attempt <span className="sr-only">for {student.name}</span>
                      </button>
                      <button
                        type="button"
                        onClick={() =>
                          void act(() => api(`/students/${student._id}/let-resume`, { method: "POST", token }))
                        }
                        className="rounded border border-brand-700 px-3 py-1 text-sm text-brand-700"
                      >
                        Let resume <span className="sr-only">for {student.name}</span>
                      </button>
                      <button
                        type="button"
                        onClick={() =>
                          void act(() => api(`/students/${student._id}/end-sessions`, { method: "POST", token }))
                        }
                        className="rounded border border-red-700 px-3 py-1 text-sm text-red-700"
                      >
                        End sessions <span className="sr-only">for {student.name}</span>
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} pageSize={PAGE_SIZE} total={total} onPage={setPage} label="Students" />
        </div>
      )}
    </AdminShell>
  );
}
