// The quiz page in a simulated DOM on a flaky network: the network is scripted here (dropped connections, a
// proxy's HTML error page, a 5xx), and a small stand-in for the quiz API answers what gets through. The journeys
// in e2e/ run the same page against the real server.

import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import type { AttemptState, QuizIntro, QuizQuestion } from "@trainwise/contract/quiz";
import { createRoutesStub, Link, useNavigationType } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import Quiz from "./quiz.tsx";
import { clientLoader as resultGuard } from "./result.tsx";

type Fault = "drop" | "proxy-502" | "json-503";

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
  resultId: null,
};

/** The quiz API as far as this page needs it, holding what it was sent, behind a network that fails on cue. */
function flakyServer(
  paced: boolean,
  intro: Partial<QuizIntro> | (() => Partial<QuizIntro>) = {},
  startRefused?: string,
) {
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

  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const request = `${init.method ?? "GET"} ${url.replace(/^\/api/, "")}`;
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
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

    switch (request) {
      case "GET /quiz/intro":
        return json(200, {
          ...INTRO,
          timingMode: paced ? "per_question" : "whole_quiz",
          ...(typeof intro === "function" ? intro() : intro),
        });
      case "POST /quiz/start": {
        if (startRefused) return json(409, { error: startRefused });
        const state: AttemptState = {
          status: "in_progress",
          attemptId: "00000000-0000-4000-8000-0000000000aa",
          testName: "Campus quiz",
          timingMode: paced ? "per_question" : "whole_quiz",
          paced,
          sections: [],
          totalQuestions: QUESTIONS.length,
          currentIndex: current,
          secondsLeft: paced ? 30 : 600,
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
      case "POST /quiz/focus":
        return json(200, {});
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
    failNext(request: string, ...next: Fault[]) {
      faults.set(request, [...(faults.get(request) ?? []), ...next]);
    },
  };
}

function ResultPage() {
  return (
    <>
      <h1>Your result</h1>
      <p>Arrived by {useNavigationType()}</p>
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
