import type { ResultRow } from "@trainwise/contract/students";
import { useEffect, useState } from "react";
import { AdminShell } from "../../components/admin-shell.tsx";
import { Alert } from "../../components/form-field.tsx";
import { requireAdminToken } from "../../guards.ts";
import { api } from "../../lib/api.ts";
import { percentage } from "../portal/result.tsx";

export function clientLoader() {
  return { token: requireAdminToken() };
}

export const meta = () => [{ title: "Results | Trainwise" }, { name: "robots", content: "noindex" }];

export default function Results({ loaderData }: { loaderData: { token: string } }) {
  const { token } = loaderData;
  const [results, setResults] = useState<ResultRow[]>();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    api<ResultRow[]>("/students/results/all", { token }).then(setResults, () => setFailed(true));
  }, [token]);

  return (
    <AdminShell title="Results" token={token}>
      {failed && <Alert tone="error">Error fetching results</Alert>}
      {!results && !failed && <p role="status">Loading...</p>}
      {results?.length === 0 && <p>No quiz has been submitted yet.</p>}
      {results && results.length > 0 && (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-left">
            <caption className="sr-only">Submitted quizzes, newest first</caption>
            <thead>
              <tr className="border-b border-slate-300">
                {["Student", "Score", "Total", "Percentage", "Submitted"].map((heading) => (
                  <th key={heading} scope="col" className="px-3 py-2">
                    {heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {results.map((row) => (
                <tr key={row._id} className="border-b border-slate-200">
                  <td className="px-3 py-2">{row.studentName}</td>
                  <td className="px-3 py-2">Score: {row.score} points</td>
                  <td className="px-3 py-2">{row.totalQuestions}</td>
                  <td className="px-3 py-2">{percentage(row.score, row.totalQuestions)}%</td>
                  <td className="px-3 py-2">{new Date(row.submittedAt).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AdminShell>
  );
}
