import { RESULT_REDIRECT_SECONDS, STORAGE_KEYS } from "@trainwise/contract/constants";
import { passRule, type QuizResult, type ReleasedResult } from "@trainwise/contract/quiz";
import { Suspense, useEffect, useState } from "react";
import { Await, Link, replace, useLocation, useNavigate } from "react-router";
import { AnswerReview, reviewNote } from "../../components/quiz/answer-review.tsx";
import { DocumentDownload } from "../../components/quiz/document-download.tsx";
import { SectionScores } from "../../components/quiz/section-scores.tsx";
import { Alert } from "../../components/ui/form-field.tsx";
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
  // Why the quiz ended, when the quiz page says (the drive's focus-loss limit): shown once, on arrival.
  const notice = (useLocation().state as { notice?: unknown } | null)?.notice;
  return (
    <>
      {typeof notice === "string" && (
        <div className="mx-auto max-w-2xl px-4 pt-8">
          <Alert tone="info">{notice}</Alert>
        </div>
      )}
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
    </>
  );
}

/** The test and the drive a result belongs to, in a line under the heading. */
export function SatIn({ result }: { result: QuizResult }) {
  return (
    <p className="mt-2 text-lg text-slate-700">
      {result.testName}, {result.driveName}
      {result.organisation ? ` (${result.organisation})` : ""}
    </p>
  );
}

/**
 * Where a student finds this result again later, from any device, with its scorecard once the score is out (and
 * its certificate, when it has one).
 */
function ComeBackLater({ released = false, certificate = false }: { released?: boolean; certificate?: boolean }) {
  const documents = certificate
    ? " or download your scorecard and certificate"
    : released
      ? " or download your scorecard"
      : "";
  return (
    <p className="mt-6 text-slate-700">
      To see this result{documents} later, open{" "}
      <Link to="/student/results" className="font-semibold text-brand-700 underline">
        Your results
      </Link>{" "}
      with your email and the resume code you were given at registration, or your personal link.
    </p>
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
      <SatIn result={result} />
      <p className="mt-4 text-2xl font-semibold" role="status">
        Submitted — results on {when}
      </p>
      <p className="mt-3 text-slate-700">
        Your answers to {result.testName} are saved. Scores, pass or fail and certificates for this test come out
        together once everyone's time is up, so nobody can learn the answers from someone else's score.
      </p>
      <ComeBackLater />
      <Link to="/" className="mt-6 inline-block font-semibold text-brand-700 underline">
        Go to the homepage
      </Link>
    </div>
  );
}

/**
 * The seconds left before the page goes home, for the eye only: the sentence beside it, which a screen reader
 * hears once, says the same without a second-by-second announcement.
 */
function useSecondsLeft(running: boolean): number {
  const [left, setLeft] = useState(RESULT_REDIRECT_SECONDS);
  useEffect(() => {
    if (!running) return;
    const started = Date.now();
    const timer = setInterval(() => {
      setLeft(Math.max(0, RESULT_REDIRECT_SECONDS - Math.floor((Date.now() - started) / 1000)));
    }, 250);
    return () => clearInterval(timer);
  }, [running]);
  return left;
}

function ResultView({ result, token }: { result: ReleasedResult; token: string }) {
  const navigate = useNavigate();
  // The redirect home after 5 seconds happens unless the student chooses to stay and read their answers.
  const [staying, setStaying] = useState(false);
  const left = useSecondsLeft(!staying);

  useEffect(() => {
    if (staying) return;
    const timer = setTimeout(() => navigate("/"), RESULT_REDIRECT_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [staying, navigate]);

  const note = reviewNote(result.review);
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-brand-900">Quiz Result</h1>
      <SatIn result={result} />
      <p className="mt-4 text-2xl font-semibold">Your Score: {result.percentage}%</p>
      <p className="mt-1 text-slate-700">
        {result.score} of {result.totalQuestions} answers correct
        {result.marks !== result.score ? `; ${result.marks} marks after negative marking` : ""}.
      </p>
      {result.passed !== null && (
        <p className={`mt-2 text-xl font-semibold ${result.passed ? "text-green-800" : "text-red-800"}`}>
          {result.passed ? "Passed" : "Not passed"} ({passRule(result.passMark, result.sections)})
        </p>
      )}
      {result.sections.length > 0 && <SectionScores sections={result.sections} />}
      {result.passed && !result.certificate && (
        <p className="mt-2 text-slate-700">
          This drive gives no certificates: they are given only where the college's or company's candidate list confirms
          who took the test.
        </p>
      )}
      {result.certificate && (
        <DocumentDownload
          label="Download your certificate"
          look="primary"
          download={() => downloadFile("certificate", { params: { id: result.resultId }, token }, "certificate.pdf")}
          failure="The certificate could not be downloaded. Please try again."
        />
      )}
      <DocumentDownload
        label="Download your scorecard"
        look="secondary"
        download={() => downloadFile("scorecard", { params: { id: result.resultId }, token }, "scorecard.pdf")}
        failure="The scorecard could not be downloaded. Please try again."
      />
      {note && <p className="mt-4 text-slate-700">{note}</p>}
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
            <div className="flex items-center gap-3">
              {/* The countdown, drawn: the seconds left in a ring. Hidden from screen readers, which hear the
                  sentence beside it once instead of a number every second. */}
              <span
                aria-hidden="true"
                data-countdown-seconds={left}
                className="flex size-10 shrink-0 items-center justify-center rounded-full border-2 border-brand-700 bg-white text-lg font-bold text-brand-900 tabular-nums"
              >
                {left}
              </span>
              <p role="status">You will be redirected to the homepage in {RESULT_REDIRECT_SECONDS} seconds.</p>
            </div>
            <button
              type="button"
              onClick={() => setStaying(true)}
              className="rounded border border-brand-700 bg-white px-4 py-2 font-semibold text-brand-900 hover:bg-brand-100"
            >
              Stay on this page
            </button>
          </div>
          {/* The time left as a bar that empties over the redirect's seconds. Under reduced motion it stays still;
              the number and the sentence say the same. */}
          <div aria-hidden="true" className="mt-3 h-1.5 overflow-hidden rounded bg-brand-100">
            <div
              data-countdown
              className="h-full origin-left bg-brand-700 motion-safe:animate-[drain_var(--countdown)_linear_forwards]"
              style={{ "--countdown": `${RESULT_REDIRECT_SECONDS}s` } as React.CSSProperties}
            />
          </div>
        </div>
      )}
      <AnswerReview result={result} />
      <ComeBackLater released certificate={Boolean(result.certificate)} />
    </div>
  );
}
