import { RESULT_REDIRECT_SECONDS, STORAGE_KEYS } from "@trainwise/contract/constants";
import type { QuizResult, ReleasedResult } from "@trainwise/contract/quiz";
import { Suspense, useEffect, useState } from "react";
import { Await, Link, replace, useNavigate } from "react-router";
import { Alert } from "../../components/ui/form-field.tsx";
import { RichText } from "../../components/ui/rich-text.tsx";
import { requireStudentToken } from "../../guards.ts";
import { call, downloadFile } from "../../lib/api.ts";
import { formatInZone } from "../../lib/zoned-time.ts";
import type { Route } from "./+types/result";

export function clientLoader({ params, request }: Route.ClientLoaderArgs) {
  const token = requireStudentToken();
  // Only right after submitting (docs/product.md#result), replacing the history entry so Back does not bounce off
  // this page.
  if (localStorage.getItem(STORAGE_KEYS.quizSubmitted) !== "true") throw replace("/student/register");
  // Not awaited: the page opens at once and says it is loading, as the quiz hands over to it without waiting.
  const result = call("quizResult", { params: { id: params.id }, token, signal: request.signal });
  // The page shows a failure itself (<Await>); this only keeps the browser from reporting it as unhandled.
  result.catch(() => undefined);
  return { token, result };
}

export const meta = () => [{ title: "Quiz result | Trainwise" }, { name: "robots", content: "noindex" }];

export default function Result({ loaderData }: Route.ComponentProps) {
  return (
    <Suspense
      fallback={
        <p className="p-8 text-center" role="status">
          Loading...
        </p>
      }
    >
      <Await
        resolve={loaderData.result}
        errorElement={
          <div className="mx-auto max-w-2xl px-4 py-12">
            <h1 className="mb-4 text-2xl font-bold">Quiz Result</h1>
            <Alert tone="error">Unable to fetch result</Alert>
          </div>
        }
      >
        {(result: QuizResult) =>
          result.status === "pending" ? (
            <PendingResultView result={result} />
          ) : (
            <ResultView result={result} token={loaderData.token} />
          )
        }
      </Await>
    </Suspense>
  );
}

/**
 * A secure test's result before its drive releases results: the answers are in, the score comes later (a score
 * shown at once would tell throw-away registrations the key). No redirect: there is nothing to read but this.
 */
function PendingResultView({ result }: { result: Extract<QuizResult, { status: "pending" }> }) {
  const when = result.releasesAt
    ? formatInZone(result.releasesAt, result.timeZone)
    : result.heldForPublishing
      ? "the day the organisers publish them"
      : "the day the drive closes";
  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <h1 className="text-3xl font-bold text-brand-900">Quiz Result</h1>
      <p className="mt-4 text-2xl font-semibold" role="status">
        Submitted — results on {when}
      </p>
      <p className="mt-3 text-slate-700">
        Your answers to {result.testName} are saved. Scores, pass or fail and certificates for this test come out
        together once everyone's time is up, so nobody can learn the answers from someone else's score. Come back then:
        register again with the same email, USN and your resume code to see your result.
      </p>
      <Link to="/" className="mt-6 inline-block font-semibold text-brand-700 underline">
        Go to the homepage
      </Link>
    </div>
  );
}

function ResultView({ result, token }: { result: ReleasedResult; token: string }) {
  const navigate = useNavigate();
  const [certificateFailed, setCertificateFailed] = useState(false);
  // The redirect home after 5 seconds happens unless the student chooses to stay and read their answers.
  const [staying, setStaying] = useState(false);

  useEffect(() => {
    if (staying) return;
    const timer = setTimeout(() => navigate("/"), RESULT_REDIRECT_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [staying, navigate]);

  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-brand-900">Quiz Result</h1>
      <p className="mt-4 text-2xl font-semibold">Your Score: {result.percentage}%</p>
      <p className="mt-1 text-slate-700">
        {result.score} of {result.totalQuestions} answers correct
        {result.marks !== result.score ? `; ${result.marks} marks after negative marking` : ""}.
      </p>
      {result.passed !== null && (
        <p className={`mt-2 text-xl font-semibold ${result.passed ? "text-green-800" : "text-red-800"}`}>
          {result.passed ? "Passed" : "Not passed"} (pass mark {result.passMark}%)
        </p>
      )}
      {result.passed && !result.certificate && (
        <p className="mt-2 text-slate-700">
          This drive gives no certificates: they are given only where the college's or company's candidate list confirms
          who took the test.
        </p>
      )}
      {result.certificate && (
        <button
          type="button"
          onClick={() =>
            void downloadFile("certificate", { params: { id: result.resultId }, token }, "certificate.pdf").catch(() =>
              setCertificateFailed(true),
            )
          }
          className="mt-4 rounded bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-900"
        >
          Download your certificate
        </button>
      )}
      {certificateFailed && (
        <div className="mt-4">
          <Alert tone="error">The certificate could not be downloaded. Please try again.</Alert>
        </div>
      )}
      {!result.review.ticksShown && (
        <p className="mt-4 text-slate-700">
          {result.review.policy === "score_only"
            ? "This test shows your score only."
            : result.review.ticksFrom
              ? `Which answers were right is shown after the test closes, on ${new Date(result.review.ticksFrom).toLocaleString("en-GB", { dateStyle: "long", timeStyle: "short" })}.`
              : "Which answers were right is shown after the test closes."}
        </p>
      )}
      {staying ? (
        <p role="status" className="mt-4 rounded bg-brand-50 px-4 py-3">
          You are staying on this page.{" "}
          <Link to="/" className="font-semibold text-brand-700 underline">
            Go to the homepage
          </Link>
        </p>
      ) : (
        <div className="mt-4 rounded bg-brand-50 px-4 py-3">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p role="status">You will be redirected to the homepage in {RESULT_REDIRECT_SECONDS} seconds.</p>
            <button
              type="button"
              onClick={() => setStaying(true)}
              className="rounded border border-brand-700 bg-white px-4 py-2 font-semibold text-brand-900 hover:bg-brand-100"
            >
              Stay on this page
            </button>
          </div>
          {/* The time left, drawn: a bar that empties over the redirect's seconds. Under reduced motion it stays
              still; the sentence says the same. */}
          <div aria-hidden="true" className="mt-3 h-1.5 overflow-hidden rounded bg-brand-100">
            <div
              data-countdown
              className="h-full origin-left bg-brand-700 motion-safe:animate-[drain_var(--countdown)_linear_forwards]"
              style={{ "--countdown": `${RESULT_REDIRECT_SECONDS}s` } as React.CSSProperties}
            />
          </div>
        </div>
      )}
      <ol className="mt-6 space-y-2">
        {result.answers.map((answer, position) => (
          <li key={answer.questionId} className="flex items-start gap-3 rounded border border-slate-200 px-4 py-3">
            {/* One width for the three marks, so the question numbers after them line up. */}
            <span
              aria-hidden="true"
              className={`w-4 shrink-0 text-center font-bold ${answer.isCorrect ? "text-green-700" : answer.answered ? "text-red-700" : "text-slate-600"}`}
            >
              {answer.isCorrect ? "✓" : answer.answered ? "✗" : "–"}
            </span>
            <div className="min-w-0 flex-1">
              <span className="sr-only">
                {answer.isCorrect
                  ? "Correct: "
                  : !answer.answered
                    ? "Not answered: "
                    : answer.mark > 0
                      ? "Partly right: "
                      : "Wrong: "}
              </span>
              <div className="flex gap-1">
                <span className="shrink-0">{position + 1}.</span>
                <RichText html={answer.question.html} className="flex-1" />
              </div>
            </div>
            {answer.answered && !answer.isCorrect && answer.mark !== 0 && (
              <span
                className={`shrink-0 rounded px-2 py-0.5 text-sm ${answer.mark > 0 ? "bg-amber-100 text-amber-900" : "bg-red-100 text-red-900"}`}
              >
                {/* A partly right answer's share of the question's mark, or what an option weighted below 0 cost. */}
                {answer.mark.toFixed(2)} of 1
              </span>
            )}
            {!answer.answered && (
              <span aria-hidden="true" className="shrink-0 rounded bg-slate-100 px-2 py-0.5 text-sm text-slate-700">
                Not answered
              </span>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
