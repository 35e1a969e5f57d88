import type { Question } from "@trainwise/contract/questions";
import type { ResultRow, ResultsSummary, Student } from "@trainwise/contract/students";
import { useCallback, useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { AdminShell } from "../../components/admin-shell.tsx";
import { Alert } from "../../components/form-field.tsx";
import { ScoreChart } from "../../components/score-chart.tsx";
import { requireAdminToken } from "../../guards.ts";
import { forgetAdminToken } from "../../lib/admin-session.ts";
import { ApiError, api } from "../../lib/api.ts";

export function clientLoader() {
  return { token: requireAdminToken() };
}

export const meta = () => [{ title: "Admin Dashboard | Trainwise" }, { name: "robots", content: "noindex" }];

type Load<T> = { state: "loading" } | { state: "ready"; data: T } | { state: "failed" };

function useAdminList<T>(path: string, token: string, onRefused?: () => void): Load<T> {
  const [load, setLoad] = useState<Load<T>>({ state: "loading" });
  useEffect(() => {
    const controller = new AbortController();
    api<T>(path, { token, signal: controller.signal }).then(
      (data) => setLoad({ state: "ready", data }),
      (error: Error) => {
        if (error.name === "AbortError") return;
        setLoad({ state: "failed" });
        // Only a refused token ends the session: a request cut off by leaving the page, or a network blip,
        // must not sign the admin out.
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) onRefused?.();
      },
    );
    return () => controller.abort();
  }, [path, token, onRefused]);
  return load;
}

const ACTIONS = [
  { to: "/admin/students", label: "View Students" },
  { to: "/admin/results", label: "View Results" },
  { to: "/admin/questions", label: "Manage Questions" },
  { to: "/admin/submit-feedback", label: "Submit Feedback" },
] as const;

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`panel-${title}`} className="rounded border border-slate-200 p-4">
      <h2 id={`panel-${title}`} className="text-xl font-semibold">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

export default function Dashboard({ loaderData }: { loaderData: { token: string } }) {
  const { token } = loaderData;
  const navigate = useNavigate();
  const sessionLost = useCallback(() => {
    forgetAdminToken();
    navigate("/admin/login", { state: { notice: "Unauthorized or session expired" } });
  }, [navigate]);
  const questions = useAdminList<Question[]>("/questions", token, sessionLost);
  const students = useAdminList<Student[]>("/students", token);
  const results = useAdminList<ResultRow[]>("/students/results/all", token);
  const summary = useAdminList<ResultsSummary>("/students/results/summary", token);

  return (
    <AdminShell title="Admin Dashboard" token={token}>
      <div className="flex flex-wrap gap-3">
        {ACTIONS.map((action) => (
          <Link
            key={action.to}
            to={action.to}
            className="rounded bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-900"
          >
            {action.label}
          </Link>
        ))}
      </div>
      <dl className="mt-6 grid grid-cols-2 gap-4 text-center md:grid-cols-4">
        {[
          ["Students", summary.state === "ready" ? summary.data.students : "–"],
          ["Submitted quizzes", summary.state === "ready" ? summary.data.submitted : "–"],
          ["Questions", summary.state === "ready" ? summary.data.questions : "–"],
          [
            "Average score",
            summary.state === "ready" && summary.data.averagePercentage !== null
              ? `${summary.data.averagePercentage.toFixed(2)}%`
              : "–",
          ],
        ].map(([label, value]) => (
          <div key={label} className="rounded bg-brand-50 p-4">
            <dt className="text-sm text-slate-700">{label}</dt>
            <dd className="text-3xl font-bold text-brand-900">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-6 grid gap-6 md:grid-cols-3">
        <Panel title="Recent Questions">
          {questions.state === "loading" && <p role="status">Loading...</p>}
          {questions.state === "failed" && <Alert tone="error">Could not load the questions.</Alert>}
          {questions.state === "ready" &&
            (questions.data.length === 0 ? (
              <p>No questions available</p>
            ) : (
              <ul className="list-disc space-y-1 pl-5">
                {questions.data.slice(0, 10).map((question) => (
                  <li key={question._id}>{question.text}</li>
                ))}
              </ul>
            ))}
        </Panel>
        <Panel title="Student Details">
          {students.state === "loading" && <p role="status">Loading...</p>}
          {students.state === "failed" && <Alert tone="error">Error fetching students</Alert>}
          {students.state === "ready" && students.data.length === 0 && <p>No students have registered yet.</p>}
          {students.state === "ready" && (
            <ul className="space-y-1">
              {students.data.slice(0, 10).map((student) => (
                <li key={student._id}>
                  {student.name} <span className="text-slate-600">({student.email})</span>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel title="Student Results">
          {results.state === "loading" && <p role="status">Loading...</p>}
          {results.state === "failed" && <Alert tone="error">Error fetching results</Alert>}
          {results.state === "ready" && results.data.length === 0 && <p>No quiz has been submitted yet.</p>}
          {results.state === "ready" && (
            <ul className="space-y-1">
              {results.data.slice(0, 10).map((row) => (
                <li key={row._id}>
                  {row.studentName}: Score: {row.score} points
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
      {summary.state === "ready" && summary.data.submitted > 0 && (
        <div className="mt-6 grid gap-6 md:grid-cols-2">
          <Panel title="How scores spread">
            <ScoreChart distribution={summary.data.distribution} />
          </Panel>
          <Panel title="Question analysis">
            <p className="text-sm text-slate-700">Share of students who answered each question right, hardest first.</p>
            <section
              className="mt-2 max-h-80 overflow-y-auto"
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
              tabIndex={0}
              aria-label="Question analysis table"
            >
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Per question: times served and share answered right</caption>
                <thead>
                  <tr>
                    <th scope="col" className="py-1 pr-2">
                      Question
                    </th>
                    <th scope="col" className="py-1 pr-2">
                      Served
                    </th>
                    <th scope="col" className="py-1">
                      Right
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {summary.data.items.map((item) => (
                    <tr key={item.questionId} className="border-t border-slate-200">
                      <td className="py-1 pr-2">{item.text}</td>
                      <td className="py-1 pr-2">{item.served}</td>
                      <td className="py-1">{item.correctShare.toFixed(0)}%</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          </Panel>
        </div>
      )}
    </AdminShell>
  );
}
