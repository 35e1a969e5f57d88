// The quiz page (/quiz): the rules first when the test asks for them, then the open question with its clock, the
// palette of a test timed as a whole (or of a section on its own clock), and the checks before Submit and before
// leaving a section. What it does lives in use-quiz-attempt.ts.

import { DRIVE_PAUSED_MESSAGE } from "@trainwise/contract/notices";
import { type KeyboardEvent, type ReactNode, type Ref, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { AnswerOptions } from "../../components/quiz/answer-options.tsx";
import { CompletedScreen, IntroScreen } from "../../components/quiz/quiz-intro.tsx";
import { Alert } from "../../components/ui/form-field.tsx";
import { RichText } from "../../components/ui/rich-text.tsx";
import { requireStudentToken } from "../../guards.ts";
import { RESUME_CODE_KEY } from "../../lib/resume-code.ts";
import { PaletteSummary, QuestionPalette } from "./question-palette.tsx";
import {
  focusLossWarning,
  markedNumbers,
  type QuizState,
  saveNotice,
  secondsLeft,
  sectionAt,
  sectionFollows,
  timedPerSection,
  unansweredNumbers,
  WARN_AT_SECONDS,
} from "./quiz-machine.ts";
import { requestFullScreen, useExamRoom } from "./use-exam-room.ts";
import { useQuizAttempt } from "./use-quiz-attempt.ts";

export function clientLoader() {
  return { token: requireStudentToken() };
}

export const meta = () => [{ title: "Quiz | Trainwise" }, { name: "robots", content: "noindex" }];

function formatWholeQuizTime(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * What the clock line says. A test timed per section names the open section; the other tests keep their words,
 * which journeys and students already know.
 */
function clockText(state: QuizState, left: number): string {
  const section = timedPerSection(state) ? sectionAt(state, state.index) : undefined;
  if (section) {
    return state.paced
      ? `Time left in ${section.name}: ${left} ${left === 1 ? "second" : "seconds"} for this question`
      : `Time left in ${section.name}: ${formatWholeQuizTime(left)}`;
  }
  return state.paced ? `Time Left: ${left} seconds` : `Time Left: ${formatWholeQuizTime(left)} for the whole quiz`;
}

/** The questions still to look at, in words: the first part of the check before Submit or leaving a section. */
function stillToLookAt(unanswered: number[], marked: number[]): string {
  const notAnswered =
    unanswered.length === 0
      ? ""
      : unanswered.length === 1
        ? `You have not answered question ${unanswered[0]}. `
        : `You have not answered ${unanswered.length} questions: ${unanswered.join(", ")}. `;
  const forReview =
    marked.length === 0
      ? ""
      : marked.length === 1
        ? `You marked question ${marked[0]} for review. `
        : `You marked ${marked.length} questions for review: ${marked.join(", ")}. `;
  return notAnswered + forReview;
}

/** Escape closes a check (as its staying button does) and leaves the focus on the question. */
function closesOnEscape(close: () => void) {
  return (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation();
    close();
  };
}

/**
 * A check before a step that cannot be undone (leaving a section, submitting, moving on without an answer): what
 * the step leaves behind, a button to stay (focused first, as Escape does) and one to go on.
 */
function CheckBeforeGoing(props: {
  id: string;
  title: string;
  summary?: ReactNode;
  panelRef?: Ref<HTMLDivElement>;
  stayRef: Ref<HTMLButtonElement>;
  stay: { label: string; onClick: () => void };
  go: { label: string; onClick: () => void; busy: boolean };
  /** What Escape does, when it is not what the staying button does. */
  onEscape?: () => void;
}) {
  const { id, title, summary, panelRef, stayRef, stay, go } = props;
  return (
    <div
      ref={panelRef}
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={summary ? `${id}-summary` : undefined}
      onKeyDown={closesOnEscape(props.onEscape ?? stay.onClick)}
      className="mt-6 scroll-mt-40 rounded border border-amber-400 bg-amber-50 p-4"
    >
      <p id={`${id}-title`} className="font-semibold text-amber-950">
        {title}
      </p>
      {summary && <div id={`${id}-summary`}>{summary}</div>}
      <div className="mt-3 flex flex-wrap gap-3">
        <button
          ref={stayRef}
          type="button"
          onClick={stay.onClick}
          className="rounded bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-900"
        >
          {stay.label}
        </button>
        <button
          type="button"
          disabled={go.busy}
          onClick={go.onClick}
          className="rounded border border-brand-700 px-6 py-3 font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60"
        >
          {go.label}
        </button>
      </div>
    </div>
  );
}

/** The resume code from registration, shown until the student says they have noted it. */
function ResumeCodeNote({ code, onNoted }: { code: string | null; onNoted: () => void }) {
  if (!code) return null;
  return (
    <section aria-label="Your resume code" className="mb-6 rounded border border-brand-100 bg-brand-50 px-4 py-3">
      <p>
        Your resume code is <strong className="font-mono text-lg tracking-wider">{code}</strong>. Write it down: you
        need it to continue on another device.
      </p>
      <button
        type="button"
        className="mt-2 min-h-11 text-brand-700 underline"
        onClick={() => {
          sessionStorage.removeItem(RESUME_CODE_KEY);
          onNoted();
        }}
      >
        I have noted it
      </button>
    </section>
  );
}

export default function Quiz({ loaderData }: { loaderData: { token: string } }) {
  const { state, dispatch, open, load, pick, goOn, seeResult, toggleMark, clearResponse, askToLeave, leaveSection } =
    useQuizAttempt(loaderData.token);
  // The resume code from registration: on the rules screen when the test shows one, else above the first question.
  const [resumeCode, setResumeCode] = useState<string | null>(null);
  useEffect(() => setResumeCode(sessionStorage.getItem(RESUME_CODE_KEY)), []);
  const examRoom = useExamRoom(state.intro, state.phase === "running", loaderData.token);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);

  // Each new question takes focus, so a screen reader starts reading it and the keyboard starts at its options; a
  // pause puts the question away and its words take the focus, until the question comes back with it.
  const pausedRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (state.phase !== "running") return;
    if (state.paused) pausedRef.current?.focus();
    else headingRef.current?.focus();
  }, [state.index, state.phase, state.paused]);
  const asking = state.confirmingSkip || state.confirmingLeave;
  useEffect(() => {
    if (!asking) return;
    confirmRef.current?.focus();
    // Its words first, not only its button: on a phone the dialog's top opened under the sticky clock.
    summaryRef.current?.scrollIntoView?.({ block: "start" });
  }, [asking]);
  // An action that removes the focused control (the resume code's note, Clear response, which then has nothing to
  // clear) leaves the focus on the question, not on the page.
  const backToQuestion = () => headingRef.current?.focus();
  // Closing a check (its staying button, or Escape) removes the focused control: the focus goes to the question.
  const stopAsking = () => {
    dispatch({ type: "skipCancelled" });
    backToQuestion();
  };
  const stayInSection = () => {
    dispatch({ type: "leaveCancelled" });
    backToQuestion();
  };

  if (state.phase === "loading") {
    return (
      <p className="p-8 text-center" role="status">
        Loading...
      </p>
    );
  }
  if (state.phase === "intro" && state.intro) {
    return (
      <IntroScreen
        intro={state.intro}
        resumeCode={resumeCode}
        onStart={() => {
          // Start is the student's gesture, which a browser asks before it goes to full screen.
          if (state.intro?.fullScreen) requestFullScreen();
          // Shown here, before the clock: not again above a timed question.
          sessionStorage.removeItem(RESUME_CODE_KEY);
          setResumeCode(null);
          void load();
        }}
      />
    );
  }
  if (state.phase === "completed" && state.intro) {
    return <CompletedScreen intro={state.intro} onSeeResult={seeResult} />;
  }
  if (state.phase === "unavailable" && state.unavailable) {
    return (
      <div className="mx-auto max-w-2xl space-y-4 px-4 py-12">
        <h1 className="text-2xl font-bold">Quiz</h1>
        <Alert tone={state.unavailable.paused ? "info" : "error"}>{state.unavailable.message}</Alert>
        {state.unavailable.retry ? (
          <button type="button" onClick={() => void open()} className="rounded bg-brand-700 px-4 py-2 text-white">
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

  const question = state.questions[state.index];
  if (!question) return null;
  const left = secondsLeft(state);
  const isLast = state.index === state.total - 1;
  const section = sectionAt(state, state.index);
  // A test timed per section: a section follows the open one, which ends by leaving it (or its time running out).
  const leavable = sectionFollows(state);
  const endsSection = leavable && state.index === state.sectionEnd - 1;
  const unanswered = unansweredNumbers(state);
  const marked = markedNumbers(state);
  const toLookAt = unanswered[0] ?? marked[0] ?? 1;
  const busy = state.moving || state.phase !== "running";
  const notice = saveNotice(state);

  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="sr-only">Quiz</h1>
      <ResumeCodeNote
        code={resumeCode}
        onNoted={() => {
          setResumeCode(null);
          backToQuestion();
        }}
      />
      {/* Stays in view while the question scrolls: where the student is and how long is left. */}
      <div className="sticky top-0 z-10 -mx-4 border-b border-slate-200 bg-white px-4 py-3">
        <div className="flex flex-wrap items-center justify-between gap-2 text-lg">
          <div>
            {section && (
              <p className="text-base text-slate-700">
                Section {section.number} of {section.of}: <span className="font-semibold">{section.name}</span>
              </p>
            )}
            <p className="font-semibold">
              Question {state.index + 1} of {state.total}
            </p>
          </div>
          <p role="timer" className={`text-xl ${left <= WARN_AT_SECONDS ? "font-bold text-red-700" : "font-semibold"}`}>
            {clockText(state, left)}
            {state.paused && " (paused)"}
          </p>
        </div>
        <div
          role="progressbar"
          aria-label="Progress through the quiz"
          aria-valuemin={1}
          aria-valuemax={state.total}
          aria-valuenow={state.index + 1}
          aria-valuetext={`Question ${state.index + 1} of ${state.total}`}
          className="mt-2 h-2 overflow-hidden rounded bg-slate-200"
        >
          <div className="h-full bg-brand-700" style={{ width: `${((state.index + 1) / state.total) * 100}%` }} />
        </div>
      </div>
      <p aria-live="polite" className="sr-only">
        {state.announcement}
      </p>
      {state.sectionNotice && (
        <div className="mt-4">
          <Alert tone="info">{state.sectionNotice}</Alert>
        </div>
      )}
      {state.messages.length > 0 && (
        <section
          aria-labelledby="invigilator-messages"
          className="mt-4 rounded border-l-4 border-amber-700 bg-amber-50 p-3"
        >
          <h2 id="invigilator-messages" className="font-semibold">
            {state.messages.length === 1 ? "Message from the invigilator" : "Messages from the invigilator"}
          </h2>
          <ul className="mt-1 space-y-1">
            {state.messages.map((message) => (
              <li key={message._id}>
                {message.text}{" "}
                <span className="text-sm text-slate-700">
                  ({new Date(message.sentAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })})
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {examRoom.asksFullScreen && !examRoom.inFullScreen && (
        <div className="mt-4 space-y-2">
          <Alert tone="info">
            This drive asks you to take the test in full screen.
            {examRoom.exits > 0 &&
              ` You have left full screen ${examRoom.exits === 1 ? "1 time" : `${examRoom.exits} times`}; each is noted for your invigilator.`}
          </Alert>
          <button
            type="button"
            onClick={examRoom.enterFullScreen}
            className="min-h-11 rounded bg-brand-700 px-4 py-2 text-white"
          >
            Enter full screen
          </button>
        </div>
      )}
      {state.leftWindow && (
        <div className="mt-4">
          <Alert tone="info">
            {(state.focusLosses && focusLossWarning(state.focusLosses)) ??
              "You left the quiz window. That is noted for your invigilator; stay on this page until you submit."}
          </Alert>
        </div>
      )}
      {state.paused ? (
        <section aria-labelledby="quiz-paused" className="mt-6 rounded border-l-4 border-sky-700 bg-sky-50 p-4">
          <h2 id="quiz-paused" ref={pausedRef} tabIndex={-1} className="text-xl font-bold focus:outline-none">
            Test paused
          </h2>
          <p className="mt-2">{DRIVE_PAUSED_MESSAGE}</p>
          <p className="mt-2 text-slate-700">Stay on this page: your question comes back here by itself.</p>
        </section>
      ) : (
        questionAndPalette()
      )}
    </div>
  );

  // A function called in place, not a component: the form keeps its elements (and the focus) from one render to the next.
  function questionAndPalette() {
    if (!question) return null;
    return (
      <>
        <form
          className="mt-6"
          onSubmit={(event) => {
            event.preventDefault();
            goOn();
          }}
        >
          <AnswerOptions
            question={question}
            legend={
              <h2 ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-brand-900 focus:outline-none">
                <RichText html={question.html} />
              </h2>
            }
            choice={state.answers[question._id]}
            onChoose={(choice) => pick(question._id, choice)}
            disabled={state.leaving}
          />
          {notice && (
            <div className="mt-4">
              <Alert tone={notice.tone}>{notice.text}</Alert>
            </div>
          )}
          {state.problem && (
            <div className="mt-4">
              <Alert tone="error">{state.problem}</Alert>
            </div>
          )}
          {state.confirmingLeave && !state.paced && leavable ? (
            <CheckBeforeGoing
              id="leave"
              panelRef={summaryRef}
              stayRef={confirmRef}
              title={`Leave ${section?.name ?? "this section"}? ${stillToLookAt(unanswered, marked)}You cannot come back to this section.`}
              summary={<PaletteSummary state={state} />}
              stay={{ label: "Stay in this section", onClick: stayInSection }}
              go={{ label: "Leave section", onClick: () => void leaveSection(), busy }}
            />
          ) : state.confirmingSkip && !state.paced && (unanswered.length > 0 || marked.length > 0) ? (
            <CheckBeforeGoing
              id="skip"
              panelRef={summaryRef}
              stayRef={confirmRef}
              title={`${stillToLookAt(unanswered, marked)}Once you submit, you cannot change your answers.`}
              summary={<PaletteSummary state={state} />}
              stay={{
                label: `Go to question ${toLookAt}`,
                onClick: () => dispatch({ type: "wentTo", index: toLookAt - 1 }),
              }}
              go={{
                label:
                  unanswered.length === 0
                    ? "Submit now"
                    : `Submit without ${unanswered.length === 1 ? "that answer" : "those answers"}`,
                onClick: goOn,
                busy,
              }}
              onEscape={stopAsking}
            />
          ) : state.confirmingSkip && state.paced && !state.answers[question._id] ? (
            <CheckBeforeGoing
              id="skip"
              stayRef={confirmRef}
              title="You have not answered this question. You cannot come back to it once you move on."
              stay={{ label: "Stay on this question", onClick: stopAsking }}
              go={{ label: isLast ? "Submit without an answer" : "Move on without an answer", onClick: goOn, busy }}
            />
          ) : (
            <div className="mt-6 flex flex-wrap gap-3">
              {!state.paced && state.index > state.sectionFirst && (
                <button
                  type="button"
                  onClick={() => dispatch({ type: "wentTo", index: state.index - 1 })}
                  className="rounded border border-brand-700 px-8 py-3 font-semibold text-brand-700 hover:bg-brand-50"
                >
                  Previous
                </button>
              )}
              <button
                type="submit"
                disabled={busy}
                className="rounded bg-brand-700 px-8 py-3 font-semibold text-white hover:bg-brand-900 disabled:opacity-60"
              >
                {isLast
                  ? state.phase === "submitting"
                    ? "Submitting…"
                    : "Submit"
                  : endsSection
                    ? state.paced
                      ? "Next section"
                      : "Leave section"
                    : "Next"}
              </button>
              {leavable && !state.paced && !endsSection && (
                <button
                  type="button"
                  disabled={busy}
                  onClick={askToLeave}
                  className="rounded border border-brand-700 px-8 py-3 font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60"
                >
                  Leave section
                </button>
              )}
              {!state.paced && (
                <>
                  <button
                    type="button"
                    aria-pressed={Boolean(state.marked[question._id])}
                    disabled={state.leaving}
                    onClick={toggleMark}
                    className="rounded border-2 border-purple-800 px-4 py-3 font-semibold text-purple-900 hover:bg-purple-50 aria-pressed:bg-purple-800 aria-pressed:text-white disabled:opacity-60"
                  >
                    {/* Pressed shows filled, with the palette's flag: the name stays, as a toggle's does. */}
                    {state.marked[question._id] && <span aria-hidden="true">⚑ </span>}
                    Mark for review
                  </button>
                  <button
                    type="button"
                    disabled={state.leaving || !state.answers[question._id]}
                    onClick={() => {
                      clearResponse();
                      backToQuestion();
                    }}
                    className="rounded border border-slate-500 px-4 py-3 font-semibold text-slate-800 hover:bg-slate-50 disabled:opacity-60"
                  >
                    Clear response
                  </button>
                </>
              )}
            </div>
          )}
        </form>
        {!state.paced && <QuestionPalette state={state} onGo={(index) => dispatch({ type: "wentTo", index })} />}
      </>
    );
  }
}
