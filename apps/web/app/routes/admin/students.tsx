import type { Student } from "@trainwise/contract/students";
import { useEffect, useMemo, useState } from "react";
import { AdminShell } from "../../components/admin-shell.tsx";
import { Alert } from "../../components/form-field.tsx";
import { requireAdminToken } from "../../guards.ts";
import { api } from "../../lib/api.ts";

export function clientLoader() {
  return { token: requireAdminToken() };
}

export const meta = () => [{ title: "Registered Students | Trainwise" }, { name: "robots", content: "noindex" }];

export default function Students({ loaderData }: { loaderData: { token: string } }) {
  const { token } = loaderData;
  const [students, setStudents] = useState<Student[]>();
  const [failed, setFailed] = useState(false);
  const [search, setSearch] = useState("");

  useEffect(() => {
    api<Student[]>("/students", { token }).then(setStudents, () => setFailed(true));
  }, [token]);

  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    if (!needle) return students ?? [];
    return (students ?? []).filter((student) =>
      [student.name, student.email, student.college, student.course, student.year, student.usnNo].some((value) =>
        value.toLowerCase().includes(needle),
      ),
    );
  }, [students, search]);

  return (
    <AdminShell title="Registered Students" token={token}>
      {failed && <Alert tone="error">Error fetching students</Alert>}
      {!students && !failed && <p role="status">Loading...</p>}
      {students && (
        <>
          <label htmlFor="student-search" className="block font-medium">
            Search students
          </label>
          <input
            id="student-search"
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className="mt-1 w-full max-w-md rounded border border-slate-400 px-3 py-2"
          />
          <p className="mt-2 text-sm text-slate-700" role="status">
            {shown.length} of {students.length} students
          </p>
          <div className="mt-4 overflow-x-auto">
            <table className="w-full border-collapse text-left">
              <caption className="sr-only">Registered students</caption>
              <thead>
                <tr className="border-b border-slate-300">
                  {["Name", "Email", "College", "Course", "Year"].map((heading) => (
                    <th key={heading} scope="col" className="px-3 py-2">
                      {heading}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {shown.map((student) => (
                  <tr key={student._id} className="border-b border-slate-200">
                    <td className="px-3 py-2">{student.name}</td>
                    <td className="px-3 py-2">{student.email}</td>
                    <td className="px-3 py-2">{student.college}</td>
                    <td className="px-3 py-2">{student.course}</td>
                    <td className="px-3 py-2">{student.year}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </AdminShell>
  );
}
