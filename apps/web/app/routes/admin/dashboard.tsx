import { mayUse } from "@trainwise/contract/admin-roles";
import { Link } from "react-router";
import { AdminShell } from "../../components/admin/admin-shell.tsx";
import { ScoreChart } from "../../components/admin/score-chart.tsx";
import { Alert } from "../../components/ui/form-field.tsx";
import { RichText } from "../../components/ui/rich-text.tsx";
import { adminCall, currentAdmin } from "../../lib/admin-client.ts";
import { formatCount, formatScore, formatScorePercent, formatShare } from "../../lib/format.ts";
import { formatInZone } from "../../lib/zoned-time.ts";
import type { Route } from "./+types/dashboard";

/** One of the dashboard's lists, or why it could not be loaded (a refused session still goes to login). */
async function settled<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof Response) throw error;
    return undefined;
  }
}

/** Aggregates and three lists of ten rows, each fetched as ten rows: nothing here grows with the data. */
export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const { signal } = request;
  // A viewer sees results only: the question bank and the students list are not asked for.
  const manages = mayUse((await currentAdmin()).role, "manage");
  const [summary, questions, students, results] = await Promise.all([
    settled(adminCall("dashboard", { signal })),
    manages ? settled(adminCall("questionTable", { query: { pageSize: 10 }, signal })) : undefined,
    manages ? settled(adminCall("studentTable", { query: { pageSize: 10 }, signal })) : undefined,
    settled(adminCall("resultTable", { query: { pageSize: 10 }, signal })),
  ]);
  return { manages, summary, questions, students, results };
}

export const meta = () => [{ title: "Admin Dashboard | Trainwise" }, { name: "robots", content: "noindex" }];

function Panel({ title, more, children }: { title: string; more?: string; children: React.ReactNode }) {
  const id = `panel-${title.toLowerCase().replaceAll(" ", "-")}`;
  return (
    <section aria-labelledby={id} className="min-w-0 rounded border border-slate-200 p-4">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
      {more && (
        <Link to={more} className="mt-3 inline-block text-sm text-brand-700 underline">
          See all <span className="sr-only">{title.toLowerCase()}</span>
        </Link>
      )}
    </section>
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { manages, summary, questions, students, results } = loaderData;
  const figures: [string, string][] = [
    ["Students", summary ? formatCount(summary.students) : "–"],
    ["Submitted quizzes", summary ? formatCount(summary.submitted) : "–"],
    ["Questions", summary ? formatCount(summary.questions) : "–"],
    [
      "Average score",
      summary?.averagePercentage !== null && summary?.averagePercentage !== undefined
        ? formatScorePercent(summary.averagePercentage)
        : "–",
    ],
  ];
  return (
    <AdminShell title="Admin Dashboard">
      {!summary && <Alert tone="error">Could not load the figures.</Alert>}
      <dl className="grid grid-cols-2 gap-3 text-center md:grid-cols-4">
        {figures.map(([label, value]) => (
          <div key={label} className="rounded bg-brand-50 p-3">
            <dt className="text-sm text-slate-700">{label}</dt>
            <dd className="text-2xl font-bold text-brand-900">{value}</dd>
          </div>
        ))}
      </dl>
      <div className={`mt-6 grid gap-6 ${manages ? "md:grid-cols-3" : "md:grid-cols-1"}`}>
        {manages && (
          <Panel title="Recent Questions" more="/admin/questions">
            {!questions && <Alert tone="error">Could not load the questions.</Alert>}
            {questions?.rows.length === 0 && <p>No questions available</p>}
            <ul className="list-disc space-y-1 pl-5">
              {questions?.rows.map((question) => (
                <li key={question._id} className="break-words">
                  <RichText html={question.html} />
                </li>
              ))}
            </ul>
          </Panel>
        )}
        {manages && (
          <Panel title="Student Details" more="/admin/students">
            {!students && <Alert tone="error">Error fetching students</Alert>}
            {students?.rows.length === 0 && <p>No students have registered yet.</p>}
            <ul className="space-y-1">
              {students?.rows.map((student) => (
                <li key={student._id} className="break-words">
                  {student.name} <span className="text-slate-600">({student.email})</span>
                </li>
              ))}
            </ul>
          </Panel>
        )}
        <Panel title="Student Results" more="/admin/results">
          {!results && <Alert tone="error">Error fetching results</Alert>}
          {results?.rows.length === 0 && <p>No quiz has been submitted yet.</p>}
          <ul className="space-y-1">
            {results?.rows.map((row) => (
              <li key={row._id} className="break-words">
                {row.studentName}: Score: {formatScore(row.marks, row.totalQuestions)}
              </li>
            ))}
          </ul>
        </Panel>
      </div>
      {summary && summary.openDrives.length > 0 && (
        <section aria-labelledby="open-drives" className="mt-6 rounded border border-slate-200 p-4">
          <h2 id="open-drives" className="text-xl font-semibold">
            Drives open now
          </h2>
          <ul className="mt-3 space-y-2">
            {summary.openDrives.map((drive) => (
              <li key={drive._id} className="break-words">
                <Link to={`/admin/drives/${drive._id}`} className="font-semibold text-brand-700 underline">
                  {drive.name}
                </Link>
                {drive.organisation && ` · ${drive.organisation}`} · {formatCount(drive.students)} registered,{" "}
                {formatCount(drive.submitted)} submitted
                {drive.closesAt && ` · closes ${formatInZone(drive.closesAt, drive.timeZone)}`}
              </li>
            ))}
          </ul>
        </section>
      )}
      {summary && summary.submitted > 0 && (
        <div className="mt-6 grid gap-6 md:grid-cols-2">
          <Panel title="How scores spread">
            <ScoreChart distribution={summary.distribution} />
          </Panel>
          <Panel title="Question analysis">
            <p className="text-sm text-slate-700">
              Share of students who answered each question right, hardest first, over the latest{" "}
              {formatCount(Math.min(summary.submitted, summary.analysisWindow))} results. For facility, discrimination
              and option choices of one drive or test, open its item analysis from{" "}
              {manages ? (
                <>
                  <Link to="/admin/drives" className="text-brand-700 underline">
                    Drives
                  </Link>{" "}
                  or{" "}
                  <Link to="/admin/tests" className="text-brand-700 underline">
                    Tests
                  </Link>
                </>
              ) : (
                // A viewer may not open the Drives and Tests lists; a drive's page is reached from its results.
                <>
                  a drive's page (
                  <Link to="/admin/results" className="text-brand-700 underline">
                    View Results
                  </Link>
                  , then the drive's name)
                </>
              )}
              .
            </p>
            {/* Each question as students saw it, its figures beside it: a list, not a table, so the numbers never
                sit past the card's edge however wide a question's code or formula is. */}
            <section
              className="relative mt-2 max-h-96 overflow-y-auto"
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
              tabIndex={0}
              aria-label="Questions, hardest first"
            >
              <ol className="divide-y divide-slate-200 text-sm">
                {summary.items.map((item) => (
                  <li key={item.questionId} className="min-w-0 py-2">
                    <p className="font-semibold">
                      {formatShare(item.correctShare)} right{" "}
                      <span className="font-normal text-slate-700">
                        ({formatCount(item.correct)} of {formatCount(item.served)} served)
                      </span>
                    </p>
                    <RichText html={item.html} className="rich-text-wrap-code mt-1" />
                  </li>
                ))}
              </ol>
            </section>
          </Panel>
        </div>
      )}
    </AdminShell>
  );
}
