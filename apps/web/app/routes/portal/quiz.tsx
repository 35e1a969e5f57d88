import { STORAGE_KEYS } from "@trainwise/contract/constants";
import type { AttemptState, QuizQuestion } from "@trainwise/contract/quiz";
import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { Alert } from "../../components/form-field.tsx";
import { requireStudentToken } from "../../guards.ts";
import { ApiError, api, messageOf } from "../../lib/api.ts";

export function clientLoader() {
  return { token: requireStudentToken() };
}

export const meta = () => [{ title: "Quiz | Trainwise" }, { name: "robots", content: "noindex" }];

const LETTERS = "ABCDEFGHIJ";
/** Seconds left at which screen readers hear a warning; the visible countdown is not announced every second. */
const WARN_AT_SECONDS = 10;

type SaveStatus = "idle" | "retrying" | "failed";
type Screen = { kind: "loading" } | { kind: "error"; message: string; retry: boolean } | { kind: "running" };

/** Retries a call while the network or server fails; refusals (4xx) are final. */
async function withRetry<T>(call: () => Promise<T>, onRetry: () => void): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const transient = error instanceof ApiError && (error.status === 0 || error.status >= 500);
      if (!transient || attempt >= 6) throw error;
      onRetry();
      await new Promise((resolve) => setTimeout(resolve, Math.min(500 * 2 ** attempt, 4000)));
    }
  }
}

export default function Quiz({ loaderData }: { loaderData: { token: string } }) {
  const { token } = loaderData;
  const navigate = useNavigate();
  const [screen, setScreen] = useState<Screen>({ kind: "loading" });
  const [questions, setQuestions] = useState<QuizQuestion[]>([]);
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [secondsPerQuestion, setSecondsPerQuestion] = useState(30);
  // The question's end as a time, not a count of ticks: throttled timers in a background tab cannot stretch it.
  const [deadline, setDeadline] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const secondsLeft = Math.max(0, Math.ceil((deadline - now) / 1000));
  const [saveStatus, setSaveStatus] = useState<SaveStatus>("idle");
  const [announcement, setAnnouncement] = useState("");
  const [submitting, setSubmitting] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Saves and moves are sent one after another, so the server sees an answer before the Next that follows it.
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  const send = useCallback(<T,>(call: () => Promise<T>) => {
    const next = queue.current.then(() =>
      withRetry(call, () => setSaveStatus("retrying")).then(
        (value) => {
          setSaveStatus("idle");
          return value;
        },
        (error: unknown) => {
          setSaveStatus(error instanceof ApiError && error.status === 409 ? "idle" : "failed");
          return undefined;
        },
      ),
    );
    queue.current = next;
    return next;
  }, []);

  const finish = useCallback(
    (resultId: string) => {
      localStorage.setItem(STORAGE_KEYS.quizSubmitted, "true");
      navigate(`/result/${resultId}`);
    },
    [navigate],
  );

  const load = useCallback(async () => {
    setScreen({ kind: "loading" });
    try {
      const served = await api<QuizQuestion[]>("/quiz/questions?limit=25", { token });
      const state = await api<AttemptState>("/quiz/attempt", { token });
      if (state.status === "submitted") return finish(state.resultId);
      setQuestions(served);
      setIndex(state.currentIndex);
      setSecondsPerQuestion(state.secondsPerQuestion);
      setDeadline(Date.now() + state.secondsLeft * 1000);
      setNow(Date.now());
      setAnswers(Object.fromEntries(state.answers.map((answer) => [answer.questionId, answer.optionId])));
      setScreen({ kind: "running" });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        localStorage.removeItem(STORAGE_KEYS.studentToken);
        navigate("/student/register", { replace: true });
        return;
      }
      const final = error instanceof ApiError && error.status === 409;
      setScreen({ kind: "error", message: messageOf(error, "Could not load the quiz."), retry: !final });
    }
  }, [token, finish, navigate]);

  useEffect(() => {
    void load();
  }, [load]);

  const submit = useCallback(async () => {
    if (submitting) return;
    setSubmitting(true);
    await queue.current;
    try {
      const body = { answers: Object.entries(answers).map(([questionId, optionId]) => ({ questionId, optionId })) };
      const { resultId } = await withRetry(
        () => api<{ resultId: string }>("/quiz/submit", { method: "POST", token, body }),
        () => setSaveStatus("retrying"),
      );
      finish(resultId);
    } catch (error) {
      setSubmitting(false);
      setSaveStatus("failed");
      setAnnouncement(messageOf(error, "Submitting failed. Please try again."));
    }
  }, [answers, finish, submitting, token]);

  const advance = useCallback(() => {
    if (index >= questions.length - 1) {
      void submit();
      return;
    }
    const position = index + 1;
    setIndex(position);
    setDeadline(Date.now() + secondsPerQuestion * 1000);
    setNow(Date.now());
    void send(() => api("/quiz/next", { method: "POST", token, body: { position } }));
  }, [index, questions.length, secondsPerQuestion, send, submit, token]);

  // The countdown reads the clock four times a second; at zero it does what Next (or Submit) does.
  useEffect(() => {
    if (screen.kind !== "running" || submitting) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [screen.kind, submitting]);

  useEffect(() => {
    if (screen.kind === "running" && !submitting && secondsLeft <= 0) advance();
  }, [screen.kind, secondsLeft, submitting, advance]);

  useEffect(() => {
    if (secondsLeft === WARN_AT_SECONDS) setAnnouncement(`${WARN_AT_SECONDS} seconds left for this question.`);
  }, [secondsLeft]);

  useEffect(() => {
    if (screen.kind !== "running") return;
    setAnnouncement(`Question ${index + 1} of ${questions.length}. You have ${secondsPerQuestion} seconds.`);
    headingRef.current?.focus();
  }, [index, screen.kind, questions.length, secondsPerQuestion]);

  if (screen.kind === "loading") {
    return (
      <p className="p-8 text-center" role="status">
        Loading...
      </p>
    );
  }
  if (screen.kind === "error") {
    return (
      <div className="mx-auto max-w-2xl space-y-4 px-4 py-12">
        <h1 className="text-2xl font-bold">Quiz</h1>
        <Alert tone="error">{screen.message}</Alert>
        {screen.retry ? (
          <button type="button" onClick={() => void load()} className="rounded bg-brand-700 px-4 py-2 text-white">
            Try again
          </button>
        ) : (
          <Link to="/" className="text-brand-700 underline">
            Back to the home page
          </Link>
        )}
      </div>
    );
  }

  const question = questions[index];
  if (!question) return null;
  const isLast = index === questions.length - 1;
  const choose = (optionId: string) => {
    setAnswers((previous) => ({ ...previous, [question._id]: optionId }));
    void send(() => api("/quiz/answers", { method: "PUT", token, body: { questionId: question._id, optionId } }));
  };

  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="sr-only">Quiz</h1>
      <div className="flex flex-wrap items-center justify-between gap-2 text-lg">
        <p className="font-semibold">
          Question {index + 1} of {questions.length}
        </p>
        <p role="timer" className={secondsLeft <= WARN_AT_SECONDS ? "font-bold text-red-700" : "font-semibold"}>
          Time Left: {secondsLeft} seconds
        </p>
      </div>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <form
        className="mt-6"
        onSubmit={(event) => {
          event.preventDefault();
          advance();
        }}
      >
        <fieldset>
          <legend className="w-full">
            <h2 ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-brand-900 focus:outline-none">
              {question.text}
            </h2>
          </legend>
          <div className="mt-4 space-y-3">
            {question.options.map((option, optionIndex) => (
              <label
                key={option._id}
                className="flex cursor-pointer items-center gap-3 rounded border border-slate-300 px-4 py-3 hover:bg-brand-50 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name={`question-${question._id}`}
                  value={option._id}
                  checked={answers[question._id] === option._id}
                  onChange={() => choose(option._id)}
                  className="h-5 w-5 accent-brand-700"
                />
                <span>
                  {LETTERS[optionIndex]}. {option.text}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        {saveStatus !== "idle" && (
          <div className="mt-4">
            <Alert tone={saveStatus === "failed" ? "error" : "info"}>
              {saveStatus === "retrying"
                ? "Your answer has not reached the server yet. Retrying…"
                : "Your answer could not be saved. Check your connection; it will be sent again with your next step."}
            </Alert>
          </div>
        )}
        <button
          type="submit"
          disabled={submitting}
          className="mt-6 rounded bg-brand-700 px-8 py-3 font-semibold text-white hover:bg-brand-900 disabled:opacity-60"
        >
          {isLast ? (submitting ? "Submitting…" : "Submit") : "Next"}
        </button>
      </form>
    </div>
  );
}
