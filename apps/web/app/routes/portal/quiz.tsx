import { STORAGE_KEYS } from "@trainwise/contract/constants";
import type { AttemptProgress, AttemptState, QuizQuestion } from "@trainwise/contract/quiz";
import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { Alert } from "../../components/form-field.tsx";
import { requireStudentToken } from "../../guards.ts";
import { ApiError, api, messageOf, withRetry } from "../../lib/api.ts";
import { RESUME_CODE_KEY } from "../../lib/resume-code.ts";

export function clientLoader() {
  return { token: requireStudentToken() };
}

export const meta = () => [{ title: "Quiz | Trainwise" }, { name: "robots", content: "noindex" }];

const LETTERS = "ABCDEFGHIJ";
/** Seconds left at which screen readers hear a warning; the visible countdown is not announced every second. */
const WARN_AT_SECONDS = 10;
/**
 * How long a pick waits before it is saved on its own. Next, Submit and the timer carry the answer anyway, so a
 * pick followed by Next within this time costs one request, not two; a pick the student sits on is saved, and
 * one still waiting when the page goes away is sent as it goes.
 */
const SAVE_AFTER_MS = 1500;

type SaveStatus = "idle" | "retrying" | "failed";
type Screen = { kind: "loading" } | { kind: "error"; message: string; retry: boolean } | { kind: "running" };

/**
 * The attempt as the page holds it. A paced attempt (per-question windows) learns each question from the server
 * when its window opens; an attempt timed as a whole has them all and one clock.
 */
interface Attempt {
  paced: boolean;
  total: number;
  secondsPerQuestion: number;
  /** Questions known so far, by position. */
  questions: (QuizQuestion | undefined)[];
}

function formatWholeQuizTime(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The resume code from registration, shown until the student says they have noted it. */
function ResumeCodeNote() {
  const [code, setCode] = useState<string | null>(null);
  useEffect(() => setCode(sessionStorage.getItem(RESUME_CODE_KEY)), []);
  if (!code) return null;
  return (
    <section aria-label="Your resume code" className="mb-6 rounded border border-brand-100 bg-brand-50 px-4 py-3">
      <p>
        Your resume code is <strong className="font-mono text-lg tracking-wider">{code}</strong>. Write it down: you
        need it to continue on another device.
      </p>
      <button
        type="button"
        className="mt-2 text-brand-700 underline"
        onClick={() => {
          sessionStorage.removeItem(RESUME_CODE_KEY);
          setCode(null);
        }}
      >
        I have noted it
      </button>
    </section>
  );
}

export default function Quiz({ loaderData }: { loaderData: { token: string } }) {
  const { token } = loaderData;
  const navigate = useNavigate();
  const [screen, setScreen] = useState<Screen>({ kind: "loading" });
  const [attempt, setAttempt] = useState<Attempt>({ paced: true, total: 0, secondsPerQuestion: 30, questions: [] });
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  // The end of the open window (or of the whole quiz) as a time, not a count of ticks: throttled timers in a
  // background tab cannot stretch it.
  const [deadline, setDeadline] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const secondsLeft = Math.max(0, Math.ceil((deadline - now) / 1000));
  const [saveStatus, setSaveStatus] = useState<SaveStatus>("idle");
  const [announcement, setAnnouncement] = useState("");
  const [moving, setMoving] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [focusWarning, setFocusWarning] = useState(false);
  // Next (or Submit) pressed on a per-question test with no answer picked: asked once, since there is no way back.
  const [confirmingSkip, setConfirmingSkip] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Saves are sent one after another, so the server sees an answer before the Next that follows it.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  // Picks not sent yet, by question: each waits SAVE_AFTER_MS unless Next or Submit carries it first.
  const waitingSaves = useRef(new Map<string, { optionId: string; timer: ReturnType<typeof setTimeout> }>());

  const send = useCallback(<T,>(call: () => Promise<T>) => {
    const next = queue.current.then(() =>
      withRetry(call, () => setSaveStatus("retrying")).then(
        (value) => {
          setSaveStatus("idle");
          return value;
        },
        (error: unknown) => {
          setSaveStatus(error instanceof ApiError && error.status === 409 ? "idle" : "failed");
          throw error;
        },
      ),
    );
    queue.current = next.catch(() => undefined);
    return next;
  }, []);

  const finish = useCallback(
    (resultId: string) => {
      localStorage.setItem(STORAGE_KEYS.quizSubmitted, "true");
      navigate(`/result/${resultId}`);
    },
    [navigate],
  );

  const showState = useCallback(
    (state: AttemptState) => {
      if (state.status === "submitted") return finish(state.resultId);
      const questions: (QuizQuestion | undefined)[] = state.paced
        ? Array.from({ length: state.totalQuestions }, (_, position) =>
            position === state.currentIndex ? (state.question ?? undefined) : undefined,
          )
        : state.questions;
      setAttempt({
        paced: state.paced,
        total: state.totalQuestions,
        secondsPerQuestion: state.secondsPerQuestion,
        questions,
      });
      setIndex(state.paced ? state.currentIndex : 0);
      setDeadline(Date.now() + state.secondsLeft * 1000);
      setNow(Date.now());
      setAnswers(Object.fromEntries(state.answers.map((answer) => [answer.questionId, answer.optionId])));
      setScreen({ kind: "running" });
    },
    [finish],
  );

  const load = useCallback(async () => {
    setScreen({ kind: "loading" });
    try {
      showState(await api<AttemptState>("/quiz/start", { method: "POST", token }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        localStorage.removeItem(STORAGE_KEYS.studentToken);
        navigate("/student/register", { replace: true });
        return;
      }
      const final = error instanceof ApiError && (error.status === 409 || error.status === 403);
      setScreen({ kind: "error", message: messageOf(error, "Could not load the quiz."), retry: !final });
    }
  }, [token, showState, navigate]);

  useEffect(() => {
    void load();
  }, [load]);

  const submit = useCallback(async () => {
    if (submitting) return;
    setSubmitting(true);
    // The body carries every answer.
    for (const { timer } of waitingSaves.current.values()) clearTimeout(timer);
    waitingSaves.current.clear();
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

  /** Paced: asks the server to open the next question (saving a failed answer on the way) and shows it. */
  const advance = useCallback(async () => {
    if (moving || submitting) return;
    if (index >= attempt.total - 1) {
      void submit();
      return;
    }
    // Next carries the answer to the question it leaves, so the pick needs no request of its own.
    const leaving = attempt.questions[index];
    const optionId = leaving ? answers[leaving._id] : undefined;
    const answer = leaving && optionId ? { questionId: leaving._id, optionId } : undefined;
    if (leaving) {
      clearTimeout(waitingSaves.current.get(leaving._id)?.timer);
      waitingSaves.current.delete(leaving._id);
    }
    setMoving(true);
    try {
      const progress = await send(() =>
        api<AttemptProgress>("/quiz/next", { method: "POST", token, body: { position: index + 1, answer } }),
      );
      const question = progress.question ?? undefined;
      setAttempt((current) => ({
        ...current,
        questions: current.questions.map((known, position) => (position === progress.currentIndex ? question : known)),
      }));
      setIndex(progress.currentIndex);
      setDeadline(Date.now() + progress.secondsLeft * 1000);
      setNow(Date.now());
    } catch (error) {
      // The attempt moved on or closed without us (time up elsewhere): the server's state says where it stands.
      if (error instanceof ApiError && error.status === 409) await load();
    } finally {
      setMoving(false);
    }
  }, [answers, attempt, index, load, moving, send, submit, submitting, token]);

  // The countdown reads the clock four times a second; at zero it does what Next (or Submit) does.
  useEffect(() => {
    if (screen.kind !== "running" || submitting) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [screen.kind, submitting]);

  useEffect(() => {
    if (screen.kind !== "running" || submitting || moving || secondsLeft > 0) return;
    if (attempt.paced) void advance();
    else void submit();
  }, [screen.kind, secondsLeft, submitting, moving, attempt.paced, advance, submit]);

  useEffect(() => {
    if (secondsLeft === WARN_AT_SECONDS) {
      setAnnouncement(`${WARN_AT_SECONDS} seconds left${attempt.paced ? " for this question" : ""}.`);
    }
  }, [secondsLeft, attempt.paced]);

  useEffect(() => {
    if (screen.kind !== "running") return;
    setAnnouncement(
      attempt.paced
        ? `Question ${index + 1} of ${attempt.total}. You have ${attempt.secondsPerQuestion} seconds.`
        : `Question ${index + 1} of ${attempt.total}.`,
    );
    headingRef.current?.focus();
    setConfirmingSkip(false);
  }, [index, screen.kind, attempt.total, attempt.paced, attempt.secondsPerQuestion]);

  useEffect(() => {
    if (confirmingSkip) confirmRef.current?.focus();
  }, [confirmingSkip]);

  const saveAnswer = useCallback(
    (questionId: string, optionId: string) => {
      // A save that fails shows why; the Next that leaves the question, or Submit, sends the answer again.
      send(() => api("/quiz/answers", { method: "PUT", token, body: { questionId, optionId } })).catch(() => undefined);
    },
    [send, token],
  );

  // Picks still waiting are sent when the page is hidden, and as it unloads (a refresh, a closed tab): a
  // keep-alive request outlives the page.
  useEffect(() => {
    const flush = (unloading: boolean) => {
      for (const [questionId, { optionId, timer }] of waitingSaves.current) {
        clearTimeout(timer);
        if (!unloading) saveAnswer(questionId, optionId);
        else {
          void fetch("/api/quiz/answers", {
            method: "PUT",
            keepalive: true,
            headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
            body: JSON.stringify({ questionId, optionId }),
          }).catch(() => undefined);
        }
      }
      waitingSaves.current.clear();
    };
    const onHidden = () => document.visibilityState === "hidden" && flush(false);
    const onPageHide = () => flush(true);
    document.addEventListener("visibilitychange", onHidden);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      document.removeEventListener("visibilitychange", onHidden);
      window.removeEventListener("pagehide", onPageHide);
    };
  }, [saveAnswer, token]);

  // Leaving the quiz (another tab or window) is recorded for the invigilator; the student is told once.
  useEffect(() => {
    if (screen.kind !== "running") return;
    const record = () => {
      if (document.visibilityState === "hidden" || !document.hasFocus()) {
        void api("/quiz/focus", { method: "POST", token, body: { position: index } }).catch(() => undefined);
        setFocusWarning(true);
      }
    };
    document.addEventListener("visibilitychange", record);
    window.addEventListener("blur", record);
    return () => {
      document.removeEventListener("visibilitychange", record);
      window.removeEventListener("blur", record);
    };
  }, [screen.kind, index, token]);

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

  const question = attempt.questions[index];
  if (!question) return null;
  const isLast = index === attempt.total - 1;
  const choose = (optionId: string) => {
    const questionId = question._id;
    setAnswers((previous) => ({ ...previous, [questionId]: optionId }));
    clearTimeout(waitingSaves.current.get(questionId)?.timer);
    const timer = setTimeout(() => {
      waitingSaves.current.delete(questionId);
      saveAnswer(questionId, optionId);
    }, SAVE_AFTER_MS);
    waitingSaves.current.set(questionId, { optionId, timer });
  };

  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="sr-only">Quiz</h1>
      <ResumeCodeNote />
      {/* Stays in view while the question scrolls: where the student is and how long is left. */}
      <div className="sticky top-0 z-10 -mx-4 border-b border-slate-200 bg-white px-4 py-3">
        <div className="flex flex-wrap items-center justify-between gap-2 text-lg">
          <p className="font-semibold">
            Question {index + 1} of {attempt.total}
          </p>
          <p
            role="timer"
            className={`text-xl ${secondsLeft <= WARN_AT_SECONDS ? "font-bold text-red-700" : "font-semibold"}`}
          >
            {attempt.paced
              ? `Time Left: ${secondsLeft} seconds`
              : `Time Left: ${formatWholeQuizTime(secondsLeft)} for the whole quiz`}
          </p>
        </div>
        <div
          role="progressbar"
          aria-label="Progress through the quiz"
          aria-valuemin={1}
          aria-valuemax={attempt.total}
          aria-valuenow={index + 1}
          aria-valuetext={`Question ${index + 1} of ${attempt.total}`}
          className="mt-2 h-2 overflow-hidden rounded bg-slate-200"
        >
          <div className="h-full bg-brand-700" style={{ width: `${((index + 1) / attempt.total) * 100}%` }} />
        </div>
      </div>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {focusWarning && (
        <div className="mt-4">
          <Alert tone="info">
            You left the quiz window. That is noted for your invigilator; stay on this page until you submit.
          </Alert>
        </div>
      )}
      <form
        className="mt-6"
        onSubmit={(event) => {
          event.preventDefault();
          if (attempt.paced && !answers[question._id]) setConfirmingSkip(true);
          else if (attempt.paced) void advance();
          else if (isLast) void submit();
          else setIndex(index + 1);
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
                : "Your answer could not be saved. Check your connection; it will be sent again when you move on or submit."}
            </Alert>
          </div>
        )}
        {confirmingSkip && !answers[question._id] ? (
          <div
            role="alertdialog"
            aria-labelledby="skip-title"
            className="mt-6 rounded border border-amber-400 bg-amber-50 p-4"
          >
            <p id="skip-title" className="font-semibold text-amber-950">
              You have not answered this question. You cannot come back to it once you move on.
            </p>
            <div className="mt-3 flex flex-wrap gap-3">
              <button
                ref={confirmRef}
                type="button"
                onClick={() => setConfirmingSkip(false)}
                className="rounded bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-900"
              >
                Stay on this question
              </button>
              <button
                type="button"
                disabled={submitting || moving}
                onClick={() => void advance()}
                className="rounded border border-brand-700 px-6 py-3 font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60"
              >
                {isLast ? "Submit without an answer" : "Move on without an answer"}
              </button>
            </div>
          </div>
        ) : (
          <div className="mt-6 flex flex-wrap gap-3">
            {!attempt.paced && index > 0 && (
              <button
                type="button"
                onClick={() => setIndex(index - 1)}
                className="rounded border border-brand-700 px-8 py-3 font-semibold text-brand-700 hover:bg-brand-50"
              >
                Previous
              </button>
            )}
            <button
              type="submit"
              disabled={submitting || moving}
              className="rounded bg-brand-700 px-8 py-3 font-semibold text-white hover:bg-brand-900 disabled:opacity-60"
            >
              {isLast ? (submitting ? "Submitting…" : "Submit") : "Next"}
            </button>
          </div>
        )}
      </form>
    </div>
  );
}
