// The result page and a certificate's check read in their route's loader: each opens at once saying it is
// loading, then shows what the server answered (in the contract's shape), or the page's own failure text.
import { cleanup, render, screen } from "@testing-library/react";
import { certificateVerificationSchema } from "@trainwise/contract/certificates";
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import { quizResultSchema } from "@trainwise/contract/quiz";
import { createRoutesStub } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import Result, { clientLoader as resultLoader } from "./result.tsx";
import VerifyCertificate, { clientLoader as verifyLoader } from "./verify-certificate.tsx";

const RESULT_ID = "00000000-0000-4000-8000-0000000000a1";
const RESULT = quizResultSchema.parse({
  status: "released",
  resultId: RESULT_ID,
  score: 2,
  totalQuestions: 3,
  marks: 2,
  percentage: "66.67",
  passMark: 60,
  passed: true,
  sections: [],
  certificate: true,
  testName: "Campus quiz",
  driveName: "Placement drive",
  organisation: "Lakeview Institute",
  review: {
    policy: "score_and_ticks",
    ticksShown: true,
    ticksFrom: null,
    rightShown: true,
    rightFrom: null,
    timeZone: "Asia/Kolkata",
  },
  answers: [
    {
      questionId: "00000000-0000-4000-8000-000000000001",
      isCorrect: true,
      answered: true,
      mark: 1,
      question: { text: "What is 1 + 1?", html: "<p>What is 1 + 1?</p>" },
      chosen: ["2"],
      right: ["2"],
    },
    {
      questionId: "00000000-0000-4000-8000-000000000002",
      isCorrect: false,
      answered: true,
      mark: 0,
      question: { text: "What is 2 + 3?", html: "<p>What is 2 + 3?</p>" },
      chosen: ["6"],
      right: ["5"],
    },
  ],
});

/** Answers each address with the given status and body, holding every answer until `release` is called. */
function server(answers: Record<string, [status: number, body: unknown]>) {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const fetch = vi.fn(async (address: string, _init?: RequestInit) => {
    await held;
    const [status, body] = answers[address] ?? [404, { error: "Not found" }];
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  });
  vi.stubGlobal("fetch", fetch);
  return { fetch, release: () => release() };
}

function renderAt(entry: string) {
  const Stub = createRoutesStub([
    // No fallback of the router's own: what shows while the read is on its way is the page's.
    {
      path: "/result/:id",
      Component: Result,
      loader: (args) => resultLoader(args as never),
      HydrateFallback: () => null,
    },
    {
      path: "/verify/:code",
      Component: VerifyCertificate,
      loader: (args) => verifyLoader(args as never),
      HydrateFallback: () => null,
    },
  ]);
  render(<Stub initialEntries={[entry]} />);
}

beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.studentToken, "student-token");
  localStorage.setItem(STORAGE_KEYS.quizSubmitted, "true");
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("the result page", () => {
  it("opens saying it is loading, then shows the score read with the student's token", async () => {
    const api = server({ [`/api/quiz/result/${RESULT_ID}`]: [200, RESULT] });
    renderAt(`/result/${RESULT_ID}`);
    expect((await screen.findByRole("status")).textContent).toBe("Loading...");
    api.release();
    expect(await screen.findByText("Your Score: 66.67%")).toBeTruthy();
    expect(screen.getByText("Passed (pass mark 60%)")).toBeTruthy();
    expect(screen.getByText("Campus quiz, Placement drive (Lakeview Institute)")).toBeTruthy();
    // What the student chose, and the right option, beside each tick.
    const wrong = screen.getAllByRole("listitem")[1] as HTMLElement;
    expect(wrong.textContent).toContain("Wrong: ");
    expect(wrong.textContent).toContain("Your answer: 6");
    expect(wrong.textContent).toContain("Right answer: 5");
    expect(screen.getByRole("link", { name: "Your results" }).getAttribute("href")).toBe("/student/results");
    expect(new Headers(api.fetch.mock.calls[0]?.[1]?.headers).get("authorization")).toBe("Bearer student-token");
  });

  it("shows each section's score and cut-off, and that passing took every cut-off", async () => {
    const sectioned = quizResultSchema.parse({
      ...RESULT,
      passed: false,
      sections: [
        {
          name: "Quantitative Aptitude",
          questionCount: 3,
          score: 2,
          marks: 1.5,
          percentage: "50.00",
          cutOff: 50,
          metCutOff: true,
        },
        { name: "Technical", questionCount: 2, score: 1, marks: 1, percentage: "50.00", cutOff: 100, metCutOff: false },
        { name: "Verbal", questionCount: 2, score: 0, marks: 0, percentage: "0.00", cutOff: null, metCutOff: null },
      ],
    });
    server({ [`/api/quiz/result/${RESULT_ID}`]: [200, sectioned] }).release();
    renderAt(`/result/${RESULT_ID}`);
    expect(await screen.findByText("Not passed (pass mark 60% and every section's cut-off)")).toBeTruthy();
    const table = screen.getByRole("table", { name: "Your score in each section" });
    const rows = [...table.querySelectorAll("tbody tr")].map((row) =>
      [...row.children].map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ["Quantitative Aptitude", "2 of 3", "50.00% (1.5 marks)", "50%: met"],
      ["Technical", "1 of 2", "50.00%", "100%: not met"],
      ["Verbal", "0 of 2", "0.00%", "None"],
    ]);
    cleanup();
    // A test of one list of questions has no such table.
    server({ [`/api/quiz/result/${RESULT_ID}`]: [200, RESULT] }).release();
    renderAt(`/result/${RESULT_ID}`);
    await screen.findByText("Passed (pass mark 60%)");
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("offers the scorecard on a released result, and the certificate later only on a result that has one", async () => {
    server({ [`/api/quiz/result/${RESULT_ID}`]: [200, RESULT] }).release();
    renderAt(`/result/${RESULT_ID}`);
    expect((await screen.findByText(/^To see this result/)).textContent).toMatch(
      /^To see this result or download your scorecard and certificate later, open Your results/,
    );
    expect(screen.getByRole("button", { name: "Download your scorecard" })).toBeTruthy();
    cleanup();
    server({ [`/api/quiz/result/${RESULT_ID}`]: [200, { ...RESULT, certificate: false }] }).release();
    renderAt(`/result/${RESULT_ID}`);
    expect((await screen.findByText(/^To see this result/)).textContent).toMatch(
      /^To see this result or download your scorecard later, open/,
    );
  });

  it("says when the ticks come in the drive's time zone, whatever the browser's", async () => {
    const later = quizResultSchema.parse({
      ...RESULT,
      answers: [],
      review: {
        policy: "ticks_after_close",
        ticksShown: false,
        ticksFrom: "2026-03-02T06:30:00.000Z",
        rightShown: false,
        rightFrom: null,
        timeZone: "Asia/Kolkata",
      },
    });
    server({ [`/api/quiz/result/${RESULT_ID}`]: [200, later] }).release();
    renderAt(`/result/${RESULT_ID}`);
    expect(
      await screen.findByText(
        "Which answers were right is shown after the test closes, on 2 Mar 2026, 12:00 (India Standard Time).",
      ),
    ).toBeTruthy();
  });

  it("says when a secure test's results come out, and shows no score before then", async () => {
    const pending = quizResultSchema.parse({
      status: "pending",
      resultId: RESULT_ID,
      testName: "Campus quiz",
      driveName: "Placement drive",
      organisation: "",
      releasesAt: "2026-03-02T06:30:00.000Z",
      heldForPublishing: false,
      timeZone: "Asia/Kolkata",
    });
    server({ [`/api/quiz/result/${RESULT_ID}`]: [200, pending] }).release();
    renderAt(`/result/${RESULT_ID}`);
    expect(await screen.findByText("Submitted — results on 2 Mar 2026, 12:00 (India Standard Time)")).toBeTruthy();
    expect(screen.queryByText(/Your Score/)).toBeNull();
    expect(screen.queryByText(/redirected/)).toBeNull();
  });

  it("says results wait for the organisers when the drive holds them", async () => {
    const pending = quizResultSchema.parse({
      status: "pending",
      resultId: RESULT_ID,
      testName: "Campus quiz",
      driveName: "Placement drive",
      organisation: "",
      releasesAt: null,
      heldForPublishing: true,
      timeZone: "Asia/Kolkata",
    });
    server({ [`/api/quiz/result/${RESULT_ID}`]: [200, pending] }).release();
    renderAt(`/result/${RESULT_ID}`);
    expect(await screen.findByText("Submitted — results on the day the organisers publish them")).toBeTruthy();
    expect(screen.queryByText(/Your Score/)).toBeNull();
  });

  it("says so when the result cannot be read", async () => {
    server({ [`/api/quiz/result/${RESULT_ID}`]: [403, { error: "This result is not yours" }] }).release();
    renderAt(`/result/${RESULT_ID}`);
    expect(await screen.findByText("Unable to fetch result")).toBeTruthy();
  });
});

describe("a certificate's check", () => {
  it("opens saying it is checking, then confirms whose certificate it is", async () => {
    const certificate = certificateVerificationSchema.parse({
      code: "AB12-CD34-EF56",
      studentName: "Asha Rao",
      identity: "USN 1TW21CS001, on the candidate list of Sunrise Engineering College",
      testName: "Campus quiz",
      passedOn: "2026-03-02",
    });
    const api = server({ "/api/certificates/verify/AB12-CD34-EF56": [200, certificate] });
    renderAt("/verify/AB12-CD34-EF56");
    expect((await screen.findByRole("status")).textContent).toBe("Checking…");
    api.release();
    expect(await screen.findByText("Certificate AB12-CD34-EF56 is genuine.")).toBeTruthy();
    expect(screen.getByText("Asha Rao passed Campus quiz on 2 March 2026.")).toBeTruthy();
    expect(
      screen.getByText("Identity: USN 1TW21CS001, on the candidate list of Sunrise Engineering College."),
    ).toBeTruthy();
  });

  it("shows the server's words for a code it does not know", async () => {
    server({ "/api/certificates/verify/AAAA-BBBB-CCCC": [404, { error: "No certificate has this code." }] }).release();
    renderAt("/verify/AAAA-BBBB-CCCC");
    expect(await screen.findByText("No certificate has this code.")).toBeTruthy();
  });
});
