// The quiz page's attempt: the reducer of quiz-machine.ts holds the state, and this hook sends the requests (in
// turn, so the server sees an answer before the Next that follows it) and reports what happened as its events.

import { HEARTBEAT_EVERY_SECONDS, STORAGE_KEYS } from "@trainwise/contract/constants";
import { NOTICE_EVENT, noticeSchema } from "@trainwise/contract/notices";
import type { Answer, QuizIntro } from "@trainwise/contract/quiz";
import { useCallback, useEffect, useReducer, useRef } from "react";
import { useNavigate } from "react-router";
import { ENDING_NOTICES } from "../../components/quiz/quiz-intro.tsx";
import { ApiError, addressOf, call, isTransient, messageOf, withRetry } from "../../lib/api.ts";
import { followEventStream } from "../../lib/event-stream.ts";
import {
  answerOf,
  failedAnswers,
  initialQuizState,
  isOpen,
  nextStep,
  openQuestions,
  type QuizState,
  quizReducer,
  secondsLeft,
  sectionAt,
  sectionFollows,
} from "./quiz-machine.ts";

/**
 * How long a pick waits before it is saved on its own. Next, Submit and the timer carry the answer anyway, so a
 * pick followed by Next within this time costs one request, not two; a pick the student sits on is saved, and
 * one still waiting when the page goes away is sent as it goes.
 */
const SAVE_AFTER_MS = 1500;

/**
 * The longest a page waits, at random, before it reads its clock when told time was added (decision 038) or that
 * the drive was resumed (decision 039): every screen of a drive is told in the same second.
 */
export const CLOCK_READ_SPREAD_MS = 3000;

/**
 * How often a paused page asks whether the drive was resumed, in case word of it did not come down the stream; and
 * how often a page whose start met the pause tries again.
 */
const PAUSED_CHECK_EVERY_MS = 30_000;
/** How often a page that met its zero out of contact says it is there again, on a drive with credits (decision 040). */
const HEARTBEAT_RETRY_MS = 2000;

/** What a student reads who would start while the drive is paused: nothing of theirs has started. */
const START_PAUSED =
  "The invigilator has paused the test. You can start once they resume it: this page tries again by itself.";

/** The server refused because the drive is paused (decision 039): what was sent is kept, to go again on resuming. */
function isPausedRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.status === 423;
}

/** A blur this soon after Tab is the focus leaving the page's last control for the browser's bar. */
const TAB_BLUR_MS = 500;
/** How long the focus may stay in the browser's bar after Tab before it counts as leaving the quiz. */
const TAB_OUT_GRACE_MS = 10_000;

/**
 * Whether the page shows the rules and waits for Start before the clock runs: the test asks for it, the drive has
 * exam-screen rules (decision 035), or a start would be refused (the rules then say why, with no Start). A candidate must read a focus-loss limit before it can end their attempt, and a
 * browser grants full screen only on a click (an outside attack saw neither on a test that starts at once).
 */
function waitsForStart(intro: QuizIntro): boolean {
  if (intro.startRefusal !== null) return true;
  return intro.rulesFirst || intro.fullScreen || intro.blockCopyPaste || intro.focusLossLimit !== null;
}

/**
 * The question a whole-quiz attempt has open, kept for this tab: a reload reopens it, as it reopens a paced
 * attempt's (which the server knows). Another device starts at question 1, with the same palette.
 */
const OPEN_QUESTION_KEY = "quizOpenQuestion";

function openQuestionOf(attemptId: string): number | undefined {
  try {
    const kept = JSON.parse(sessionStorage.getItem(OPEN_QUESTION_KEY) ?? "null") as {
      attemptId?: string;
      index?: number;
    };
    return kept?.attemptId === attemptId ? kept.index : undefined;
  } catch {
    return undefined;
  }
}

/** The attempt as the page drives it: the reducer holds the state, these callbacks talk to the server. */
export function useQuizAttempt(token: string) {
  const navigate = useNavigate();
  const [state, dispatch] = useReducer(quizReducer, initialQuizState);
  // Handlers and page events read the state as last drawn, not as it was when they were made.
  const latest = useRef<QuizState>(state);
  latest.current = state;
  // Requests go one after another, so the server sees an answer before the Next that follows it.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  // Picks not sent yet, by question: each waits SAVE_AFTER_MS unless Next or Submit carries it first.
  const saveTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  // Each question's latest save on its way: leaving a section waits for them, and learns whether they landed.
  const savesOnTheWay = useRef(new Map<string, Promise<boolean>>());
  // A section whose leaving the server refused outright: its time running out does not send the same request again
  // and again (the server's sweep moves it on; the student may still press Leave section).
  const leaveRefusedAt = useRef<number | null>(null);

  const inTurn = useCallback(<T>(call: () => Promise<T>): Promise<T> => {
    const next = queue.current.then(call);
    queue.current = next.catch(() => undefined);
    return next;
  }, []);

  const stopWaiting = useCallback((questionId?: string) => {
    for (const [id, timer] of saveTimers.current) {
      if (questionId !== undefined && id !== questionId) continue;
      clearTimeout(timer);
      saveTimers.current.delete(id);
    }
  }, []);

  const finish = useCallback(
    (resultId: string, notice?: string) => {
      localStorage.setItem(STORAGE_KEYS.quizSubmitted, "true");
      dispatch({ type: "submitted", resultId });
      // Replacing the quiz's entry: Back from the result must not land on a quiz that sends them forward again.
      navigate(`/result/${resultId}`, { replace: true, ...(notice && { state: { notice } }) });
    },
    [navigate],
  );

  // The questions the server knows were opened: a question opened for the first time is told to it, once.
  const toldVisited = useRef(new Set<string>());

  const load = useCallback(async () => {
    dispatch({ type: "loadStarted" });
    try {
      // Starting is safe to repeat: the server resumes the attempt it already has.
      const attempt = await withRetry(() => call("startQuiz", { token }));
      if (attempt.status === "submitted") finish(attempt.resultId);
      else {
        toldVisited.current = new Set(attempt.visited);
        dispatch({ type: "loaded", attempt, now: Date.now(), openAt: openQuestionOf(attempt.attemptId) });
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        localStorage.removeItem(STORAGE_KEYS.studentToken);
        navigate("/student/register", { replace: true });
        return;
      }
      if (isPausedRefusal(error)) {
        dispatch({ type: "loadFailed", message: START_PAUSED, retry: true, paused: true });
        return;
      }
      const final = error instanceof ApiError && (error.status === 409 || error.status === 403);
      // No attempt left (the last one ran out while the student was away): lead to the result, not to an error.
      if (error instanceof ApiError && error.status === 409) {
        const intro = await call("quizIntro", { token }).catch(() => undefined);
        if (intro?.status === "completed") {
          dispatch({ type: "introRead", intro });
          return;
        }
      }
      dispatch({ type: "loadFailed", message: messageOf(error, "Could not load the quiz."), retry: !final });
    }
  }, [token, finish, navigate]);

  /**
   * Opening the page: the test's rules first, read without starting anything. A test that shows its rules first
   * waits for Start, and so does any drive with exam-screen rules (waitsForStart); one with no attempt left leads to
   * its result; otherwise the quiz starts (or resumes) at once, as the original journey does (decision 026).
   */
  const open = useCallback(async () => {
    dispatch({ type: "loadStarted" });
    try {
      const intro = await withRetry(() => call("quizIntro", { token }));
      if (intro.status === "completed" || (intro.status === "not_started" && waitsForStart(intro))) {
        dispatch({ type: "introRead", intro });
        return;
      }
      dispatch({ type: "introHeard", intro });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        localStorage.removeItem(STORAGE_KEYS.studentToken);
        navigate("/student/register", { replace: true });
        return;
      }
      dispatch({ type: "loadFailed", message: messageOf(error, "Could not load the quiz."), retry: true });
      return;
    }
    await load();
  }, [token, load, navigate]);

  useEffect(() => {
    void open();
  }, [open]);

  /** The latest result of a student with no attempt left: the result page, as right after submitting. */
  const seeResult = useCallback(
    (resultId: string) => {
      localStorage.setItem(STORAGE_KEYS.quizSubmitted, "true");
      navigate(`/result/${resultId}`);
    },
    [navigate],
  );

  /** Sends an answer in turn; settles true when it landed or was refused for good, false when it may be sent again. */
  const save = useCallback(
    (answer: Answer): Promise<boolean> => {
      stopWaiting(answer.questionId);
      dispatch({ type: "saveSent", answer });
      const saved = inTurn(() =>
        withRetry(
          () => call("saveAnswer", { token, body: answer }),
          () => dispatch({ type: "saveRetrying", answer }),
        ),
      ).then(
        () => {
          dispatch({ type: "saveLanded", answers: [answer] });
          return true;
        },
        (error: unknown) => {
          if (isPausedRefusal(error)) dispatch({ type: "paused" });
          const again = isTransient(error) || isPausedRefusal(error);
          dispatch(
            again
              ? { type: "saveFailed", answer }
              : { type: "saveRefused", answer, message: messageOf(error, "The server did not take that answer.") },
          );
          return !again;
        },
      );
      savesOnTheWay.current.set(answer.questionId, saved);
      void saved.finally(() => {
        if (savesOnTheWay.current.get(answer.questionId) === saved) savesOnTheWay.current.delete(answer.questionId);
      });
      return saved;
    },
    [inTurn, stopWaiting, token],
  );

  /** Answers whose last save failed go again: before the student moves on, and when the connection returns. */
  const resendFailed = useCallback(() => {
    for (const answer of failedAnswers(latest.current)) void save(answer);
  }, [save]);

  const submit = useCallback(async () => {
    if (latest.current.phase !== "running") return;
    dispatch({ type: "submitStarted" });
    // The body carries every answer, so nothing needs to wait for its own save; saves already on their way land first.
    stopWaiting();
    await queue.current;
    const answers = Object.entries(latest.current.answers).map(([questionId, choice]) => answerOf(questionId, choice));
    try {
      const { resultId } = await withRetry(
        () => call("submitQuiz", { token, body: { answers } }),
        () => dispatch({ type: "reconnecting" }),
      );
      finish(resultId);
    } catch (error) {
      if (isPausedRefusal(error)) dispatch({ type: "paused" });
      dispatch({ type: "submitFailed", message: messageOf(error, "Submitting failed. Please try again.") });
    }
  }, [finish, stopWaiting, token]);

  /**
   * Leaves the open section of a test timed per section (Leave section confirmed, Next on a paced section's last
   * question, or the section's time running out): the section's answers the server does not hold go first, in the
   * same queue, then the request to close the section, which answers the attempt with the next section open. The
   * student's own leaving waits for an answer that could not be saved; time run out does not (the server takes
   * what was sent in time, and nothing more can be done in the section).
   */
  const leaveSection = useCallback(async () => {
    const current = latest.current;
    if (current.moving || current.phase !== "running" || !sectionFollows(current)) return;
    const { sectionFirst } = current;
    const timeUp = secondsLeft(current) === 0;
    dispatch({ type: "leaveStarted" });
    stopWaiting();
    const sends = openQuestions(current).flatMap(({ question }) => {
      const entry = current.unsaved[question._id];
      if (!entry) return [];
      if (entry.state === "waiting" || entry.state === "failed") return [save(answerOf(question._id, entry.optionId))];
      return [savesOnTheWay.current.get(question._id) ?? Promise.resolve(true)];
    });
    const saved = (await Promise.all(sends)).every(Boolean);
    await queue.current;
    if (!saved && !timeUp) {
      dispatch({
        type: "leaveFailed",
        message:
          "You are still in this section: an answer of it could not be saved yet. Check your connection and try again.",
      });
      return;
    }
    try {
      const attempt = await inTurn(() =>
        withRetry(
          () => call("leaveSection", { token, body: { sectionFirst } }),
          () => dispatch({ type: "reconnecting" }),
        ),
      );
      if (attempt.status === "submitted") {
        finish(attempt.resultId);
        return;
      }
      for (const id of attempt.visited) toldVisited.current.add(id);
      stopWaiting();
      // Closed by its clock, not by the student: say so, and whether every answer given in it reached the server.
      const name = sectionAt(current, sectionFirst)?.name ?? "this section";
      const sectionNotice = !timeUp
        ? undefined
        : saved
          ? `Time is up for ${name}: your answers in it are saved.`
          : `Time is up for ${name}: an answer that had not reached the server in time does not count.`;
      dispatch({ type: "loaded", attempt, now: Date.now(), sectionNotice });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        // The attempt moved on or closed without us (the sweep, another tab): the server's state says where it is.
        await load();
        return;
      }
      if (isPausedRefusal(error)) dispatch({ type: "paused" });
      else if (!isTransient(error)) leaveRefusedAt.current = sectionFirst;
      dispatch({
        type: "leaveFailed",
        message: messageOf(error, "The section could not be left. Check your connection and try again."),
      });
    }
  }, [finish, inTurn, load, save, stopWaiting, token]);

  /** Paced: asks the server to open the next question, carrying the answer to the one it leaves. */
  const advance = useCallback(async () => {
    const current = latest.current;
    if (current.moving || current.phase !== "running") return;
    // The last question of a paced section that is not the last: its answer is saved, then the section is left.
    if (sectionFollows(current) && current.index >= current.sectionEnd - 1) return leaveSection();
    if (current.index >= current.total - 1) return submit();
    const leaving = current.questions[current.index];
    const optionId = leaving ? current.answers[leaving._id] : undefined;
    const carried = leaving && optionId ? answerOf(leaving._id, optionId) : null;
    if (leaving) stopWaiting(leaving._id);
    dispatch({ type: "moveStarted", carried });
    try {
      const progress = await inTurn(() =>
        withRetry(
          () =>
            call("nextQuestion", {
              token,
              body: { position: current.index + 1, answer: carried ?? undefined },
            }),
          () => dispatch({ type: "reconnecting" }),
        ),
      );
      dispatch({ type: "moved", progress, now: Date.now() });
      // The move is made either way; an answer the server did not take is said so, never shown as saved.
      if (carried && progress.refused) {
        const message = `Your answer to question ${current.index + 1} did not count: ${progress.refused}`;
        dispatch({ type: "saveRefused", answer: carried, message });
      } else if (carried) dispatch({ type: "saveLanded", answers: [carried] });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        // The attempt moved on or closed without us (time up elsewhere): the server's state says where it stands.
        if (carried) dispatch({ type: "saveRefused", answer: carried, message: error.message });
        await load();
        return;
      }
      // A refusal that is not about the attempt (a drive's exam room, decision 035) is said as the server says it:
      // the answer stays unsaved, to go again once the student is back where the drive allows, or it is resumed.
      if (isPausedRefusal(error)) dispatch({ type: "paused" });
      const problem =
        isTransient(error) || isPausedRefusal(error)
          ? undefined
          : messageOf(error, "The next question could not be opened.");
      dispatch({ type: "moveFailed", carried, problem });
    }
  }, [inTurn, leaveSection, load, stopWaiting, submit, token]);

  /** Leave section: the section's summary first, unless its time is already up (there is nothing to stay for). */
  const askToLeave = useCallback(() => {
    if (secondsLeft(latest.current) === 0) void leaveSection();
    else dispatch({ type: "leaveAsked" });
  }, [leaveSection]);

  /** Next, or Submit on the last question: what it does depends on the test and on whether there is an answer. */
  const goOn = useCallback(() => {
    const step = nextStep(latest.current);
    if (step === "ask") dispatch({ type: "skipAsked" });
    else if (step === "advance") void advance();
    else if (step === "submit") void submit();
    else if (step === "leaveSection") void leaveSection();
    else if (step === "askLeave") askToLeave();
    else {
      resendFailed();
      dispatch({ type: "wentTo", index: latest.current.index + 1 });
    }
  }, [advance, askToLeave, leaveSection, resendFailed, submit]);

  /** The palette: the open question marked for review, or the mark taken off. */
  const toggleMark = useCallback(() => {
    const current = latest.current;
    const question = current.questions[current.index];
    if (!question || current.paced || !isOpen(current, current.index)) return;
    const marked = !current.marked[question._id];
    const position = current.index;
    dispatch({ type: "markToggled", questionId: question._id });
    inTurn(() => withRetry(() => call("changePalette", { token, body: { position, marked } }))).catch(
      (error: unknown) =>
        dispatch({
          type: "markFailed",
          questionId: question._id,
          marked: !marked,
          message: `Your mark for review on question ${position + 1} was not saved. ${messageOf(error, "Try again.")}`,
        }),
    );
  }, [inTurn, token]);

  /** Clear response: the open question's answer taken back, on the server too (it would be scored otherwise). */
  const clearResponse = useCallback(() => {
    const current = latest.current;
    const question = current.questions[current.index];
    const choice = question ? current.answers[question._id] : undefined;
    if (!question || !choice || current.paced || !isOpen(current, current.index)) return;
    const position = current.index;
    stopWaiting(question._id);
    dispatch({ type: "cleared", questionId: question._id });
    inTurn(() => withRetry(() => call("changePalette", { token, body: { position, clear: true } }))).catch(
      (error: unknown) =>
        dispatch({
          type: "clearFailed",
          questionId: question._id,
          choice,
          message: `Your answer to question ${position + 1} was not cleared. ${messageOf(error, "Try again.")}`,
        }),
    );
  }, [inTurn, stopWaiting, token]);

  // A question opened for the first time (on a quiz timed as a whole) is told to the server, so that a reload,
  // or another device, shows the same palette; a failed report is tried again when the question is next opened.
  const opened = state.phase === "running" && !state.paced ? state.questions[state.index] : undefined;
  const openedAt = state.index;
  const attemptId = state.attemptId;
  useEffect(() => {
    if (!opened) return;
    sessionStorage.setItem(OPEN_QUESTION_KEY, JSON.stringify({ attemptId, index: openedAt }));
    if (toldVisited.current.has(opened._id)) return;
    toldVisited.current.add(opened._id);
    inTurn(() => call("changePalette", { token, body: { position: openedAt } })).catch(() =>
      toldVisited.current.delete(opened._id),
    );
  }, [opened, openedAt, attemptId, inTurn, token]);

  const pick = useCallback(
    (questionId: string, optionId: string) => {
      dispatch({ type: "picked", questionId, optionId });
      stopWaiting(questionId);
      saveTimers.current.set(
        questionId,
        setTimeout(() => void save(answerOf(questionId, optionId)), SAVE_AFTER_MS),
      );
    },
    [save, stopWaiting],
  );

  // The countdown reads the clock four times a second; at zero it does what Next (or Submit) does, unasked.
  const running = state.phase === "running";
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => dispatch({ type: "tick", now: Date.now() }), 250);
    return () => clearInterval(timer);
  }, [running]);
  const timeUp = running && !state.paused && !state.moving && state.deadline > 0 && secondsLeft(state) === 0;
  /**
   * Whether an invigilator added time since the page last heard (decision 037), asked of the server when word of it
   * comes down the notices' stream, and when the countdown reaches zero (a stream may be down). True when they did
   * and the same question or section runs on, its new time now on screen, or when the drive is paused (decision
   * 039); the page's own clock running fast is not time added, and the timer then does what it does.
   */
  const runsOn = useCallback(async (): Promise<boolean> => {
    const current = latest.current;
    const attempt = await call("quizAttempt", { token }).catch(() => undefined);
    // Paused while word of it did not reach the page (its stream was down): the clock stands, nothing moves on.
    if (attempt?.status === "in_progress" && attempt.pausedAt) {
      dispatch({ type: "paused" });
      return true;
    }
    if (
      attempt?.status !== "in_progress" ||
      attempt.attemptId !== current.attemptId ||
      attempt.sectionFirst !== current.sectionFirst ||
      (current.paced && attempt.currentIndex !== current.index) ||
      attempt.secondsLeft <= 0
    ) {
      return false;
    }
    const now = Date.now();
    // Time a lost connection got back (decision 040), which the request that ended the silence may have been given.
    const credited = (attempt.creditedSeconds ?? 0) > current.creditedSeconds;
    if (credited) {
      dispatch({ type: "resumed", secondsLeft: attempt.secondsLeft, now, creditedSeconds: attempt.creditedSeconds });
    }
    if ((attempt.addedSeconds ?? 0) > current.addedSeconds) {
      dispatch({ type: "timeAdded", secondsLeft: attempt.secondsLeft, addedSeconds: attempt.addedSeconds ?? 0, now });
      return true;
    }
    return credited;
  }, [token]);
  /**
   * Whether the paused drive was resumed (decision 039), asked of the server when word of it comes down the stream
   * and now and then while paused, or once a heartbeat says time came back (decision 040). The attempt runs on
   * where it stood, with its time as the server reads it, and what was refused meanwhile goes again; one that moved
   * on or closed meanwhile is loaded as it now stands.
   */
  const readResumed = useCallback(async () => {
    const current = latest.current;
    const attempt = await call("quizAttempt", { token }).catch(() => undefined);
    if (!attempt || (attempt.status === "in_progress" && attempt.pausedAt)) return;
    if (
      attempt.status === "in_progress" &&
      attempt.attemptId === current.attemptId &&
      attempt.sectionFirst === current.sectionFirst &&
      (!current.paced || attempt.currentIndex === current.index) &&
      attempt.secondsLeft > 0
    ) {
      const { secondsLeft, creditedSeconds } = attempt;
      dispatch({ type: "resumed", secondsLeft, now: Date.now(), creditedSeconds });
      resendFailed();
      return;
    }
    await load();
  }, [token, load, resendFailed]);
  // On a drive that gives lost connections their time back (decision 040), the server hears every request of the
  // page, and gives a silence's time back before it serves the first after it. The page beats when it has nothing
  // else to say, and reads its clock from the server when time came back.
  const givesTimeBack = state.intro?.disconnectGraceSeconds != null;
  /**
   * Says the page is there; whether time came back since the page last heard, to it or to whatever ended its
   * silence first (a stream reconnecting, an answer sent again): the clock is then read from the server.
   */
  const heartbeat = useCallback(async (): Promise<boolean> => {
    const reply = await call("heartbeat", { token });
    const cameBack = reply.creditedInAll > latest.current.creditedSeconds;
    if (cameBack) void readResumed();
    return cameBack;
  }, [token, readResumed]);
  /**
   * Heartbeats until one is heard, every HEARTBEAT_RETRY_MS while the attempt runs: whether time came back, or
   * undefined once the attempt no longer runs. A refusal (not a lost connection) gives nothing.
   */
  const heardAgain = useCallback(async (): Promise<boolean | undefined> => {
    for (;;) {
      try {
        return await heartbeat();
      } catch (error) {
        if (!isTransient(error)) return false;
      }
      await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_RETRY_MS));
      if (latest.current.phase !== "running") return undefined;
    }
  }, [heartbeat]);
  // The heartbeat, while the attempt runs on a drive with credits, and at once when the browser is back online.
  const beating = running && givesTimeBack ? state.attemptId : null;
  useEffect(() => {
    if (!beating) return;
    const beat = () => void heartbeat().catch(() => undefined);
    const every = setInterval(beat, HEARTBEAT_EVERY_SECONDS * 1000);
    window.addEventListener("online", beat);
    return () => {
      clearInterval(every);
      window.removeEventListener("online", beat);
    };
  }, [beating, heartbeat]);
  const paused = running && state.paused;
  useEffect(() => {
    if (!paused) return;
    const checking = setInterval(() => void readResumed(), PAUSED_CHECK_EVERY_MS);
    return () => clearInterval(checking);
  }, [paused, readResumed]);
  // A start that met the pause is tried again now and then, until the drive is resumed (each refusal is a new one).
  const startPaused = state.phase === "unavailable" && state.unavailable?.paused ? state.unavailable : null;
  useEffect(() => {
    if (!startPaused) return;
    const trying = setTimeout(() => void load(), PAUSED_CHECK_EVERY_MS);
    return () => clearTimeout(trying);
  }, [startPaused, load]);
  // While the quiz runs, the invigilators' notices come down a stream (decision 038): a message is shown, a pause
  // stops the clock at once, and time added or the drive resumed is read from the server's clock within seconds
  // rather than when the countdown reaches zero.
  const followedAttempt = running ? state.attemptId : null;
  useEffect(() => {
    if (!followedAttempt) return;
    const leaving = new AbortController();
    // Time added to a whole drive, or its resumption, reaches every screen in the same second: each page reads its
    // clock after a random moment of up to CLOCK_READ_SPREAD_MS, and word that arrives meanwhile is read with it (an
    // outside attack saw 500 pages read at once for one add, and once more for each add clicked again).
    let reading: ReturnType<typeof setTimeout> | undefined;
    const readClockSoon = () => {
      reading ??= setTimeout(() => {
        reading = undefined;
        void (latest.current.paused ? readResumed() : runsOn());
      }, Math.random() * CLOCK_READ_SPREAD_MS);
    };
    void followEventStream({
      address: addressOf("quizNotices"),
      token: () => token,
      signal: leaving.signal,
      onEvent: (event, data) => {
        if (event !== NOTICE_EVENT) return;
        const notice = noticeSchema.safeParse(JSON.parse(data));
        if (!notice.success) return;
        if (notice.data.kind === "message") dispatch({ type: "messageReceived", notice: notice.data });
        else if (notice.data.kind === "paused") dispatch({ type: "paused" });
        else readClockSoon();
      },
    });
    return () => {
      leaving.abort();
      clearTimeout(reading);
    };
  }, [followedAttempt, token, runsOn, readResumed]);

  useEffect(() => {
    if (!timeUp) return;
    void (async () => {
      // On a drive that gives lost connections their time back, a zero met out of contact waits to be heard: the
      // server holds a silent attempt open and gives its time back (decision 040), which a submit sent as soon as
      // the connection returned would throw away.
      if (givesTimeBack) {
        const cameBack = await heardAgain();
        if (cameBack !== false) return;
      }
      if (await runsOn()) return;
      const current = latest.current;
      if (current.phase !== "running" || current.moving) return;
      if (sectionFollows(current) && leaveRefusedAt.current === current.sectionFirst) return;
      if (current.paced) void advance();
      else if (!sectionFollows(current)) void submit();
      // The open section's clock ran out: on to the next section, unasked.
      else void leaveSection();
    })();
  }, [timeUp, givesTimeBack, heardAgain, runsOn, advance, leaveSection, submit]);

  // Picks still waiting are sent when the page is hidden, and as it unloads (a refresh, a closed tab) every
  // answer the server does not hold goes as a keep-alive request, which outlives the page.
  useEffect(() => {
    const onHidden = () => {
      if (document.visibilityState !== "hidden") return;
      for (const [questionId, { optionId, state: saveState }] of Object.entries(latest.current.unsaved)) {
        if (saveState === "waiting") void save(answerOf(questionId, optionId));
      }
    };
    const onPageHide = () => {
      stopWaiting();
      for (const [questionId, { optionId }] of Object.entries(latest.current.unsaved)) {
        void fetch(addressOf("saveAnswer"), {
          method: "PUT",
          keepalive: true,
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify(answerOf(questionId, optionId)),
        }).catch(() => undefined);
      }
    };
    document.addEventListener("visibilitychange", onHidden);
    window.addEventListener("pagehide", onPageHide);
    window.addEventListener("online", resendFailed);
    return () => {
      document.removeEventListener("visibilitychange", onHidden);
      window.removeEventListener("pagehide", onPageHide);
      window.removeEventListener("online", resendFailed);
    };
  }, [resendFailed, save, stopWaiting, token]);

  // Leaving the quiz (another tab or window) is recorded for the invigilator; the student is told once. A page that
  // unloads (a reload, a closed tab) hides itself too, but it has not lost focus to something else: the server
  // counts the quiz opened again as a reload instead. Unloading fires "pagehide" and the last "visibilitychange"
  // together, before any task runs, so the report waits one task and is dropped when the page is going.
  // Tab from the page's last control takes the focus into the browser's own bar: the window blurs as it does for
  // another window, though the student has not left (a newcomer's walk saw a keyboard user noted for it). Such a
  // blur counts only if the focus has not come back within TAB_OUT_GRACE_MS; going on from the bar to another tab
  // or window hides the page, which counts at once.
  // One departure is one leave, whatever the browser fires for it: switching tabs blurs the window and hides the
  // page, and coming back shows it before the focus returns (an outside attack counted two or three per switch,
  // halving a drive's limit). A departure ends when the focus comes back.
  useEffect(() => {
    if (!running) return;
    let unloading = false;
    let away = false;
    let tabbedAt = Number.NEGATIVE_INFINITY;
    let tabbedOut: ReturnType<typeof setTimeout> | undefined;
    const onPageHide = () => {
      unloading = true;
    };
    const onPageShow = () => {
      unloading = false;
      away = false;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Tab" && !event.ctrlKey && !event.altKey && !event.metaKey) tabbedAt = Date.now();
    };
    const stopWaitingForTabOut = () => {
      clearTimeout(tabbedOut);
      tabbedOut = undefined;
    };
    const onFocus = () => {
      stopWaitingForTabOut();
      away = false;
    };
    const report = () => {
      // A paused drive counts nobody leaving: the test is put away, and the server refuses the report.
      if (away || latest.current.paused) return;
      away = true;
      const position = latest.current.index;
      setTimeout(() => {
        if (unloading) return;
        dispatch({ type: "windowLeft" });
        void call("reportFocusLoss", { token, body: { position } })
          .then((noted) => {
            if (noted.resultId) finish(noted.resultId, ENDING_NOTICES.focus_limit);
            else dispatch({ type: "focusLossNoted", noted });
          })
          .catch(() => undefined);
      }, 0);
    };
    const record = (event: Event) => {
      if (document.visibilityState === "hidden") {
        stopWaitingForTabOut();
        report();
      } else if (document.hasFocus()) {
        // Shown again with the focus back, though no focus event said so.
        away = false;
      } else if (event.type === "blur") {
        if (Date.now() - tabbedAt > TAB_BLUR_MS) report();
        else
          tabbedOut ??= setTimeout(() => {
            tabbedOut = undefined;
            if (!document.hasFocus()) report();
          }, TAB_OUT_GRACE_MS);
      }
    };
    document.addEventListener("visibilitychange", record);
    window.addEventListener("blur", record);
    window.addEventListener("focus", onFocus);
    window.addEventListener("keydown", onKeyDown, true);
    window.addEventListener("pagehide", onPageHide);
    window.addEventListener("pageshow", onPageShow);
    return () => {
      clearTimeout(tabbedOut);
      document.removeEventListener("visibilitychange", record);
      window.removeEventListener("blur", record);
      window.removeEventListener("focus", onFocus);
      window.removeEventListener("keydown", onKeyDown, true);
      window.removeEventListener("pagehide", onPageHide);
      window.removeEventListener("pageshow", onPageShow);
    };
  }, [running, token, finish]);

  return { state, dispatch, open, load, pick, goOn, seeResult, toggleMark, clearResponse, askToLeave, leaveSection };
}
