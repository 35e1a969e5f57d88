import { scorePercentage } from "@trainwise/contract/quiz";
import type { ResultDetail, ResultRow } from "@trainwise/contract/students";
import { Fragment, useEffect, useState } from "react";
import { AdminShell } from "../../components/admin-shell.tsx";
import { ColumnHeadings } from "../../components/column-headings.tsx";
import { Alert } from "../../components/form-field.tsx";
import { requireAdminToken } from "../../guards.ts";
import { api, downloadFile, messageOf } from "../../lib/api.ts";

export function clientLoader() {
  return { token: requireAdminToken() };
}

export const meta = () => [{ title: "Results | Trainwise" }, { name: "robots", content: "noindex" }];

export default function Results({ loaderData }: { loaderData: { token: string } }) {
  const { token } = loaderData;
  const [results, setResults] = useState<ResultRow[]>();
  const [failed, setFailed] = useState(false);
  const [openId, setOpenId] = useState<string>();
  const [detail, setDetail] = useState<ResultDetail>();
  const [notice, setNotice] = useState<string>();

  useEffect(() => {
    api<ResultRow[]>("/students/results/all", { token }).then(setResults, () => setFailed(true));
  }, [token]);

  async function toggle(id: string) {
    if (openId === id) {
      setOpenId(undefined);
      return;
    }
    setOpenId(id);
    setDetail(undefined);
    try {
      setDetail(await api<ResultDetail>(`/students/results/${id}`, { token }));
    } catch (error) {
      setNotice(messageOf(error, "Could not load the answers."));
    }
  }

  return (
    <AdminShell title="Results" token={token}>
      {failed && <Alert tone="error">Error fetching results</Alert>}
      {notice && <Alert tone="error">{notice}</Alert>}
      <button
        type="button"
        onClick={() =>
          void downloadFile("/students/results/export.csv", token, "results.csv").catch((error) =>
            setNotice(messageOf(error, "The download failed.")),
          )
        }
        className="mb-4 rounded border border-brand-700 px-4 py-2 font-semibold text-brand-700"
      >
        Export CSV
      </button>
      {!results && !failed && <p role="status">Loading...</p>}
      {results?.length === 0 && <p>No quiz has been submitted yet.</p>}
      {results && results.length > 0 && (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-left">
            <caption className="sr-only">Submitted quizzes, newest first</caption>
            <ColumnHeadings names={["Student", "Score", "Total", "Percentage", "Submitted", "Answers"]} />
            <tbody>
              {results.map((row) => (
                <Fragment key={row._id}>
                  <tr className="border-b border-slate-200">
                    <td className="px-3 py-2">{row.studentName}</td>
                    <td className="px-3 py-2">Score: {row.score} points</td>
                    <td className="px-3 py-2">{row.totalQuestions}</td>
                    <td className="px-3 py-2">{scorePercentage(row.score, row.totalQuestions)}%</td>
                    <td className="px-3 py-2">{new Date(row.submittedAt).toLocaleString()}</td>
                    <td className="px-3 py-2">
                      <button
                        type="button"
                        aria-expanded={openId === row._id}
                        aria-controls={`answers-${row._id}`}
                        onClick={() => void toggle(row._id)}
                        className="rounded border border-brand-700 px-3 py-1 text-sm text-brand-700"
                      >
                        {openId === row._id ? "Hide answers" : "View answers"}{" "}
                        <span className="sr-only">of {row.studentName}</span>
                      </button>
                    </td>
                  </tr>
                  {openId === row._id && (
                    <tr id={`answers-${row._id}`}>
                      <td colSpan={6} className="bg-slate-50 px-3 py-3">
                        {!detail && <p role="status">Loading...</p>}
                        {detail && (
                          <p className="mb-2 text-sm">
                            Left the quiz window {detail.focusLosses} {detail.focusLosses === 1 ? "time" : "times"}.
                          </p>
                        )}
                        {detail && (
                          <ol className="space-y-2">
                            {detail.answers.map((answer, index) => (
                              <li key={answer.questionId}>
                                <p className="font-semibold">
                                  {index + 1}. {answer.question}{" "}
                                  <span className={answer.isCorrect ? "text-green-800" : "text-red-800"}>
                                    ({answer.isCorrect ? "right" : "wrong"})
                                  </span>
                                </p>
                                <p className="text-sm">
                                  Answered: {answer.chosen ?? "no answer"} · Correct: {answer.correct}
                                  {answer.focusLosses > 0 && ` · left the quiz ${answer.focusLosses}×`}
                                </p>
                              </li>
                            ))}
                          </ol>
                        )}
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AdminShell>
  );
}
