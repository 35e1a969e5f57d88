// The quiz page's state and every way it changes, as one pure reducer. The page's effects send the requests and
// report what happened as events; what the student sees follows from the state alone, so each rule (an answer
// the server has not acknowledged stays visible until it lands, a per-question test asks before skipping) lives
// here once and is tested without a browser.

import type { TimingMode } from "@trainwise/contract/drives";
import { DRIVE_PAUSED_MESSAGE, MESSAGES_REPLAYED, type Notice } from "@trainwise/contract/notices";
import type {
  Answer,
  AttemptProgress,
  AttemptSections,
  AttemptState,
  FocusLossNoted,
  QuizIntro,
  QuizQuestion,
} from "@trainwise/contract/quiz";
import { sectionAtPosition } from "@trainwise/contract/section-positions";

/** Seconds left at which screen readers hear a warning; the visible countdown is not announced every second. */
export const WARN_AT_SECONDS = 10;

/**
 * Where an answer the server has not acknowledged stands: picked and waiting to be sent on its own, on its way,
 * on its way again after the network failed, or given up on for now (sent again before Next or Submit, and when
 * the browser says it is back online).
 */
export type SaveState = "waiting" | "sending" | "retrying" | "failed";

export interface UnsavedAnswer {
  optionId: string;
  state: SaveState;
}

type InProgress = Extract<AttemptState, { status: "in_progress" }>;

export interface QuizState {
  /**
   * `intro`: the test's rules and a Start button, no clock running yet; `completed`: no attempt left, the latest
   * result to go to (decision 026).
   */
  phase: "loading" | "intro" | "completed" | "unavailable" | "running" | "submitting" | "submitted";
  /** What the student is about to sit (or has sat), as the server read it before any clock started. */
  intro: QuizIntro | null;
  /**
   * Why the quiz could not be loaded, and whether trying again may help; `paused`: the drive is paused (decision
   * 039), and the page tries again by itself.
   */
  unavailable: { message: string; retry: boolean; paused?: boolean } | null;
  /** The running attempt (null until one is loaded). */
  attemptId: string | null;
  /**
   * A paced attempt (per-question windows) learns each question from the server when its window opens. On a test
   * timed per section, whether the open section is.
   */
  paced: boolean;
  /** "per_section": each section keeps its own time, and a section left or run out is closed for good. */
  timingMode: TimingMode;
  total: number;
  secondsPerQuestion: number;
  /** The test's sections, each from its first position (empty: no sections). */
  sections: AttemptSections;
  /**
   * The positions open now, `sectionFirst` up to before `sectionEnd`: the open section's on a test timed per section,
   * every position on any other test.
   */
  sectionFirst: number;
  sectionEnd: number;
  /** Questions known so far, by position. */
  questions: (QuizQuestion | undefined)[];
  index: number;
  /**
   * The end of the open window (or of the whole quiz) as a time, not a count of ticks: throttled timers in a
   * background tab cannot stretch it.
   */
  deadline: number;
  now: number;
  /** Seconds invigilators had added to the attempt when the page last heard (decision 037). */
  addedSeconds: number;
  /** Seconds lost connections had got back when the page last heard (decision 040). */
  creditedSeconds: number;
  /** The student's pick for each question, as shown on screen. */
  answers: Record<string, string>;
  /** Picks the server has not acknowledged yet, by question. */
  unsaved: Record<string, UnsavedAnswer>;
  /** The palette (a quiz timed as a whole): the questions opened so far, by id. */
  visited: Record<string, true>;
  /** The questions marked for review, by id. */
  marked: Record<string, true>;
  /** A Next on its way to the server. */
  moving: boolean;
  /** Leaving the open section: its answers and the request to close it are on their way (answers are held still). */
  leaving: boolean;
  /** What happened to the section just closed when its time ran out, shown until the student acts. */
  sectionNotice: string | null;
  /** A Next or Submit that met a failed network and is being tried again. */
  reconnecting: boolean;
  /** Next (or Submit) pressed on a per-question test with no answer: asked once, since there is no way back. */
  confirmingSkip: boolean;
  /** Leave section pressed: the section's summary asks first, since a section left cannot be opened again. */
  confirmingLeave: boolean;
  /** The student left the quiz window at least once (noted for the invigilator). */
  leftWindow: boolean;
  /** What the server counted of it, and the drive's limit (decision 035); null until it answers. */
  focusLosses: Omit<FocusLossNoted, "resultId"> | null;
  /** What the invigilators sent every candidate's screen (decision 038), oldest first, each once. */
  messages: Notice[];
  /**
   * The invigilator paused the drive (decision 039): the clock stands still where the server's stood at the pause,
   * and the question is put away until they resume it.
   */
  paused: boolean;
  /** What the page's polite live region says. */
  announcement: string;
  /** A refusal from the server to show beside the buttons (a late answer, a failed submit). */
  problem: string | null;
  resultId: string | null;
}

export type QuizEvent =
  | { type: "loadStarted" }
  /** The rules are read: shown first (`intro`), or no attempt is left (`completed`). */
  | { type: "introRead"; intro: QuizIntro }
  /** `openAt`: the question a whole-quiz attempt had open in this tab before a reload (paced: the server's). */
  | { type: "loaded"; attempt: InProgress; now: number; openAt?: number; sectionNotice?: string }
  | { type: "loadFailed"; message: string; retry: boolean; paused?: boolean }
  | { type: "picked"; questionId: string; optionId: string }
  | { type: "saveSent"; answer: Answer }
  | { type: "saveRetrying"; answer: Answer }
  | { type: "saveFailed"; answer: Answer }
  /** The server holds these answers now (a save, a Next that carried one, a submit that carried them all). */
  | { type: "saveLanded"; answers: Answer[] }
  /** The server refused the answer for good (its window had closed): sending it again cannot help. */
  | { type: "saveRefused"; answer: Answer; message: string }
  | { type: "tick"; now: number }
  /**
   * An invigilator added time (decision 037), heard from the notices' stream or found when the countdown reached
   * zero: the server's clock runs on. `secondsLeft` and `addedSeconds` are the server's.
   */
  | { type: "timeAdded"; secondsLeft: number; addedSeconds: number; now: number }
  /** A message from the invigilators reached the screen (again, after a reconnection: shown once). */
  | { type: "messageReceived"; notice: Notice }
  /** The drive was paused: said down the notices' stream, or by a refusal (423) of something the page sent. */
  | { type: "paused" }
  /**
   * The drive was resumed, or time lost with the connection was given back (decision 040: `creditedSeconds`, the
   * server's total, is more than the page had heard), and the attempt runs on where it stood, with `secondsLeft` as
   * the server reads it now.
   */
  | { type: "resumed"; secondsLeft: number; now: number; creditedSeconds?: number }
  | { type: "skipAsked" }
  | { type: "skipCancelled" }
  | { type: "leaveAsked" }
  | { type: "leaveCancelled" }
  /** Leaving the open section: its answers are being sent, then the request to close it. */
  | { type: "leaveStarted" }
  /** The section was not left (an answer of it could not be saved, or the network failed): why. */
  | { type: "leaveFailed"; message: string }
  | { type: "moveStarted"; carried: Answer | null }
  | { type: "reconnecting" }
  | { type: "moved"; progress: AttemptProgress; now: number }
  /** Next did not get through; `problem` is the server's refusal to show (outside the exam room), if it refused. */
  | { type: "moveFailed"; carried: Answer | null; problem?: string }
  | { type: "wentTo"; index: number }
  /** The palette's mark for review, set or taken off on the question. */
  | { type: "markToggled"; questionId: string }
  /** The question's answer cleared (Clear response). */
  | { type: "cleared"; questionId: string }
  /** The server did not take a clear: the answer it still holds is shown again, with why. */
  | { type: "clearFailed"; questionId: string; choice: string; message: string }
  /** The server did not take a mark: shown as the server holds it, with why. */
  | { type: "markFailed"; questionId: string; marked: boolean; message: string }
  | { type: "submitStarted" }
  | { type: "submitFailed"; message: string }
  | { type: "submitted"; resultId: string }
  | { type: "windowLeft" }
  /** The intro read on opening a test that starts at once: kept for the drive's exam-room rules. */
  | { type: "introHeard"; intro: QuizIntro }
  | { type: "focusLossNoted"; noted: FocusLossNoted };

export const initialQuizState: QuizState = {
  phase: "loading",
  intro: null,
  unavailable: null,
  attemptId: null,
  paced: true,
  timingMode: "per_question",
  total: 0,
  secondsPerQuestion: 30,
  sections: [],
  sectionFirst: 0,
  sectionEnd: 0,
  questions: [],
  index: 0,
  deadline: 0,
  now: 0,
  addedSeconds: 0,
  creditedSeconds: 0,
  answers: {},
  unsaved: {},
  visited: {},
  marked: {},
  moving: false,
  leaving: false,
  sectionNotice: null,
  reconnecting: false,
  confirmingSkip: false,
  confirmingLeave: false,
  leftWindow: false,
  focusLosses: null,
  messages: [],
  paused: false,
  announcement: "",
  problem: null,
  resultId: null,
};

/**
 * What the student is told after leaving the quiz window on a drive with a focus-loss limit (decision 035), or null
 * on a drive without one.
 */
export function focusLossWarning(noted: Omit<FocusLossNoted, "resultId">): string | null {
  if (noted.limit === null) return null;
  const times = (count: number) => (count === 1 ? "1 time" : `${count} times`);
  if (noted.endsAttempt) {
    const left = noted.limit - noted.focusLosses;
    return `You have left the quiz window ${times(noted.focusLosses)}. This drive submits your quiz when you leave it ${times(noted.limit)}${left > 0 ? `: ${left === 1 ? "1 more time" : `${left} more times`} ends it` : ""}.`;
  }
  return `You have left the quiz window ${times(noted.focusLosses)}; this drive allows ${times(noted.limit)}. Each time is noted for your invigilator.`;
}

/** Time left as an announcement says it: "4 min 10 s", "40 seconds". */
function spokenTime(left: number): string {
  const minutes = Math.floor(left / 60);
  return minutes > 0 ? `${minutes} min ${left % 60} s` : `${left} seconds`;
}

export function secondsLeft(state: QuizState): number {
  return Math.max(0, Math.ceil((state.deadline - state.now) / 1000));
}

/** The section the question at `index` belongs to, and its number; undefined when the test has no sections. */
export function sectionAt(state: Pick<QuizState, "sections">, index: number) {
  return sectionAtPosition(state.sections, index);
}

/** Each section keeps its own time: a test timed per section. */
export function timedPerSection(state: Pick<QuizState, "timingMode">): boolean {
  return state.timingMode === "per_section";
}

/** A later section follows the open one: the open one ends by leaving it (or its time running out), not by Submit. */
export function sectionFollows(state: Pick<QuizState, "timingMode" | "sectionEnd" | "total">): boolean {
  return timedPerSection(state) && state.sectionEnd < state.total;
}

/** The position is one the student may open now: in the open section (any position on other tests). */
export function isOpen(state: Pick<QuizState, "sectionFirst" | "sectionEnd">, index: number): boolean {
  return index >= state.sectionFirst && index < state.sectionEnd;
}

/** "Section 2 of 4: Verbal Ability. " when `index` opens a section, so a screen reader hears the change. */
function sectionOpening(state: QuizState, index: number): string {
  const section = sectionAt(state, index);
  return section?.firstPosition === index ? `Section ${section.number} of ${section.of}: ${section.name}. ` : "";
}

function questionAnnouncement(state: QuizState, index: number): string {
  const question = state.paced
    ? `Question ${index + 1} of ${state.total}. You have ${state.secondsPerQuestion} seconds.`
    : `Question ${index + 1} of ${state.total}.`;
  return sectionOpening(state, index) + question;
}

/** Drops the unsaved entry for a question only when it still holds the option that landed (a newer pick waits). */
function withoutLanded(unsaved: Record<string, UnsavedAnswer>, answers: Answer[]): Record<string, UnsavedAnswer> {
  const next = { ...unsaved };
  for (const answer of answers) {
    if (next[answer.questionId]?.optionId === choiceOf(answer)) delete next[answer.questionId];
  }
  return next;
}

/**
 * An answer as the state keeps it: one string, the option's id, or a multiple answer's ids joined by "," (an id
 * never holds one). `answerOf` turns it into what the API takes: `optionId`, or `optionIds` for several.
 */
export function choiceOf(answer: Answer): string {
  return answer.optionIds?.join(",") ?? answer.optionId ?? "";
}
export function answerOf(questionId: string, choice: string): Answer {
  return choice.includes(",") ? { questionId, optionIds: choice.split(",") } : { questionId, optionId: choice };
}

function withSaveState(state: QuizState, answer: Answer, saveState: SaveState): QuizState {
  // A report about a pick the screen no longer shows says nothing about the question: the student has picked
  // again since, or cleared the answer, and a failed save of the old pick must not come back to be sent again
  // (an outside attack saw a cleared answer return that way and be scored, while the page said "Not answered").
  if (state.answers[answer.questionId] !== choiceOf(answer)) return state;
  return {
    ...state,
    unsaved: { ...state.unsaved, [answer.questionId]: { optionId: choiceOf(answer), state: saveState } },
  };
}

export function quizReducer(state: QuizState, event: QuizEvent): QuizState {
  switch (event.type) {
    case "loadStarted":
      return { ...state, phase: "loading", unavailable: null };
    case "introHeard":
      return { ...state, intro: event.intro };
    case "introRead":
      return { ...state, phase: event.intro.status === "completed" ? "completed" : "intro", intro: event.intro };
    case "loaded": {
      const { attempt } = event;
      // A server from before sections kept their own time leaves the bounds out: every position is open then.
      const bounds = {
        sectionFirst: attempt.sectionFirst ?? 0,
        sectionEnd: attempt.sectionEnd ?? attempt.totalQuestions,
      };
      // Each question at its position: a paced attempt's open one; the rest from `questionsFrom` (a closed
      // section's are not sent again).
      const from = attempt.questionsFrom ?? 0;
      const questions: (QuizQuestion | undefined)[] = attempt.paced
        ? Array.from({ length: attempt.totalQuestions }, (_, position) =>
            position === attempt.currentIndex ? (attempt.question ?? undefined) : undefined,
          )
        : from === 0
          ? attempt.questions
          : Array.from({ length: from + attempt.questions.length }, (_, position) =>
              position < from ? undefined : attempt.questions[position - from],
            );
      const stored = Object.fromEntries(attempt.answers.map((answer) => [answer.questionId, choiceOf(answer)]));
      // What the server holds, with the picks it has not acknowledged on top: a reload after a failed save keeps
      // the student's answer on screen and still to be sent. A paced question whose window has passed is gone for
      // good, and so is any pick for it.
      // On a test timed per section, only the open section's questions take answers: a closed one's pick is gone.
      const open = new Set(
        questions.flatMap((question, position) => (question && isOpen(bounds, position) ? [question._id] : [])),
      );
      const stillOpen = Object.fromEntries(Object.entries(state.unsaved).filter(([id]) => open.has(id)));
      const pending = Object.fromEntries(Object.entries(stillOpen).map(([id, { optionId }]) => [id, optionId]));
      const loaded: QuizState = {
        ...state,
        phase: "running",
        unavailable: null,
        attemptId: attempt.attemptId,
        paced: attempt.paced,
        timingMode: attempt.timingMode,
        total: attempt.totalQuestions,
        secondsPerQuestion: attempt.secondsPerQuestion,
        sections: attempt.sections,
        ...bounds,
        questions,
        index: attempt.paced ? attempt.currentIndex : reopened(event.openAt, bounds, questions),
        deadline: event.now + attempt.secondsLeft * 1000,
        now: event.now,
        addedSeconds: attempt.addedSeconds ?? state.addedSeconds,
        creditedSeconds: attempt.creditedSeconds ?? state.creditedSeconds,
        paused: Boolean(attempt.pausedAt),
        answers: { ...stored, ...pending },
        unsaved: withoutLanded(stillOpen, attempt.answers),
        visited: idSet(attempt.visited),
        marked: idSet(attempt.marked),
        moving: false,
        leaving: false,
        sectionNotice: event.sectionNotice ?? null,
        reconnecting: false,
        confirmingSkip: false,
        confirmingLeave: false,
      };
      const opened = questionAnnouncement(loaded, loaded.index);
      return {
        ...visiting(loaded, loaded.index),
        announcement: event.sectionNotice ? `${event.sectionNotice} ${opened}` : opened,
      };
    }
    case "loadFailed":
      return {
        ...state,
        phase: "unavailable",
        unavailable: { message: event.message, retry: event.retry, paused: event.paused },
      };
    case "picked":
      // A section being left takes no more answers: the page would not send them (a walk picked while offline).
      if (state.leaving) return state;
      return {
        ...state,
        answers: { ...state.answers, [event.questionId]: event.optionId },
        unsaved: { ...state.unsaved, [event.questionId]: { optionId: event.optionId, state: "waiting" } },
        confirmingSkip: false,
        sectionNotice: null,
        problem: null,
      };
    case "saveSent":
      return withSaveState(state, event.answer, "sending");
    case "saveRetrying":
      return withSaveState(state, event.answer, "retrying");
    case "saveFailed":
      return withSaveState(state, event.answer, "failed");
    case "saveLanded": {
      // Only a save the student was told about (failed, retrying) is worth announcing when it lands.
      const hadTrouble = event.answers.some((answer) => {
        const entry = state.unsaved[answer.questionId];
        return entry?.optionId === choiceOf(answer) && (entry.state === "failed" || entry.state === "retrying");
      });
      return {
        ...state,
        unsaved: withoutLanded(state.unsaved, event.answers),
        reconnecting: false,
        announcement: hadTrouble ? "Your answer is saved." : state.announcement,
      };
    }
    case "saveRefused": {
      const unsaved = withoutLanded(state.unsaved, [event.answer]);
      return { ...state, unsaved, problem: event.message };
    }
    case "tick": {
      // A paused drive's clock stands still: the time shown is the time left when it paused.
      if (state.paused) return state;
      const ticked = { ...state, now: event.now };
      const crossedWarning = secondsLeft(state) > WARN_AT_SECONDS && secondsLeft(ticked) <= WARN_AT_SECONDS;
      return crossedWarning
        ? { ...ticked, announcement: `${WARN_AT_SECONDS} seconds left${warningScope(state)}.` }
        : ticked;
    }
    case "timeAdded": {
      const extended = {
        ...state,
        deadline: event.now + event.secondsLeft * 1000,
        now: event.now,
        addedSeconds: event.addedSeconds,
      };
      return {
        ...extended,
        announcement: `The invigilator added time: ${spokenTime(secondsLeft(extended))} left${warningScope(state)}.`,
      };
    }
    case "paused":
      if (state.phase !== "running" || state.paused) return state;
      return {
        ...state,
        paused: true,
        confirmingSkip: false,
        confirmingLeave: false,
        announcement: DRIVE_PAUSED_MESSAGE,
      };
    case "resumed": {
      const resumed = {
        ...state,
        paused: false,
        deadline: event.now + event.secondsLeft * 1000,
        now: event.now,
        problem: state.problem === DRIVE_PAUSED_MESSAGE ? null : state.problem,
      };
      const left = `${spokenTime(secondsLeft(resumed))} left${warningScope(state)}`;
      const credited = (event.creditedSeconds ?? state.creditedSeconds) - state.creditedSeconds;
      return {
        ...resumed,
        creditedSeconds: state.creditedSeconds + Math.max(0, credited),
        announcement:
          credited > 0
            ? `Time lost with your connection was given back (${spokenTime(Math.round(credited))}): ${left}.`
            : `The test goes on: ${left}.`,
      };
    }
    case "messageReceived": {
      const { notice } = event;
      if (notice.kind !== "message" || state.messages.some((known) => known._id === notice._id)) return state;
      return {
        ...state,
        messages: [...state.messages, notice].slice(-MESSAGES_REPLAYED),
        announcement: `Message from the invigilator: ${notice.text}`,
      };
    }
    case "skipAsked":
      return { ...state, confirmingSkip: true };
    case "skipCancelled":
      return { ...state, confirmingSkip: false };
    case "leaveAsked":
      return { ...state, confirmingLeave: true, confirmingSkip: false };
    case "leaveCancelled":
      return { ...state, confirmingLeave: false };
    case "leaveStarted":
      return { ...state, moving: true, leaving: true, confirmingLeave: false, confirmingSkip: false, problem: null };
    case "leaveFailed":
      // Shown as an alert, which is heard at once: not said twice.
      return { ...state, moving: false, leaving: false, reconnecting: false, problem: event.message };
    case "moveStarted": {
      const carried = event.carried;
      const moving = { ...state, moving: true, confirmingSkip: false };
      return carried ? withSaveState(moving, carried, "sending") : moving;
    }
    case "reconnecting":
      return { ...state, reconnecting: true };
    case "moved": {
      const { progress } = event;
      const question = progress.question ?? undefined;
      const moved: QuizState = {
        ...state,
        questions: state.questions.map((known, position) => (position === progress.currentIndex ? question : known)),
        index: progress.currentIndex,
        deadline: event.now + progress.secondsLeft * 1000,
        now: event.now,
        moving: false,
        reconnecting: false,
        confirmingSkip: false,
        sectionNotice: null,
        problem: null,
      };
      return { ...moved, announcement: questionAnnouncement(moved, moved.index) };
    }
    case "moveFailed": {
      const stopped = {
        ...state,
        moving: false,
        reconnecting: false,
        ...(event.problem && { problem: event.problem, announcement: event.problem }),
      };
      // Refused, the answer waits to be carried again (the refusal says why); lost on the way, it is sent again.
      return event.carried ? withSaveState(stopped, event.carried, event.problem ? "waiting" : "failed") : stopped;
    }
    case "wentTo":
      return {
        ...visiting(state, event.index),
        index: event.index,
        confirmingSkip: false,
        confirmingLeave: false,
        sectionNotice: null,
        problem: null,
        announcement: questionAnnouncement(state, event.index),
      };
    case "submitStarted":
      return { ...state, phase: "submitting", confirmingSkip: false, problem: null };
    case "submitFailed":
      return { ...state, phase: "running", reconnecting: false, problem: event.message, announcement: event.message };
    case "submitted":
      return { ...state, phase: "submitted", unsaved: {}, reconnecting: false, resultId: event.resultId };
    case "windowLeft":
      return { ...state, leftWindow: true };
    case "focusLossNoted": {
      // The notice that says it is a status region of its own: the live region does not say it again.
      const { resultId: _closed, ...focusLosses } = event.noted;
      return { ...state, focusLosses };
    }
    case "markToggled": {
      const { [event.questionId]: wasMarked, ...others } = state.marked;
      const marked = wasMarked ? others : { ...others, [event.questionId]: true as const };
      return {
        ...state,
        marked,
        problem: null,
        announcement: wasMarked ? "Mark for review removed." : "Marked for review.",
      };
    }
    case "cleared": {
      const { [event.questionId]: _answer, ...answers } = state.answers;
      const { [event.questionId]: _unsaved, ...unsaved } = state.unsaved;
      return { ...state, answers, unsaved, problem: null, announcement: "Response cleared." };
    }
    case "clearFailed":
      return {
        ...state,
        answers: { ...state.answers, [event.questionId]: event.choice },
        // Shown as an alert, which is heard at once: not said twice.
        problem: event.message,
      };
    case "markFailed": {
      const { [event.questionId]: _mark, ...others } = state.marked;
      const marked = event.marked ? { ...others, [event.questionId]: true as const } : others;
      return { ...state, marked, problem: event.message };
    }
  }
}

/**
 * The question to reopen on a whole-quiz attempt (or a section on its own clock): the one open before, when it is
 * one of the open section's, else the section's first.
 */
function reopened(
  openAt: number | undefined,
  bounds: { sectionFirst: number; sectionEnd: number },
  questions: readonly (QuizQuestion | undefined)[],
): number {
  return openAt !== undefined && Number.isInteger(openAt) && isOpen(bounds, openAt) && questions[openAt]
    ? openAt
    : bounds.sectionFirst;
}

/** What the ten-second warning is about: the open question's window, the open section's clock, or the quiz's. */
function warningScope(state: QuizState): string {
  if (state.paced) return " for this question";
  return timedPerSection(state) ? " in this section" : "";
}

function idSet(ids: string[]): Record<string, true> {
  return Object.fromEntries(ids.map((id) => [id, true as const]));
}

/** The question at `index` counts as opened (the palette of a quiz timed as a whole). */
function visiting(state: QuizState, index: number): QuizState {
  const question = state.questions[index];
  if (state.paced || !question || state.visited[question._id]) return state;
  return { ...state, visited: { ...state.visited, [question._id]: true } };
}

/** A question's state on the palette, as the exam portals name them. */
export type PaletteStatus = "not_visited" | "not_answered" | "answered" | "marked" | "answered_marked";

/**
 * Every state without an answer says so, as Submit's check counts them ("You have not answered 7 questions"): a
 * walk read "Not answered 3" beside that sentence, with the not visited and the marked left unsaid.
 */
export const PALETTE_LABELS: Record<PaletteStatus, string> = {
  not_visited: "Not visited",
  not_answered: "Opened, not answered",
  answered: "Answered",
  marked: "Marked for review, not answered",
  answered_marked: "Answered and marked for review",
};

export function paletteStatus(state: QuizState, questionId: string): PaletteStatus {
  const answered = Boolean(state.answers[questionId]);
  if (state.marked[questionId]) return answered ? "answered_marked" : "marked";
  if (answered) return "answered";
  return state.visited[questionId] ? "not_answered" : "not_visited";
}

/** The questions of the open section (every question on a test not timed per section), with their positions. */
export function openQuestions(state: QuizState): { question: QuizQuestion; index: number }[] {
  return state.questions.flatMap((question, index) => (question && isOpen(state, index) ? [{ question, index }] : []));
}

/**
 * The numbers (from 1) of the open section's questions marked for review, for the last check before Submit or
 * before leaving the section (every question's on a test not timed per section).
 */
export function markedNumbers(state: QuizState): number[] {
  return openQuestions(state).flatMap(({ question, index }) => (state.marked[question._id] ? [index + 1] : []));
}

/** The answers to send again before the student moves on: those whose last try failed. */
export function failedAnswers(state: QuizState): Answer[] {
  return Object.entries(state.unsaved)
    .filter(([, { state: saveState }]) => saveState === "failed")
    .map(([questionId, { optionId }]) => answerOf(questionId, optionId));
}

/**
 * The numbers (from 1) of the open section's questions with no answer yet, for the last check before Submit or
 * before leaving the section (every question's on a test not timed per section).
 */
export function unansweredNumbers(state: QuizState): number[] {
  return openQuestions(state).flatMap(({ question, index }) => (state.answers[question._id] ? [] : [index + 1]));
}

/**
 * What pressing Next (or Submit on the last question) does now. Leaving a question unanswered is asked about
 * first: on a per-question test at each question (there is no way back), on a whole-quiz test once, at Submit,
 * where questions still marked for review are named too. On a test timed per section, the last question of a
 * section that is not the last leaves the section: a paced one at once (after the same question about an empty
 * answer), one on its own clock through the section's summary ("askLeave").
 */
export function nextStep(state: QuizState): "ask" | "advance" | "submit" | "goForward" | "leaveSection" | "askLeave" {
  const question = state.questions[state.index];
  const isLast = state.index >= state.total - 1;
  const endsSection = sectionFollows(state) && state.index >= state.sectionEnd - 1;
  if (state.paced) {
    if (question && !state.answers[question._id] && !state.confirmingSkip) return "ask";
    if (endsSection) return "leaveSection";
    return isLast ? "submit" : "advance";
  }
  if (endsSection) return "askLeave";
  if (!isLast) return "goForward";
  const toCheck = unansweredNumbers(state).length + markedNumbers(state).length;
  return toCheck > 0 && !state.confirmingSkip ? "ask" : "submit";
}

/**
 * What the page says about answers the server does not hold yet. It stays until they land: "failed" names the
 * questions so a student on a whole-quiz test knows which ones, "retrying" while the page keeps trying.
 */
export function saveNotice(state: QuizState): { tone: "error" | "info"; text: string } | null {
  const entries = Object.entries(state.unsaved);
  const failed = entries.filter(([, { state: saveState }]) => saveState === "failed").map(([id]) => id);
  if (failed.length > 0) {
    const numbers = failed
      .map((id) => state.questions.findIndex((question) => question?._id === id) + 1)
      .filter((number) => number > 0)
      .sort((a, b) => a - b);
    const which =
      numbers.length === 1
        ? `Your answer to question ${numbers[0]}`
        : `Your answers to questions ${numbers.join(", ")}`;
    return {
      tone: "error",
      text: `${which} could not be saved yet. Check your connection: the page sends ${numbers.length === 1 ? "it" : "them"} again before you move on or submit, and as soon as the connection returns.`,
    };
  }
  if (state.leaving && state.reconnecting) {
    return { tone: "info", text: "Leaving this section: the connection dropped, and the page is trying again…" };
  }
  if (state.reconnecting || entries.some(([, { state: saveState }]) => saveState === "retrying")) {
    return { tone: "info", text: "Your answer has not reached the server yet. Retrying…" };
  }
  return null;
}
