// The quiz page in a simulated DOM on a flaky network: the network is scripted here (dropped connections, a
// proxy's HTML error page, a 5xx), and a small stand-in for the quiz API answers what gets through. The journeys
// in e2e/ run the same page against the real server.

import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { HEARTBEAT_EVERY_SECONDS, STORAGE_KEYS } from "@trainwise/contract/constants";
import { DRIVE_PAUSED_MESSAGE, NOTICE_EVENT, type Notice } from "@trainwise/contract/notices";
import type { AttemptState, QuizIntro, QuizQuestion } from "@trainwise/contract/quiz";
import { createRoutesStub, Link, useLocation, useNavigationType } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import Quiz from "./quiz.tsx";
import { clientLoader as resultGuard } from "./result.tsx";
import { CLOCK_READ_SPREAD_MS } from "./use-quiz-attempt.ts";

type Fault = "drop" | "proxy-502" | "json-503" | "room-403" | "paused-423";

const question = (n: number): QuizQuestion => ({
  _id: `00000000-0000-4000-8000-00000000000${n}`,
  text: `What is ${n} + ${n}?`,
  html: `<p>What is ${n} + ${n}?</p>`,
  category: "Aptitude",
  difficulty: "easy",
  options: [
    { _id: `00000000-0000-4000-9000-0000000000${n}1`, text: String(n + n), html: String(n + n) },
    { _id: `00000000-0000-4000-9000-0000000000${n}2`, text: String(n * 3), html: String(n * 3) },
  ],
});
const QUESTIONS = [question(1), question(2), question(3)];
const OUTSIDE_ROOM =
  "This test can only be taken from the places its organisers allowed, such as the college's own network; your connection comes from 203.0.113.9. Please ask the invigilator.";

/** What GET /quiz/intro answers unless a test says otherwise: a test that starts at once, as the original journey. */
const INTRO: QuizIntro = {
  status: "not_started",
  testName: "Campus quiz",
  driveName: "Campus drive",
  organisation: "Lakeview Institute",
  rulesFirst: false,
  sections: [],
  questionCount: QUESTIONS.length,
  secondsPerQuestion: 30,
  timingMode: "per_question",
  negativeMark: 0,
  passMark: null,
  reviewPolicy: "score_and_ticks",
  secure: false,
  attemptsAllowed: 1,
  attemptsUsed: 0,
  focusLossLimit: null,
  focusLossEndsAttempt: false,
  disconnectGraceSeconds: null,
  disconnectCreditMinutes: null,
  fullScreen: false,
  blockCopyPaste: false,
  resultId: null,
  endedBy: null,
  startRefusal: null,
};

/** The quiz API as far as this page needs it, holding what it was sent, behind a network that fails on cue. */
/**
 * The notices' streams a fake server holds open (decision 038), followed beside the quiz's requests for as long as
 * the quiz runs: kept out of the servers' logs of requests. `notify` pushes a notice down each open one and says
 * how many were open.
 */
function noticeStreams() {
  const open = new Set<ReadableStreamDefaultController<Uint8Array>>();
  return {
    open(init: RequestInit): Response {
      let opened: ReadableStreamDefaultController<Uint8Array> | undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          opened = controller;
          open.add(controller);
        },
      });
      init.signal?.addEventListener("abort", () => {
        if (!opened) return;
        open.delete(opened);
        opened.error(new DOMException("The page left.", "AbortError"));
      });
      return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
    },
    notify(notice: Notice): number {
      const event = new TextEncoder().encode(`event: ${NOTICE_EVENT}\ndata: ${JSON.stringify(notice)}\n\n`);
      for (const stream of open) stream.enqueue(event);
      return open.size;
    },
  };
}

function flakyServer(
  paced: boolean,
  intro: Partial<QuizIntro> | (() => Partial<QuizIntro>) = {},
  startRefused?: string,
  /** The drive's focus-loss rule, as the server tells it after each report (decision 035). */
  focusRule: { limit: number | null; endsAttempt: boolean } = { limit: null, endsAttempt: false },
) {
  let focusLosses = 0;
  /** Time an invigilator added, as the server's clock says it: seconds added, and then left when asked. */
  let added: { seconds: number; left: number } | undefined;
  /** When the drive was paused (decision 039): the server then refuses every change with 423. */
  let pausedAt: string | null = null;
  /** What the next heartbeat gives back for a lost connection (decision 040), and what was given back in all. */
  let creditNext = 0;
  let creditedTotal = 0;
  /** The connection is down: every request is lost on the way. */
  let offline = false;
  const stored = new Map<string, string>();
  const faults = new Map<string, Fault[]>();
  const log: string[] = [];
  let current = 0;
  let submitted: { questionId: string; optionId: string }[] | null = null;
  /** The palette as the server holds it: positions opened, and positions marked for review. */
  const visited = new Set<number>();
  const marked = new Set<number>();

  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  const notices = noticeStreams();

  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const request = `${init.method ?? "GET"} ${url.replace(/^\/api/, "")}`;
    if (request === "GET /quiz/notices") return notices.open(init);
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    if (offline) {
      log.push(`${request} ✗ offline`);
      throw new TypeError("Failed to fetch");
    }
    const fault = faults.get(request)?.shift();
    log.push(fault ? `${request} ✗ ${fault}` : request);
    if (fault === "drop") throw new TypeError("Failed to fetch");
    if (fault === "proxy-502") {
      return new Response("<html><body><h1>502 Bad Gateway</h1><hr><center>nginx</center></body></html>", {
        status: 502,
        headers: { "content-type": "text/html" },
      });
    }
    if (fault === "json-503") return json(503, { error: "The database is not answering. Try again shortly." });
    if (fault === "room-403") return json(403, { message: OUTSIDE_ROOM });
    if (fault === "paused-423") return json(423, { message: DRIVE_PAUSED_MESSAGE });
    const changes = init.method !== undefined && init.method !== "GET" && request !== "POST /quiz/start";
    if (pausedAt && changes) return json(423, { message: DRIVE_PAUSED_MESSAGE });

    switch (request) {
      case "GET /quiz/intro":
        return json(200, {
          ...INTRO,
          timingMode: paced ? "per_question" : "whole_quiz",
          ...(typeof intro === "function" ? intro() : intro),
        });
      case "GET /quiz/attempt":
      case "POST /quiz/start": {
        if (startRefused) return json(409, { error: startRefused });
        const asked = request === "GET /quiz/attempt";
        const state: AttemptState = {
          status: "in_progress",
          attemptId: "00000000-0000-4000-8000-0000000000aa",
          testName: "Campus quiz",
          timingMode: paced ? "per_question" : "whole_quiz",
          paced,
          sections: [],
          sectionFirst: 0,
          sectionEnd: QUESTIONS.length,
          totalQuestions: QUESTIONS.length,
          currentIndex: current,
          secondsLeft: asked ? (added?.left ?? 0) : paced ? 30 : 600,
          addedSeconds: added?.seconds ?? 0,
          creditedSeconds: creditedTotal,
          pausedAt,
          secondsPerQuestion: 30,
          answers: [...stored].map(([questionId, optionId]) => ({ questionId, optionId })),
          visited: [],
          marked: [],
          question: paced ? (QUESTIONS[current] ?? null) : null,
          questions: paced ? [] : QUESTIONS,
        };
        return json(200, state);
      }
      case "PUT /quiz/answers":
        stored.set(body.questionId, body.optionId);
        return json(200, { currentIndex: current, secondsLeft: 30 });
      case "POST /quiz/next":
        if (body.answer) stored.set(body.answer.questionId, body.answer.optionId);
        current = body.position;
        return json(200, { currentIndex: current, secondsLeft: 30, question: QUESTIONS[current] });
      case "POST /quiz/submit":
        submitted = body.answers;
        return json(200, { resultId: "00000000-0000-4000-8000-0000000000bb", refused: [] });
      case "POST /quiz/focus": {
        focusLosses++;
        const ends = focusRule.endsAttempt && focusRule.limit !== null && focusLosses >= focusRule.limit;
        return json(200, { focusLosses, ...focusRule, resultId: ends ? "00000000-0000-4000-8000-0000000000cc" : null });
      }
      case "POST /quiz/full-screen/exit":
        return new Response(null, { status: 204 });
      case "POST /quiz/heartbeat": {
        const creditedSeconds = creditNext;
        creditNext = 0;
        return json(200, { creditedSeconds, creditedInAll: creditedTotal });
      }
      case "PUT /quiz/palette": {
        visited.add(body.position);
        if (body.marked === true) marked.add(body.position);
        if (body.marked === false) marked.delete(body.position);
        const id = QUESTIONS[body.position]?._id;
        if (body.clear && id) stored.delete(id);
        return json(200, { currentIndex: current, secondsLeft: 600 });
      }
      default:
        return json(404, { error: `No route ${request}` });
    }
  });

  return {
    fetch,
    stored,
    visited,
    marked,
    log,
    submitted: () => submitted,
    /** An invigilator added `seconds`; the server's clock says `left` are left when asked. */
    timeAdded(seconds: number, left: number) {
      added = { seconds, left };
    },
    notify: notices.notify,
    /** The drive is paused (from now, the server refuses changes), or resumed with `left` seconds on the clock. */
    pause() {
      pausedAt = "2026-11-29T10:00:00.000Z";
    },
    resume(left: number) {
      pausedAt = null;
      added = { seconds: added?.seconds ?? 0, left };
    },
    /** The connection goes down, or comes back. */
    setOffline(down: boolean) {
      offline = down;
    },
    /**
     * A lost connection got `seconds` back (with whatever request ended it, or `onHeartbeat`, with the next
     * heartbeat, which then says so), and the server's clock then says `left`.
     */
    timeGivenBack(seconds: number, left: number, onHeartbeat = false) {
      if (onHeartbeat) creditNext = seconds;
      creditedTotal += seconds;
      added = { seconds: added?.seconds ?? 0, left };
    },
    failNext(request: string, ...next: Fault[]) {
      faults.set(request, [...(faults.get(request) ?? []), ...next]);
    },
  };
}

function ResultPage() {
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  return (
    <>
      <h1>Your result</h1>
      <p>Arrived by {useNavigationType()}</p>
      {notice && <p>{notice}</p>}
    </>
  );
}

function renderQuiz() {
  const Stub = createRoutesStub([
    { path: "/quiz", Component: Quiz, loader: () => ({ token: "student-token" }), HydrateFallback: () => null },
    { path: "/result/:id", Component: ResultPage },
  ]);
  render(<Stub initialEntries={["/quiz"]} />);
}

/** Lets timers and the promises they release run, as much time passing as given. */
async function wait(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

const optionLabel = (n: number, which: 0 | 1) => new RegExp(`^${"AB"[which]}\\. ${which === 0 ? n + n : n * 3}$`);

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the quiz page on a flaky network", () => {
  it("keeps a failed save on screen and sends it again before Next, until it lands", async () => {
    const server = flakyServer(false);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    expect(screen.getByRole("heading", { name: "What is 1 + 1?" })).toBeTruthy();

    // Every try of the pick's own save is lost: first retries, then the page gives up for now and says so.
    server.failNext("PUT /quiz/answers", "drop", "proxy-502", "json-503", "drop", "drop", "drop", "drop");
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(1, 0) }));
    await wait(2_000);
    expect(screen.getByRole("status").textContent).toBe("Your answer has not reached the server yet. Retrying…");
    await wait(20_000);
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toMatch(/^Your answer to question 1 could not be saved yet\./);
    expect(server.stored.size).toBe(0);

    // Next sends it again first; the notice stays while that try fails, and goes when one lands.
    server.failNext("PUT /quiz/answers", "drop");
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await wait(0);
    expect(screen.getByRole("heading", { name: "What is 2 + 2?" })).toBeTruthy();
    expect(screen.getByText(/Retrying…/)).toBeTruthy();
    await wait(1_000);
    expect(server.stored.get(QUESTIONS[0]?._id ?? "")).toBe(QUESTIONS[0]?.options[0]?._id);
    expect(screen.queryByText(/could not be saved yet|Retrying/)).toBeNull();
    expect(server.log.filter((request) => request === "PUT /quiz/answers")).toEqual(["PUT /quiz/answers"]);
  });

  it("sends an answer whose save failed again as soon as the browser is back online", async () => {
    const server = flakyServer(false);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    server.failNext("PUT /quiz/answers", ...Array<Fault>(7).fill("drop"));
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(1, 1) }));
    await wait(25_000);
    expect(screen.getByRole("alert").textContent).toMatch(/question 1 could not be saved yet/);

    window.dispatchEvent(new Event("online"));
    await wait(0);
    expect(server.stored.get(QUESTIONS[0]?._id ?? "")).toBe(QUESTIONS[0]?.options[1]?._id);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("retries a Next that meets a proxy's HTML error page or a 5xx, and moves on when it gets through", async () => {
    const server = flakyServer(true);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    server.failNext("POST /quiz/next", "proxy-502", "json-503");
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(1, 1) }));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await wait(0);
    expect(screen.getByText("Your answer has not reached the server yet. Retrying…")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Next" }).hasAttribute("disabled")).toBe(true);
    await wait(2_000);
    expect(screen.getByRole("heading", { name: "What is 2 + 2?" })).toBeTruthy();
    expect(screen.queryByText(/Retrying/)).toBeNull();
    // Next carried the answer: no save of its own, and the server holds it.
    expect(server.log).toEqual([
      "GET /quiz/intro",
      "POST /quiz/start",
      "POST /quiz/next ✗ proxy-502",
      "POST /quiz/next ✗ json-503",
      "POST /quiz/next",
    ]);
    expect(server.stored.get(QUESTIONS[0]?._id ?? "")).toBe(QUESTIONS[0]?.options[1]?._id);
  });

  it("says the exam room's refusal of a Next as the server says it, not as a lost connection (decision 035)", async () => {
    const server = flakyServer(true);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    server.failNext("POST /quiz/next", "room-403");
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(1, 1) }));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await wait(0);
    expect(screen.getByRole("alert").textContent).toBe(OUTSIDE_ROOM);
    expect(screen.getByRole("heading", { name: "What is 1 + 1?" })).toBeTruthy();
    // Back in the room, Next carries the answer again.
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await wait(0);
    expect(screen.getByRole("heading", { name: "What is 2 + 2?" })).toBeTruthy();
    expect(server.stored.get(QUESTIONS[0]?._id ?? "")).toBe(QUESTIONS[0]?.options[1]?._id);
  });

  it("keeps a Next that never got through as an unsaved answer, and carries it again on the next try", async () => {
    const server = flakyServer(true);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    server.failNext("POST /quiz/next", ...Array<Fault>(7).fill("drop"));
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(1, 0) }));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await wait(20_000);
    expect(screen.getByRole("heading", { name: "What is 1 + 1?" })).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toMatch(/^Your answer to question 1 could not be saved yet\./);

    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await wait(0);
    expect(screen.getByRole("heading", { name: "What is 2 + 2?" })).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(server.stored.get(QUESTIONS[0]?._id ?? "")).toBe(QUESTIONS[0]?.options[0]?._id);
  });

  it("submits every answer through a dropped connection and replaces the quiz in history with the result", async () => {
    const server = flakyServer(false);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    for (const [index, item] of QUESTIONS.entries()) {
      fireEvent.click(screen.getByRole("radio", { name: optionLabel(index + 1, 0) }));
      if (index < QUESTIONS.length - 1) fireEvent.click(screen.getByRole("button", { name: "Next" }));
      expect(item).toBeTruthy();
    }
    server.failNext("POST /quiz/submit", "drop", "proxy-502");
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    await wait(0);
    expect(screen.getByRole("button", { name: "Submitting…" }).hasAttribute("disabled")).toBe(true);
    await wait(2_000);
    expect(screen.getByRole("heading", { name: "Your result" })).toBeTruthy();
    // Back from the result must not land on a quiz that would send the student forward again.
    expect(screen.getByText("Arrived by REPLACE")).toBeTruthy();
    expect(server.submitted()).toEqual(
      QUESTIONS.map((item) => ({ questionId: item._id, optionId: item.options[0]?._id })),
    );
    expect(localStorage.getItem(STORAGE_KEYS.quizSubmitted)).toBe("true");
  });

  it("asks before a per-question test moves on with no answer", async () => {
    const server = flakyServer(true);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByRole("alertdialog", { name: /You have not answered this question/ })).toBeTruthy();
    expect(document.activeElement?.textContent).toBe("Stay on this question");
    fireEvent.click(screen.getByRole("button", { name: "Move on without an answer" }));
    await wait(0);
    expect(screen.getByRole("heading", { name: "What is 2 + 2?" })).toBeTruthy();
    expect(server.log).toEqual(["GET /quiz/intro", "POST /quiz/start", "POST /quiz/next"]);
  });
});

describe("an answer Next carried that the server did not take", () => {
  it("says so on the next question instead of showing it as saved, and never sends it again", async () => {
    const server = flakyServer(true);
    const refusal = "Time is up for that question; its answer can no longer change.";
    vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
      if (!url.endsWith("/quiz/next")) return server.fetch(url, init);
      server.log.push("POST /quiz/next");
      // The move is made, the answer is not: its window had closed before it arrived.
      const body = { currentIndex: 1, secondsLeft: 30, question: QUESTIONS[1], refused: refusal };
      return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
    });
    renderQuiz();
    await wait(0);
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(1, 0) }));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await wait(0);
    expect(screen.getByRole("heading", { name: "What is 2 + 2?" })).toBeTruthy();
    // Before: nothing said, and the answer counted as saved on the page while the server held none.
    expect(screen.getByRole("alert").textContent).toBe(`Your answer to question 1 did not count: ${refusal}`);
    await wait(30_000);
    expect(server.log.filter((request) => request === "PUT /quiz/answers")).toEqual([]);
  });
});

describe("submitting a whole-quiz test with questions unanswered", () => {
  it("names them, takes the student to the first, and submits without them only when told to", async () => {
    const server = flakyServer(false);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(1, 0) }));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    await wait(0);
    expect(
      screen.getByRole("alertdialog", {
        name: "You have not answered 2 questions: 2, 3. Once you submit, you cannot change your answers.",
      }),
    ).toBeTruthy();
    expect(document.activeElement?.textContent).toBe("Go to question 2");
    expect(server.log).not.toContain("POST /quiz/submit");

    fireEvent.click(screen.getByRole("button", { name: "Go to question 2" }));
    expect(screen.getByText("Question 2 of 3", { exact: true })).toBeTruthy();
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(2, 1) }));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    await wait(0);
    expect(screen.getByRole("alertdialog", { name: /You have not answered question 3\./ })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Submit without that answer" }));
    await wait(0);
    expect(screen.getByRole("heading", { name: "Your result" })).toBeTruthy();
    expect(server.submitted()).toEqual([
      { questionId: QUESTIONS[0]?._id, optionId: QUESTIONS[0]?.options[0]?._id },
      { questionId: QUESTIONS[1]?._id, optionId: QUESTIONS[1]?.options[1]?._id },
    ]);
  });
});

describe("the palette of a whole-quiz test", () => {
  it("shows each question's state, jumps, marks for review, clears a response, and names the marks at Submit", async () => {
    const server = flakyServer(false);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    const palette = screen.getByRole("navigation", { name: "Question palette" });
    const button = (label: RegExp) => within(palette).getByRole("button", { name: label });
    expect(button(/^Question 1: Opened, not answered \(open now\)$/)).toBeTruthy();
    expect(button(/^Question 2: Not visited$/)).toBeTruthy();

    fireEvent.click(screen.getByRole("radio", { name: optionLabel(1, 0) }));
    await wait(1600);
    expect(button(/^Question 1: Answered \(open now\)$/)).toBeTruthy();
    // Straight to question 3, and marked for review there.
    fireEvent.click(button(/^Question 3: Not visited$/));
    expect(screen.getByText("Question 3 of 3", { exact: true })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Mark for review" }));
    expect(screen.getByRole("button", { name: "Mark for review" }).getAttribute("aria-pressed")).toBe("true");
    expect(button(/^Question 3: Marked for review, not answered \(open now\)$/)).toBeTruthy();
    expect(button(/^Question 2: Not visited$/)).toBeTruthy();
    await wait(0);
    expect([...server.visited].sort()).toEqual([0, 2]);
    expect([...server.marked]).toEqual([2]);

    // Back to question 1: its answer cleared on the server too, so it is not scored.
    fireEvent.click(button(/^Question 1: Answered$/));
    fireEvent.click(screen.getByRole("button", { name: "Clear response" }));
    await wait(0);
    expect(button(/^Question 1: Opened, not answered \(open now\)$/)).toBeTruthy();
    expect(server.stored.has(QUESTIONS[0]?._id ?? "")).toBe(false);
    expect(screen.getByRole("button", { name: "Clear response" })).toHaveProperty("disabled", true);

    fireEvent.click(button(/^Question 3: Marked for review, not answered$/));
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(3, 1) }));
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    await wait(0);
    const dialog = screen.getByRole("alertdialog", {
      name:
        "You have not answered 2 questions: 1, 2. You marked question 3 for review. Once you submit, you cannot " +
        "change your answers.",
    });
    const counts = within(within(dialog).getByRole("list", { name: "Questions in each state" })).getAllByRole(
      "listitem",
    );
    expect(counts.map((count) => count.textContent)).toEqual([
      "✓Answered: 0",
      "Opened, not answered: 1",
      "Not visited: 1",
      "⚑Marked for review, not answered: 0",
      "✓⚑Answered and marked for review: 1",
    ]);
    fireEvent.click(screen.getByRole("button", { name: "Submit without those answers" }));
    await wait(0);
    expect(server.submitted()).toEqual([{ questionId: QUESTIONS[2]?._id, optionId: QUESTIONS[2]?.options[1]?._id }]);
  });

  it("shows a cleared answer again when the server does not take the clear", async () => {
    const server = flakyServer(false);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(1, 0) }));
    await wait(1600);
    server.failNext("PUT /quiz/palette", "drop", "drop", "drop", "drop", "drop", "drop", "drop");
    fireEvent.click(screen.getByRole("button", { name: "Clear response" }));
    await wait(60_000);
    expect(screen.getByRole("alert").textContent).toBe(
      "Your answer to question 1 was not cleared. Cannot reach the server. Check your connection and try again.",
    );
    expect(screen.getByRole("radio", { name: optionLabel(1, 0) })).toHaveProperty("checked", true);
    expect(server.stored.get(QUESTIONS[0]?._id ?? "")).toBe(QUESTIONS[0]?.options[0]?._id);
  });

  it("keeps a cleared answer cleared when its earlier save had failed, and never sends it again", async () => {
    const server = flakyServer(false);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    server.failNext("PUT /quiz/answers", "drop", "drop", "drop", "drop", "drop", "drop", "drop");
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(1, 0) }));
    await wait(4_000);
    // Cleared while the save is still being retried: the save gives up later, then the network returns.
    fireEvent.click(screen.getByRole("button", { name: "Clear response" }));
    await wait(60_000);
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    window.dispatchEvent(new Event("online"));
    await wait(5_000);
    expect(server.log.filter((line) => line === "PUT /quiz/answers")).toEqual([]);
    expect(server.stored.size).toBe(0);
    expect(screen.queryByText(/could not be saved yet/)).toBeNull();
    const palette = screen.getByRole("navigation", { name: "Question palette" });
    expect(
      within(palette)
        .getByRole("button", { name: /^Question 1: / })
        .getAttribute("aria-label"),
    ).toBe("Question 1: Opened, not answered");
  });

  it("asks the server at zero, and runs on with the time an invigilator added instead of submitting", async () => {
    const server = flakyServer(false);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(1, 0) }));
    server.timeAdded(300, 300);
    await wait(600_000);
    expect(server.log).toContain("GET /quiz/attempt");
    expect(server.submitted()).toBeNull();
    expect(screen.getByRole("heading", { name: "What is 1 + 1?" })).toBeTruthy();
    expect(screen.getByRole("timer").textContent).toBe("Time Left: 5:00 for the whole quiz");
    expect(politeRegion()).toBe("The invigilator added time: 5 min 0 s left.");
    // At the new zero nothing more was added: the page submits what it holds.
    await wait(300_000);
    expect(server.submitted()).toEqual([{ questionId: QUESTIONS[0]?._id, optionId: QUESTIONS[0]?.options[0]?._id }]);
  });

  it("shows the invigilator's message, and the time added as soon as it is added, from the notices' stream", async () => {
    const server = flakyServer(false);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    const sentAt = "2026-11-29T10:00:00.000Z";
    const message = { _id: "00000000-0000-4000-a000-000000000001", kind: "message", text: "Calculators away.", sentAt };
    expect(server.notify(message as Notice)).toBe(1);
    await wait(0);
    const shown = screen.getByRole("region", { name: "Message from the invigilator" });
    expect(within(shown).getByText(/Calculators away\./)).toBeTruthy();
    expect(politeRegion()).toBe("Message from the invigilator: Calculators away.");
    // A minute in, five minutes are added (twice, by two clicks): the page shows them within seconds, not at its
    // zero, and reads its clock once for both.
    await wait(60_000);
    server.timeAdded(600, 1140);
    const reads = () => server.log.filter((request) => request === "GET /quiz/attempt").length;
    const before = reads();
    // The page's random wait before it reads, at its longest.
    vi.spyOn(Math, "random").mockReturnValue(1);
    server.notify({ _id: "00000000-0000-4000-a000-000000000002", kind: "time-added", text: null, sentAt });
    server.notify({ _id: "00000000-0000-4000-a000-000000000003", kind: "time-added", text: null, sentAt });
    await wait(CLOCK_READ_SPREAD_MS);
    expect(screen.getByRole("timer").textContent).toBe("Time Left: 19:00 for the whole quiz");
    expect(politeRegion()).toBe("The invigilator added time: 19 min 0 s left.");
    expect(reads() - before).toBe(1);
    expect(server.submitted()).toBeNull();
  });

  it("on a drive that gives lost connections their time back, beats every 15 s, and reads its clock when time came back", async () => {
    const server = flakyServer(false, { disconnectGraceSeconds: 60, disconnectCreditMinutes: 5 });
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    const beats = () => server.log.filter((request) => request === "POST /quiz/heartbeat").length;
    await wait(HEARTBEAT_EVERY_SECONDS * 1000);
    expect(beats()).toBe(1);
    await wait(HEARTBEAT_EVERY_SECONDS * 1000);
    expect(beats()).toBe(2);
    // The next beat gets 40 s back: the page reads the server's clock at once, not its own 9:15.
    server.timeGivenBack(40, 595, true);
    await wait(HEARTBEAT_EVERY_SECONDS * 1000);
    await wait(0);
    expect(screen.getByRole("timer").textContent).toMatch(/^Time Left: 9:5[45] for the whole quiz$/);
    expect(politeRegion()).toBe("Time lost with your connection was given back (40 seconds): 9 min 55 s left.");

    // Ten seconds before the page's zero, an answer sent as the connection returned got 30 s back: at its zero the
    // page learns of it, and runs on. In steps, so that the page draws what it heard between its beats.
    for (let step = 0; step < 39; step++) await wait(15_000);
    expect(screen.getByRole("timer").textContent).toMatch(/^Time Left: 0:(0\d|1\d) for the whole quiz$/);
    server.timeGivenBack(30, 40);
    await wait(20_000);
    expect(server.submitted()).toBeNull();
    expect(screen.getByRole("timer").textContent).toMatch(/^Time Left: 0:[23]\d for the whole quiz$/);
    expect(screen.getByRole("heading", { name: "What is 1 + 1?" })).toBeTruthy();
    expect(politeRegion()).toMatch(/^Time lost with your connection was given back \(30 seconds\)/);
  });

  it("on a drive that gives lost connections their time back, submits nothing at a zero met out of contact, and runs on with the time given back", async () => {
    const server = flakyServer(false, { disconnectGraceSeconds: 60, disconnectCreditMinutes: 5 });
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    server.setOffline(true);
    // The page's ten minutes run out while the connection is down, and a minute more passes.
    await wait(660_000);
    expect(server.log.filter((request) => request.startsWith("POST /quiz/submit"))).toEqual([]);
    expect(server.log.filter((request) => request === "POST /quiz/heartbeat ✗ offline").length).toBeGreaterThan(40);
    // Back: the server gave the silence beyond its grace back and says 2 minutes are left.
    server.timeGivenBack(300, 120, true);
    server.setOffline(false);
    await wait(2_000);
    await wait(0);
    expect(screen.getByRole("timer").textContent).toMatch(/^Time Left: (2:00|1:59) for the whole quiz$/);
    expect(screen.getByRole("heading", { name: "What is 1 + 1?" })).toBeTruthy();
    expect(server.submitted()).toBeNull();
  });

  it("sends no heartbeat on a drive that gives no time back", async () => {
    const server = flakyServer(false);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    await wait(60_000);
    expect(server.log).not.toContain("POST /quiz/heartbeat");
  });

  it("stops its clock and puts the question away while the drive is paused, and goes on with the server's time", async () => {
    const server = flakyServer(false);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    await wait(60_000);
    expect(screen.getByRole("timer").textContent).toBe("Time Left: 9:00 for the whole quiz");
    // The drive pauses before word of it arrives: the pick's save meets the refusal, and the page pauses on it.
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(1, 0) }));
    server.pause();
    await wait(1_500);
    expect(server.log).toContain("PUT /quiz/answers");
    expect(screen.getByRole("heading", { name: "Test paused" })).toBe(document.activeElement);
    expect(within(screen.getByRole("region", { name: "Test paused" })).getByText(DRIVE_PAUSED_MESSAGE)).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "What is 1 + 1?" })).toBeNull();
    expect(politeRegion()).toBe(DRIVE_PAUSED_MESSAGE);
    // Two minutes of pause: the clock stands where the page learned of it, and nothing is submitted at its old zero.
    await wait(120_000);
    expect(screen.getByRole("timer").textContent).toBe("Time Left: 8:59 for the whole quiz (paused)");
    // Resumed without word of it reaching the page (its stream was down): it finds out within its next check.
    server.resume(540);
    await wait(30_000);
    expect(screen.getByRole("heading", { name: "What is 1 + 1?" })).toBe(document.activeElement);
    expect(screen.getByRole("timer").textContent).toBe("Time Left: 9:00 for the whole quiz");
    expect(politeRegion()).toBe("The test goes on: 9 min 0 s left.");
    // The answer the pause refused went again, and landed.
    await wait(0);
    expect(server.stored.get(QUESTIONS[0]?._id as string)).toBe(QUESTIONS[0]?.options[0]?._id);

    // Paused again, said down the stream this time, and resumed the same way.
    const sentAt = "2026-11-29T10:05:00.000Z";
    server.pause();
    server.notify({ _id: "00000000-0000-4000-a000-000000000011", kind: "paused", text: null, sentAt });
    await wait(0);
    expect(screen.getByRole("heading", { name: "Test paused" })).toBeTruthy();
    await wait(60_000);
    vi.spyOn(Math, "random").mockReturnValue(1);
    server.resume(500);
    server.notify({ _id: "00000000-0000-4000-a000-000000000012", kind: "resumed", text: null, sentAt });
    await wait(CLOCK_READ_SPREAD_MS);
    expect(screen.getByRole("heading", { name: "What is 1 + 1?" })).toBeTruthy();
    expect(screen.getByRole("timer").textContent).toBe("Time Left: 8:20 for the whole quiz");
    expect(server.submitted()).toBeNull();
  });

  it("waits for a paused drive to be resumed before its first question, trying the start again by itself", async () => {
    const server = flakyServer(false);
    server.failNext("POST /quiz/start", "paused-423", "paused-423");
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    expect(screen.getByRole("status").textContent).toBe(
      "The invigilator has paused the test. You can start once they resume it: this page tries again by itself.",
    );
    await wait(30_000);
    expect(screen.queryByRole("heading", { name: "What is 1 + 1?" })).toBeNull();
    // Resumed: the next try starts the quiz.
    await wait(30_000);
    expect(screen.getByRole("heading", { name: "What is 1 + 1?" })).toBeTruthy();
    expect(server.log.filter((request) => request.startsWith("POST /quiz/start"))).toHaveLength(3);
  });

  it("pauses at its zero, instead of submitting, when the server says the drive is paused", async () => {
    // Word of the pause never reached the page (its stream was down): its own clock reaches zero meanwhile.
    const server = flakyServer(false);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    server.pause();
    await wait(600_000);
    expect(server.log).toContain("GET /quiz/attempt");
    expect(screen.getByRole("heading", { name: "Test paused" })).toBeTruthy();
    expect(server.log.some((request) => request.startsWith("POST /quiz/submit"))).toBe(false);
  });

  it("takes its own clock running fast for no time added, and moves on at its zero", async () => {
    // The server's clock still has 20 s of the question, but nobody added any: the page does what its timer does.
    const server = flakyServer(true);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    server.timeAdded(0, 20);
    await wait(30_000);
    expect(server.log).toContain("GET /quiz/attempt");
    expect(server.log).toContain("POST /quiz/next");
    expect(politeRegion()).not.toMatch(/added time/);
  });

  it("reopens the question that was open when the page is reloaded", async () => {
    const server = flakyServer(false);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByText("Question 3 of 3", { exact: true })).toBeTruthy();
    await wait(0);
    cleanup();
    renderQuiz();
    await wait(0);
    expect(screen.getByText("Question 3 of 3", { exact: true })).toBeTruthy();
  });

  it("has no palette on a per-question test", async () => {
    vi.stubGlobal("fetch", flakyServer(true).fetch);
    renderQuiz();
    await wait(0);
    expect(screen.getByText("Question 1 of 3", { exact: true })).toBeTruthy();
    expect(screen.queryByRole("navigation", { name: "Question palette" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Mark for review" })).toBeNull();
  });
});

describe("leaving the quiz window", () => {
  const focusReports = (server: ReturnType<typeof flakyServer>) =>
    server.log.filter((line) => line === "POST /quiz/focus").length;

  it("notes a window left, but not Tab from the last control into the browser's bar and back", async () => {
    const server = flakyServer(false);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    const focused = vi.spyOn(document, "hasFocus");

    // Tab past the page's last control: the window blurs, and the focus comes back within the grace.
    focused.mockReturnValue(false);
    fireEvent.keyDown(window, { key: "Tab" });
    fireEvent.blur(window);
    await wait(5_000);
    focused.mockReturnValue(true);
    fireEvent.focus(window);
    await wait(20_000);
    expect(focusReports(server)).toBe(0);
    expect(screen.queryByText(/You left the quiz window/)).toBeNull();

    // Tab into the bar and staying there past the grace counts.
    focused.mockReturnValue(false);
    fireEvent.keyDown(window, { key: "Tab" });
    fireEvent.blur(window);
    await wait(10_500);
    expect(focusReports(server)).toBe(1);
    focused.mockReturnValue(true);
    fireEvent.focus(window);

    // Another window, with no Tab before it, counts at once.
    focused.mockReturnValue(false);
    await wait(1_000);
    fireEvent.blur(window);
    await wait(0);
    expect(focusReports(server)).toBe(2);
    expect(screen.getByText(/You left the quiz window/)).toBeTruthy();
    focused.mockRestore();
  });

  it("counts one leave for each switch to another tab, whatever events the browser fires for it", async () => {
    const server = flakyServer(false);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    const focused = vi.spyOn(document, "hasFocus");
    let visibility: DocumentVisibilityState = "visible";
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => visibility });
    const switchTabAndBack = async () => {
      // As Chromium does: the window blurs, the page hides; back, the page shows before the focus returns.
      focused.mockReturnValue(false);
      fireEvent.blur(window);
      visibility = "hidden";
      document.dispatchEvent(new Event("visibilitychange"));
      await wait(2_000);
      visibility = "visible";
      document.dispatchEvent(new Event("visibilitychange"));
      focused.mockReturnValue(true);
      fireEvent.focus(window);
      await wait(1_000);
    };
    await switchTabAndBack();
    expect(focusReports(server)).toBe(1);
    await switchTabAndBack();
    expect(focusReports(server)).toBe(2);
    Reflect.deleteProperty(document, "visibilityState");
    focused.mockRestore();
  });
});

describe("a drive's focus-loss limit (decision 035)", () => {
  it("shows its rule and waits for Start, even on a test that starts at once", async () => {
    // An outside attack: on a test without rules first, the quiz started at once and the candidate never read the
    // limit that could end it.
    const server = flakyServer(false, { focusLossLimit: 2, focusLossEndsAttempt: true });
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    expect(screen.getByRole("button", { name: "Start" })).toBeTruthy();
    expect(screen.getByText(/Leaving it 2 times submits your quiz with the answers given so far/)).toBeTruthy();
    expect(server.log).not.toContain("POST /quiz/start");
    fireEvent.click(screen.getByRole("button", { name: "Start" }));
    await wait(0);
    expect(server.log).toContain("POST /quiz/start");
    expect(screen.getByRole("heading", { name: "What is 1 + 1?" })).toBeTruthy();
  });

  it("says why a start would be refused instead of offering Start, and starts nothing", async () => {
    const refusal =
      "Entry to this test closed at 10:15 on 3 December (India Standard Time), 15 minutes after it opened. Please speak to the invigilator.";
    const server = flakyServer(false, { startRefusal: refusal });
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    expect(screen.getByRole("alert").textContent).toBe(refusal);
    expect(screen.queryByRole("button", { name: "Start" })).toBeNull();
    expect(server.log).not.toContain("POST /quiz/start");
  });

  it("warns after each time the window is left, and the server's submit at the limit leads to the result", async () => {
    const server = flakyServer(false, { focusLossLimit: 2, focusLossEndsAttempt: true }, undefined, {
      limit: 2,
      endsAttempt: true,
    });
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    fireEvent.click(screen.getByRole("button", { name: "Start" }));
    await wait(0);
    const focused = vi.spyOn(document, "hasFocus");
    focused.mockReturnValue(false);
    fireEvent.blur(window);
    await wait(0);
    expect(
      screen.getByText(
        "You have left the quiz window 1 time. This drive submits your quiz when you leave it 2 times: 1 more time ends it.",
      ),
    ).toBeTruthy();
    focused.mockReturnValue(true);
    fireEvent.focus(window);
    await wait(1_000);
    focused.mockReturnValue(false);
    fireEvent.blur(window);
    await wait(0);
    expect(screen.getByRole("heading", { name: "Your result" })).toBeTruthy();
    expect(
      screen.getByText(
        "Your quiz was submitted because you left the quiz window as many times as this drive allows. Your answers until then count.",
      ),
    ).toBeTruthy();
    focused.mockRestore();
  });

  it("on a drive that only warns, says how many times it allows", async () => {
    const server = flakyServer(false, {}, undefined, { limit: 3, endsAttempt: false });
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    vi.spyOn(document, "hasFocus").mockReturnValue(false);
    fireEvent.blur(window);
    await wait(0);
    expect(
      screen.getByText(
        "You have left the quiz window 1 time; this drive allows 3 times. Each time is noted for your invigilator.",
      ),
    ).toBeTruthy();
    vi.mocked(document.hasFocus).mockRestore();
  });
});

describe("the drive's exam-room rules on the test's screen (decision 035)", () => {
  it("turns off copy, paste and the context menu while the quiz runs, and only on a drive that says so", async () => {
    const server = flakyServer(false, { blockCopyPaste: true });
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    fireEvent.click(screen.getByRole("button", { name: "Start" }));
    await wait(0);
    const heading = screen.getByRole("heading", { name: "What is 1 + 1?" });
    for (const type of ["copy", "cut", "paste", "contextmenu"]) {
      const event = new Event(type, { bubbles: true, cancelable: true });
      heading.dispatchEvent(event);
      expect(event.defaultPrevented, type).toBe(true);
    }
    cleanup();
    const free = flakyServer(false);
    vi.stubGlobal("fetch", free.fetch);
    renderQuiz();
    await wait(0);
    const copy = new Event("copy", { bubbles: true, cancelable: true });
    screen.getByRole("heading", { name: "What is 1 + 1?" }).dispatchEvent(copy);
    expect(copy.defaultPrevented).toBe(false);
  });

  it("asks for full screen, and tells the server each time the student leaves it", async () => {
    const server = flakyServer(false, { fullScreen: true, rulesFirst: true });
    vi.stubGlobal("fetch", server.fetch);
    let fullScreenElement: Element | null = null;
    Object.defineProperty(document, "fullscreenElement", { configurable: true, get: () => fullScreenElement });
    const requested = vi.fn(async () => {
      fullScreenElement = document.documentElement;
      document.dispatchEvent(new Event("fullscreenchange"));
    });
    document.documentElement.requestFullscreen = requested;
    renderQuiz();
    await wait(0);
    expect(screen.getByText(/The test asks for full screen; each time you leave it is noted/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Start" }));
    await wait(0);
    expect(requested).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("button", { name: "Enter full screen" })).toBeNull();

    // Escape leaves full screen: counted, said, and the way back offered.
    fullScreenElement = null;
    document.dispatchEvent(new Event("fullscreenchange"));
    await wait(0);
    expect(server.log.filter((line) => line === "POST /quiz/full-screen/exit")).toHaveLength(1);
    expect(
      screen.getByText(
        "This drive asks you to take the test in full screen. You have left full screen 1 time; each is noted for your invigilator.",
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Enter full screen" }));
    await wait(0);
    expect(requested).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole("button", { name: "Enter full screen" })).toBeNull();
    Reflect.deleteProperty(document, "fullscreenElement");
  });
});

describe("the rules before the clock (decision 026)", () => {
  it("shows a rules-first test's rules and starts nothing until Start", async () => {
    const server = flakyServer(true, { rulesFirst: true, negativeMark: 0.25, passMark: 60 });
    vi.stubGlobal("fetch", server.fetch);
    sessionStorage.setItem("resumeCode", "K7QM-29XD");
    renderQuiz();
    await wait(0);
    expect(screen.getByRole("heading", { level: 1, name: "Campus quiz" })).toBeTruthy();
    expect(screen.getByText(/Negative marking: 0\.25 marks off for each wrong answer\./)).toBeTruthy();
    expect(screen.getByText("You pass with 60% or more.")).toBeTruthy();
    expect(screen.getByText("30 seconds for each question. Once you move on you cannot go back.")).toBeTruthy();
    expect(screen.getByRole("region", { name: "Your resume code" }).textContent).toContain("K7QM-29XD");
    // Reading the rules for a minute starts no clock: the server has not been asked to start.
    await wait(60_000);
    expect(server.log).toEqual(["GET /quiz/intro"]);

    fireEvent.click(screen.getByRole("button", { name: "Start" }));
    await wait(0);
    expect(server.log).toEqual(["GET /quiz/intro", "POST /quiz/start"]);
    expect(screen.getByRole("heading", { name: "What is 1 + 1?" })).toBeTruthy();
    expect(screen.getByRole("timer").textContent).toBe("Time Left: 30 seconds");
    // The code was shown before the clock; it does not come back above a timed question.
    expect(screen.queryByRole("region", { name: "Your resume code" })).toBeNull();
    sessionStorage.clear();
  });

  it("says, among the rules, what a lost connection gets back on a drive that gives it (decision 040)", async () => {
    const server = flakyServer(true, { rulesFirst: true, disconnectGraceSeconds: 45, disconnectCreditMinutes: 5 });
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    expect(
      screen.getByText(
        "Keep this page open. Time lost beyond 45 seconds without a connection is given back when the page reaches the server again, up to 5 minutes in all.",
      ),
    ).toBeTruthy();
  });

  it("leads a student with no attempt left to their result instead of an error", async () => {
    const resultId = "00000000-0000-4000-8000-0000000000cc";
    const server = flakyServer(true, { status: "completed", attemptsUsed: 1, resultId });
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    expect(screen.getByRole("heading", { name: "You have already completed Campus quiz" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "See your result" }));
    await wait(0);
    expect(screen.getByRole("heading", { name: "Your result" })).toBeTruthy();
    expect(localStorage.getItem(STORAGE_KEYS.quizSubmitted)).toBe("true");
    expect(server.log).toEqual(["GET /quiz/intro"]);
  });

  it("leads to the result, not to the refusal, when the last attempt ran out while the student was away", async () => {
    // The page read a running attempt; the server closed it meanwhile, and a start is refused: no attempt left.
    let reads = 0;
    const resultId = "00000000-0000-4000-8000-0000000000dd";
    const server = flakyServer(
      true,
      () =>
        ++reads === 1 ? { status: "in_progress", attemptsUsed: 1 } : { status: "completed", attemptsUsed: 1, resultId },
      "You have already completed the quiz. Ask an admin if you need another attempt.",
    );
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    expect(server.log).toEqual(["GET /quiz/intro", "POST /quiz/start", "GET /quiz/intro"]);
    expect(screen.getByRole("heading", { name: "You have already completed Campus quiz" })).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByRole("button", { name: "See your result" })).toBeTruthy();
  });
});

describe("the result page's guard", () => {
  it("replaces the history entry when a visitor who has not just submitted is sent to registration", async () => {
    function Register() {
      return <p>Arrived by {useNavigationType()}</p>;
    }
    localStorage.setItem(STORAGE_KEYS.studentToken, "student-token");
    const Stub = createRoutesStub([
      { path: "/", Component: () => <Link to="/result/abc">See a result</Link> },
      { path: "/result/:id", Component: ResultPage, loader: (args) => resultGuard(args as never) },
      { path: "/student/register", Component: Register },
    ]);
    vi.useRealTimers();
    render(<Stub initialEntries={["/"]} />);
    fireEvent.click(await screen.findByRole("link", { name: "See a result" }));
    // A redirect that pushed would arrive as PUSH, and Back would return to the page that sends the visitor away.
    expect(await screen.findByText("Arrived by REPLACE")).toBeTruthy();
  });
});

/**
 * A test timed per section: Quantitative Aptitude (questions 1–3, one clock of 10 minutes), Logical Reasoning
 * (4–5, 30 seconds a question) and Verbal Ability (6–7, one clock of 5 minutes), as the quiz API serves it: only the
 * open section takes answers and palette changes, and leaving one opens the next.
 */
const SECTIONED = [1, 2, 3, 4, 5, 6, 7].map(question);
const SECTIONS = [
  { name: "Quantitative Aptitude", firstPosition: 0, questionCount: 3, paced: false, seconds: 600 },
  { name: "Logical Reasoning", firstPosition: 3, questionCount: 2, paced: true, seconds: 30 },
  { name: "Verbal Ability", firstPosition: 5, questionCount: 2, paced: false, seconds: 300 },
];

function sectionedServer(openSection = 0) {
  const stored = new Map<string, string>();
  const marked = new Set<number>();
  const visited = new Set<number>();
  const log: string[] = [];
  const bodies: Record<string, unknown>[] = [];
  let open = openSection;
  let current = SECTIONS[open]?.firstPosition ?? 0;
  // The open section's clock (or the open question's window, in a paced section) ends at this time.
  let deadline = Date.now() + (SECTIONS[open]?.seconds ?? 0) * 1000;
  let submitted: unknown = null;
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const section = () => SECTIONS[open] as (typeof SECTIONS)[number];
  const inSection = (position: number) =>
    position >= section().firstPosition && position < section().firstPosition + section().questionCount;
  const state = (): AttemptState => {
    const { paced, firstPosition, questionCount, seconds } = section();
    const sectionEnd = firstPosition + questionCount;
    return {
      status: "in_progress",
      attemptId: "00000000-0000-4000-8000-0000000000aa",
      testName: "Placement test",
      timingMode: "per_section",
      paced,
      sections: SECTIONS.map(({ name, firstPosition, questionCount }) => ({ name, firstPosition, questionCount })),
      sectionFirst: firstPosition,
      sectionEnd,
      totalQuestions: SECTIONED.length,
      currentIndex: paced ? current : firstPosition,
      secondsLeft: Math.max(0, Math.ceil((deadline - Date.now()) / 1000)),
      secondsPerQuestion: paced ? seconds : seconds / questionCount,
      answers: [...stored].map(([questionId, optionId]) => ({ questionId, optionId })),
      visited: [...visited].map((position) => SECTIONED[position]?._id ?? ""),
      marked: [...marked].map((position) => SECTIONED[position]?._id ?? ""),
      question: paced ? (SECTIONED[current] ?? null) : null,
      // The open section's own, as the server sends them.
      questions: paced ? [] : SECTIONED.slice(firstPosition, sectionEnd),
      questionsFrom: paced ? undefined : firstPosition,
    };
  };
  const positionOf = (id: string) => SECTIONED.findIndex((item) => item._id === id);

  const notices = noticeStreams();
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const request = `${init.method ?? "GET"} ${url.replace(/^\/api/, "")}`;
    if (request === "GET /quiz/notices") return notices.open(init);
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    log.push(request);
    if (body) bodies.push({ request, ...body });
    switch (request) {
      case "GET /quiz/intro":
        return json(200, { ...INTRO, testName: "Placement test", timingMode: "per_section", status: "in_progress" });
      case "POST /quiz/start":
        return json(200, state());
      case "PUT /quiz/answers":
        if (!inSection(positionOf(body.questionId))) return json(409, { error: "That question's section is closed." });
        stored.set(body.questionId, body.optionId);
        return json(200, { currentIndex: current, secondsLeft: 30 });
      case "PUT /quiz/palette":
        if (!inSection(body.position)) return json(409, { error: "That question's section is closed." });
        visited.add(body.position);
        if (body.marked === true) marked.add(body.position);
        if (body.marked === false) marked.delete(body.position);
        return json(200, { currentIndex: current, secondsLeft: 600 });
      case "POST /quiz/next":
        if (!section().paced || !inSection(body.position)) return json(409, { error: "You can only move on." });
        if (body.answer) stored.set(body.answer.questionId, body.answer.optionId);
        current = body.position;
        deadline = Date.now() + section().seconds * 1000;
        return json(200, { currentIndex: current, secondsLeft: section().seconds, question: SECTIONED[current] });
      case "POST /quiz/section/next":
        if (body.sectionFirst === section().firstPosition) {
          if (open === SECTIONS.length - 1) {
            return json(409, { error: "This is the last section: submit the quiz to finish." });
          }
          open += 1;
          current = section().firstPosition;
          deadline = Date.now() + section().seconds * 1000;
        }
        return json(200, state());
      case "POST /quiz/submit":
        submitted = body.answers;
        return json(200, { resultId: "00000000-0000-4000-8000-0000000000bb", refused: [] });
      case "POST /quiz/focus":
        return json(200, {});
      default:
        return json(404, { error: `No route ${request}` });
    }
  });
  return { fetch, stored, marked, log, bodies, submitted: () => submitted, openSection: () => open };
}

const politeRegion = () => document.querySelector('[aria-live="polite"]')?.textContent;

describe("a test timed per section", () => {
  it("shows only the open section's questions, and Leave section asks first, naming what is left to look at", async () => {
    const server = sectionedServer();
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    expect(screen.getByRole("timer").textContent).toBe("Time left in Quantitative Aptitude: 10:00");
    const palette = screen.getByRole("navigation", { name: "Question palette" });
    expect(
      within(palette)
        .getAllByRole("button")
        .map((button) => button.getAttribute("aria-label")),
    ).toEqual(["Question 1: Opened, not answered (open now)", "Question 2: Not visited", "Question 3: Not visited"]);
    expect(within(palette).getAllByText(/^Not open yet/)).toHaveLength(2);
    expect(screen.queryByRole("button", { name: "Previous" })).toBeNull();

    // An answer, a mark on question 2, then Leave section on question 2.
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(1, 0) }));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    fireEvent.click(screen.getByRole("button", { name: "Mark for review" }));
    fireEvent.click(screen.getByRole("button", { name: "Leave section" }));
    const summary = screen.getByRole("alertdialog", {
      name:
        "Leave Quantitative Aptitude? You have not answered 2 questions: 2, 3. You marked question 2 for review. " +
        "You cannot come back to this section.",
    });
    const counts = within(summary).getAllByRole("listitem");
    expect(counts.map((count) => count.textContent)).toEqual([
      "✓Answered: 1",
      "Opened, not answered: 0",
      "Not visited: 1",
      "⚑Marked for review, not answered: 1",
      "✓⚑Answered and marked for review: 0",
    ]);
    expect(document.activeElement?.textContent).toBe("Stay in this section");

    // Escape closes it, and the student stays where they were.
    fireEvent.keyDown(document.activeElement as Element, { key: "Escape" });
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "What is 2 + 2?" }));
    expect(server.log).not.toContain("POST /quiz/section/next");

    // The section's last question has no Next: its main button leaves the section, through the same summary.
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByText("Question 3 of 7", { exact: true })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Next" })).toBeNull();
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(3, 1) }));
    fireEvent.click(screen.getByRole("button", { name: "Leave section" }));
    const again = screen.getByRole("alertdialog", { name: /^Leave Quantitative Aptitude\?/ });
    fireEvent.click(within(again).getByRole("button", { name: "Leave section" }));
    await wait(0);

    // The pick still waiting was saved first, in the same queue, then the section left by its first position.
    const leaving = server.log.indexOf("POST /quiz/section/next");
    expect(server.log.slice(leaving - 1, leaving + 1)).toEqual(["PUT /quiz/answers", "POST /quiz/section/next"]);
    expect(server.bodies.filter((body) => body.request === "POST /quiz/section/next")).toEqual([
      { request: "POST /quiz/section/next", sectionFirst: 0 },
    ]);
    expect(server.stored.get(SECTIONED[2]?._id ?? "")).toBe(SECTIONED[2]?.options[1]?._id);
    const heading = screen.getByRole("heading", { name: "What is 4 + 4?" });
    expect(document.activeElement).toBe(heading);
    expect(politeRegion()).toBe("Section 2 of 3: Logical Reasoning. Question 4 of 7. You have 30 seconds.");
    expect(screen.getByRole("timer").textContent).toBe("Time left in Logical Reasoning: 30 seconds for this question");
  });

  it("leaves a section on its own clock, unasked, when its time runs out", async () => {
    const server = sectionedServer();
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    fireEvent.click(screen.getByRole("button", { name: "Leave section" }));
    expect(screen.getByRole("alertdialog")).toBeTruthy();
    await wait(600_000);
    expect(server.bodies.filter((body) => body.request === "POST /quiz/section/next")).toEqual([
      { request: "POST /quiz/section/next", sectionFirst: 0 },
    ]);
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(screen.getByRole("heading", { name: "What is 4 + 4?" })).toBeTruthy();
    expect(server.openSection()).toBe(1);
    // Said, not only done: the section closed by its clock, and nothing given in it was lost.
    const notice = "Time is up for Quantitative Aptitude: your answers in it are saved.";
    expect(screen.getByText(notice)).toBeTruthy();
    expect(politeRegion()).toBe(`${notice} Section 2 of 3: Logical Reasoning. Question 4 of 7. You have 30 seconds.`);
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(4, 0) }));
    expect(screen.queryByText(notice)).toBeNull();
  });

  it("holds the section's answers still while it is being left, and says so when the connection drops meanwhile", async () => {
    const server = sectionedServer();
    let drops = 2;
    vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
      if (url.endsWith("/quiz/section/next") && drops-- > 0) throw new TypeError("Failed to fetch");
      return server.fetch(url, init);
    });
    renderQuiz();
    await wait(0);
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(1, 0) }));
    fireEvent.click(screen.getByRole("button", { name: "Leave section" }));
    fireEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Leave section" }));
    await wait(100);
    // Before: "Your answer has not reached the server yet" (the answer had), and the options still took picks
    // that the page then dropped with the closed section.
    expect(screen.getByRole("status").textContent).toBe(
      "Leaving this section: the connection dropped, and the page is trying again…",
    );
    const options = screen.getAllByRole("radio");
    expect(options.every((option) => option.matches(":disabled"))).toBe(true);
    expect(screen.getByRole("button", { name: "Mark for review" }).hasAttribute("disabled")).toBe(true);
    const palette = screen.getByRole("navigation", { name: "Question palette" });
    expect(
      within(palette)
        .getAllByRole("button")
        .every((button) => button.hasAttribute("disabled")),
    ).toBe(true);
    await wait(20_000);
    expect(screen.getByRole("heading", { name: "What is 4 + 4?" })).toBeTruthy();
    expect(server.stored.get(SECTIONED[0]?._id ?? "")).toBe(SECTIONED[0]?.options[0]?._id);
    expect(screen.queryByRole("status")).toBeNull();
    expect(screen.getAllByRole("radio").some((option) => option.matches(":disabled"))).toBe(false);
  });

  it("submits when the last section's time runs out", async () => {
    const server = sectionedServer(2);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    expect(screen.getByRole("timer").textContent).toBe("Time left in Verbal Ability: 5:00");
    // The last section ends with Submit, not with Leave section.
    expect(screen.queryByRole("button", { name: "Leave section" })).toBeNull();
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(6, 0) }));
    await wait(300_000);
    expect(server.log).not.toContain("POST /quiz/section/next");
    expect(server.submitted()).toEqual(
      expect.arrayContaining([{ questionId: SECTIONED[5]?._id, optionId: SECTIONED[5]?.options[0]?._id }]),
    );
    expect(screen.getByRole("heading", { name: "Your result" })).toBeTruthy();
  });

  it("says Next section on a paced section's last question, and leaves the section after saving its answer", async () => {
    const server = sectionedServer(1);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    expect(screen.queryByRole("navigation", { name: "Question palette" })).toBeNull();
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(4, 0) }));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await wait(0);
    expect(screen.getByRole("heading", { name: "What is 5 + 5?" })).toBeTruthy();
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(5, 1) }));
    fireEvent.click(screen.getByRole("button", { name: "Next section" }));
    await wait(0);
    // The answer is saved first, in the same queue; then the section is left (and the next one's first question
    // reported opened, for its palette).
    expect(server.log.slice(-3)).toEqual(["PUT /quiz/answers", "POST /quiz/section/next", "PUT /quiz/palette"]);
    expect(server.bodies.find((body) => body.request === "POST /quiz/section/next")).toEqual({
      request: "POST /quiz/section/next",
      sectionFirst: 3,
    });
    expect(server.stored.get(SECTIONED[4]?._id ?? "")).toBe(SECTIONED[4]?.options[1]?._id);
    expect(server.bodies.filter((body) => body.request === "POST /quiz/next")).toHaveLength(1);

    // The last section, on its own clock: its palette only, earlier sections closed, and Submit at its end.
    expect(screen.getByRole("heading", { name: "What is 6 + 6?" })).toBeTruthy();
    expect(politeRegion()).toBe("Section 3 of 3: Verbal Ability. Question 6 of 7.");
    const palette = screen.getByRole("navigation", { name: "Question palette" });
    expect(within(palette).getAllByRole("button")).toHaveLength(2);
    expect(within(palette).getAllByText("Closed: you have left this section.")).toHaveLength(2);
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByRole("button", { name: "Submit" })).toBeTruthy();
  });

  it("leaves a paced section when its last question's window runs out", async () => {
    const server = sectionedServer(1);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    await wait(30_000);
    expect(screen.getByRole("heading", { name: "What is 5 + 5?" })).toBeTruthy();
    fireEvent.click(screen.getByRole("radio", { name: optionLabel(5, 0) }));
    await wait(30_000);
    expect(server.stored.get(SECTIONED[4]?._id ?? "")).toBe(SECTIONED[4]?.options[0]?._id);
    // At zero the page asks the server's clock first (an invigilator may have added time), then leaves.
    expect(server.log.slice(-4)).toEqual([
      "PUT /quiz/answers",
      "GET /quiz/attempt",
      "POST /quiz/section/next",
      "PUT /quiz/palette",
    ]);
    expect(server.bodies.find((body) => body.request === "POST /quiz/section/next")).toEqual({
      request: "POST /quiz/section/next",
      sectionFirst: 3,
    });
    expect(screen.getByRole("heading", { name: "What is 6 + 6?" })).toBeTruthy();
  });

  it("comes back to the same section, palette and time after a reload, not to a closed section's question", async () => {
    const server = sectionedServer(2);
    vi.stubGlobal("fetch", server.fetch);
    // The tab had question 2 open, in a section closed since.
    sessionStorage.setItem(
      "quizOpenQuestion",
      JSON.stringify({ attemptId: "00000000-0000-4000-8000-0000000000aa", index: 1 }),
    );
    renderQuiz();
    await wait(0);
    expect(screen.getByText("Question 6 of 7", { exact: true })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    fireEvent.click(screen.getByRole("button", { name: "Mark for review" }));
    await wait(60_000);
    cleanup();

    renderQuiz();
    await wait(0);
    expect(screen.getByText("Question 7 of 7", { exact: true })).toBeTruthy();
    expect(screen.getByRole("timer").textContent).toBe("Time left in Verbal Ability: 4:00");
    const palette = screen.getByRole("navigation", { name: "Question palette" });
    expect(
      within(palette)
        .getAllByRole("button")
        .map((button) => button.getAttribute("aria-label")),
    ).toEqual(["Question 6: Opened, not answered", "Question 7: Marked for review, not answered (open now)"]);
    expect(screen.getByText("Section 3 of 3:")).toBeTruthy();
  });
});

describe("closing a check with Escape", () => {
  it("closes the summary before Submit, and submits nothing", async () => {
    const server = flakyServer(false);
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(screen.getByRole("alertdialog")).toBeTruthy();
    fireEvent.keyDown(document.activeElement as Element, { key: "Escape" });
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "What is 3 + 3?" }));
    await wait(0);
    expect(server.log).not.toContain("POST /quiz/submit");
  });
});

describe("the rules of a test timed per section", () => {
  it("gives each section its time, and says a closed section cannot be opened again", async () => {
    const server = flakyServer(false, {
      rulesFirst: true,
      timingMode: "per_section",
      questionCount: 30,
      sections: [
        {
          name: "Quantitative Aptitude",
          questionCount: 15,
          negativeMark: 0,
          cutOff: null,
          timing: "section_clock",
          secondsPerQuestion: 80,
        },
        {
          name: "Logical Reasoning",
          questionCount: 15,
          negativeMark: 0.25,
          cutOff: 40,
          timing: "per_question",
          secondsPerQuestion: 60,
        },
      ],
    });
    vi.stubGlobal("fetch", server.fetch);
    renderQuiz();
    await wait(0);
    expect(
      screen.getByText(
        /^1 mark for each right answer, in 2 sections that come in this order\. 1\. Quantitative Aptitude: 15 questions, 20 minutes on one clock, no negative marking\. 2\. Logical Reasoning: 15 questions, 60 seconds each, 0\.25 marks off for each wrong answer, cut-off 40%\./,
      ),
    ).toBeTruthy();
    const timing = screen.getByText(/^Each section has its own time/);
    expect(timing.textContent).toContain("35 minutes in all");
    expect(timing.textContent).toContain("a closed section cannot be opened again");
  });
});
