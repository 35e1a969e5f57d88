// /student/results: a student's lasting way back to their results and certificates, from any device and any day
// (decision 026). With the email and resume code of their registration, or through their personal link
// (/student/results?link=TOKEN), which looks the results up at once.
import { passRule, type QuizResult } from "@trainwise/contract/quiz";
import type { ResultsLookup, StudentResults } from "@trainwise/contract/student-results";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { AnswerReview, reviewNote } from "../../components/quiz/answer-review.tsx";
import { DocumentDownload } from "../../components/quiz/document-download.tsx";
import { SectionScores } from "../../components/quiz/section-scores.tsx";
import { FormField, FormOutcome, SubmitButton } from "../../components/ui/form-field.tsx";
import { ApiError, call, downloadFile, messageOf } from "../../lib/api.ts";
import { formatInZone } from "../../lib/zoned-time.ts";

export const meta = () => [{ title: "Your results | Trainwise" }, { name: "robots", content: "noindex" }];

/** The drive's time zone, in which the result's times are written (as the drive's admins read them). */
const timeZoneOf = (result: QuizResult) => (result.status === "pending" ? result.timeZone : result.review.timeZone);

function ResultCard({
  result,
  submittedAt,
  lookup,
}: {
  result: QuizResult;
  submittedAt: string;
  lookup: ResultsLookup;
}) {
  const headingId = `result-${result.resultId}`;
  return (
    <section aria-labelledby={headingId} className="rounded border border-slate-200 px-4 py-4">
      <h2 id={headingId} className="text-xl font-bold text-brand-900">
        {result.testName}
      </h2>
      <p className="text-slate-700">
        {result.driveName}
        {result.organisation ? ` (${result.organisation})` : ""}, submitted on{" "}
        {formatInZone(submittedAt, timeZoneOf(result))}
      </p>
      {result.status === "pending" ? (
        <p className="mt-3 text-lg font-semibold">
          Submitted — results on{" "}
          {result.releasesAt ? formatInZone(result.releasesAt, result.timeZone) : "the day the drive closes"}
        </p>
      ) : (
        <>
          <p className="mt-3 text-lg font-semibold">Your Score: {result.percentage}%</p>
          <p className="text-slate-700">
            {result.score} of {result.totalQuestions} answers correct
            {result.marks !== result.score ? `; ${result.marks} marks after negative marking` : ""}.
          </p>
          {result.passed !== null && (
            <p className={`mt-1 font-semibold ${result.passed ? "text-green-800" : "text-red-800"}`}>
              {result.passed ? "Passed" : "Not passed"} ({passRule(result.passMark, result.sections)})
            </p>
          )}
          {result.sections.length > 0 && <SectionScores sections={result.sections} />}
          {result.certificate && (
            <DocumentDownload
              label="Download your certificate"
              look="primary"
              download={() =>
                downloadFile(
                  "studentResultCertificate",
                  { body: { ...lookup, resultId: result.resultId } },
                  "certificate.pdf",
                )
              }
              failure="The certificate could not be downloaded. Please try again."
            />
          )}
          <DocumentDownload
            label="Download your scorecard"
            look="secondary"
            download={() =>
              downloadFile(
                "studentResultScorecard",
                { body: { ...lookup, resultId: result.resultId } },
                "scorecard.pdf",
              )
            }
            failure="The scorecard could not be downloaded. Please try again."
          />
          {reviewNote(result.review) && <p className="mt-3 text-slate-700">{reviewNote(result.review)}</p>}
          {result.answers.length > 0 && (
            <details className="mt-3">
              <summary className="cursor-pointer font-semibold text-brand-700">Your answers</summary>
              <AnswerReview result={result} />
            </details>
          )}
        </>
      )}
    </section>
  );
}

export default function StudentResultsPage() {
  const [email, setEmail] = useState("");
  const [resumeCode, setResumeCode] = useState("");
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [found, setFound] = useState<{ lookup: ResultsLookup; results: StudentResults }>();
  const heading = useRef<HTMLHeadingElement>(null);

  async function lookUp(lookup: ResultsLookup) {
    setFailure(undefined);
    setFieldErrors({});
    setBusy(true);
    try {
      setFound({ lookup, results: await call("studentResults", { body: lookup }) });
    } catch (error) {
      if (error instanceof ApiError) setFieldErrors(error.fields);
      setFailure(messageOf(error, "Your results could not be read. Please try again."));
    } finally {
      setBusy(false);
    }
  }

  // A personal link opens the page with its token: the results come at once. Read after the page is drawn.
  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get("link");
    if (token) void lookUp({ linkToken: token });
  }, []);

  useEffect(() => {
    if (found) heading.current?.focus();
  }, [found]);

  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-brand-900">Your results</h1>
      {found ? (
        <div className="mt-4 space-y-4">
          <h2 ref={heading} tabIndex={-1} className="text-lg text-slate-700 focus:outline-none">
            {found.results.results.length === 0
              ? `${found.results.studentName}, you have no submitted tests yet.`
              : `${found.results.studentName}, your results:`}
          </h2>
          {found.results.results.map(({ result, submittedAt }) => (
            <ResultCard key={result.resultId} result={result} submittedAt={submittedAt} lookup={found.lookup} />
          ))}
          <button type="button" onClick={() => setFound(undefined)} className="font-semibold text-brand-700 underline">
            Look up other results
          </button>
        </div>
      ) : (
        <>
          <p className="mt-4 text-slate-700">
            Enter the email you registered with and the resume code you were given at registration. Your personal link,
            if your placement officer sent you one, opens your results too.
          </p>
          <form
            noValidate
            className="mt-6 grid gap-4 sm:grid-cols-2"
            onSubmit={(event) => {
              event.preventDefault();
              const missing: Record<string, string> = {};
              if (!email.trim()) missing.email = "Email is required";
              if (!resumeCode.trim()) missing.resumeCode = "Resume code is required";
              if (Object.keys(missing).length > 0) {
                setFieldErrors(missing);
                return;
              }
              void lookUp({ email: email.trim(), resumeCode: resumeCode.trim() });
            }}
          >
            <FormField
              label="Email"
              type="email"
              autoComplete="email"
              value={email}
              error={fieldErrors.email}
              onChange={(event) => setEmail(event.target.value)}
            />
            <FormField
              label="Resume code"
              autoComplete="off"
              autoCapitalize="characters"
              placeholder="e.g. K7QM-29XD"
              value={resumeCode}
              error={fieldErrors.resumeCode}
              onChange={(event) => setResumeCode(event.target.value)}
            />
            <div className="space-y-4 sm:col-span-2">
              {failure && <FormOutcome tone="error">{failure}</FormOutcome>}
              <SubmitButton busy={busy}>{busy ? "Looking…" : "Show my results"}</SubmitButton>
            </div>
          </form>
          <p className="mt-6 text-slate-700">
            No resume code? Ask the invigilator of your drive for a new one.{" "}
            <Link to="/student/register" className="font-semibold text-brand-700 underline">
              Register for a test
            </Link>
          </p>
        </>
      )}
    </div>
  );
}
