// The web app calls the API only through the contract's table of endpoints: the call function refuses a name the
// table does not have, the method and path it sends are the table's own, and no screen writes an API address by
// hand. The last test lists the endpoints the web app calls, so a new call or a dropped one shows in review.

import routes from "virtual:endpoint-routes";
import { type EndpointName, endpoints } from "@trainwise/contract/endpoints";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, addressOf, call } from "./api.ts";

/** The app's own modules as text, without the tests (which stand in for the server at its addresses). */
const sources = Object.entries(
  import.meta.glob<string>("../**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true }),
).filter(([file]) => !/\.test\.tsx?$/.test(file) && !file.endsWith(".d.ts"));

/** The endpoint names the app's modules pass to the call functions. */
function endpointsCalled(): Set<string> {
  const called = new Set<string>();
  const pattern =
    /\b(?:call|sendChange|adminCall|adminDownload|useTableExport|followAdminStream|addressOf|downloadFile)\(\s*"([A-Za-z]+)"/g;
  for (const [, text] of sources) for (const match of text.matchAll(pattern)) called.add(match[1] as string);
  return called;
}

function answering(status: number, body: unknown) {
  const fetchMock = vi.fn(
    async (_address: string, _init?: RequestInit) => new Response(JSON.stringify(body), { status }),
  );
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe("calls through the contract's table", () => {
  it("refuses a name that is not in the table, without calling the server", async () => {
    const fetchMock = answering(200, {});
    await expect(call("quizResults" as EndpointName, {} as never)).rejects.toThrow(
      "quizResults is not an endpoint in the contract's table",
    );
    expect(() => addressOf("toString" as EndpointName)).toThrow("not an endpoint in the contract's table");
    // @ts-expect-error a name the table does not have is a type error too (npm run check)
    expect(() => addressOf("quizResults")).toThrow("not an endpoint in the contract's table");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends the table's method to the table's path, with the parameters filled in and the token", async () => {
    const fetchMock = answering(200, { code: "AB12", studentName: "Asha", testName: "Java", passedOn: "2026-01-02" });
    await call("verifyCertificate", { params: { code: "AB 12" } });
    await call("nextQuestion", { token: "student-token", body: { position: 2 } });
    expect(fetchMock.mock.calls.map(([address, init]) => `${init?.method} ${address}`)).toEqual([
      "GET /api/certificates/verify/AB%2012",
      "POST /api/quiz/next",
    ]);
    expect(new Headers(fetchMock.mock.calls[1]?.[1]?.headers).get("authorization")).toBe("Bearer student-token");
    expect(addressOf("studentTable", undefined, { search: "", page: 2, batch: undefined })).toBe(
      "/api/students/table?page=2",
    );
  });

  it("keeps the server's refusal as an ApiError with its message and fields", async () => {
    answering(400, { error: "Please check the form.", fields: { email: "Email must be a valid e-mail address" } });
    const refusal = call("sendEnquiry", {
      body: { name: "Asha", email: "asha@", phone: "98450 12345", subject: "Training", message: "" },
    });
    await expect(refusal).rejects.toBeInstanceOf(ApiError);
    await expect(refusal).rejects.toMatchObject({
      status: 400,
      message: "Please check the form.",
      fields: { email: "Email must be a valid e-mail address" },
    });
  });

  it("gives the browser every endpoint's method and path exactly as the contract declares them", () => {
    expect(routes).toEqual(
      Object.fromEntries(Object.entries(endpoints).map(([name, { method, path }]) => [name, { method, path }])),
    );
  });

  it("has no API address written by hand in the app's modules", () => {
    expect(sources.map(([file]) => file)).toContain("../routes/portal/quiz.tsx");
    const handWritten = sources.flatMap(([file, text]) =>
      [...text.matchAll(/["'`]\/api[/"'`]|fetch\(\s*["'`]|\bapi(?:<[^>]*>)?\(\s*["'`]/g)].map(
        (match) => `${file}: ${match[0]}`,
      ),
    );
    expect(handWritten).toEqual([]);
  });

  it("calls only endpoints of the table, and these public and student ones", () => {
    const called = [...endpointsCalled()];
    expect(called.filter((name) => !Object.hasOwn(endpoints, name))).toEqual([]);
    const byAudience = (who: string) =>
      called.filter((name) => endpoints[name as EndpointName].access.who === who).sort();
    expect(byAudience("public")).toEqual([
      "acceptInvitation",
      "adminLogin",
      "invitation",
      "personalLink",
      "publicFeedback",
      "registerStudent",
      "registrationDrive",
      "sendEmailCode",
      "sendEnquiry",
      "studentResultCertificate",
      "studentResultScorecard",
      "studentResults",
      "verifyCertificate",
    ]);
    expect(byAudience("student")).toEqual([
      "certificate",
      "changePalette",
      "heartbeat",
      "leaveSection",
      "nextQuestion",
      "quizAttempt",
      "quizIntro",
      "quizNotices",
      "quizResult",
      "reportFocusLoss",
      "reportFullScreenExit",
      "saveAnswer",
      "scorecard",
      "startQuiz",
      "submitQuiz",
    ]);
    // The admin screens call most of the admin endpoints; each one named is in the table (checked above).
    expect(byAudience("admin").length).toBeGreaterThan(40);
  });
});
