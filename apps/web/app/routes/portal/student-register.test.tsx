// The share link's page asks about its drive before anyone types (decision 029): a drive that opens later keeps
// Register unavailable, and is asked about again when it opens, so a student who came early is let in without a
// reload. On a controlled clock.
import { act, cleanup, render, screen } from "@testing-library/react";
import { type RegistrationDrive, registrationDriveSchema } from "@trainwise/contract/drives";
import { createRoutesStub } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import StudentRegister from "./student-register.tsx";

const OPENS_AT = "2026-07-15T14:00:00.000Z";
const LATER: RegistrationDrive = registrationDriveSchema.parse({
  driveName: "Campus drive",
  organisation: "Lakeview Institute",
  status: "scheduled",
  windowMessage: "This test opens at 10:00 on 15 July (Eastern Daylight Time).",
  closesAtText: null,
  entryMessage: null,
  opensAt: OPENS_AT,
  rosterOnly: false,
  personalLinksOnly: false,
  verifyEmail: false,
  test: {
    testName: "Aptitude round",
    questionCount: 4,
    secondsPerQuestion: 45,
    timingMode: "whole_quiz",
    negativeMark: 0,
    sections: [],
    passMark: null,
    reviewPolicy: "score_only",
    secure: true,
    attemptsAllowed: 1,
  },
});
const OPEN: RegistrationDrive = { ...LATER, status: "open", windowMessage: null, opensAt: null };

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true, now: Date.parse(OPENS_AT) - 30_000 });
  window.history.replaceState(null, "", "/student/register?drive=later1");
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("a share link's page for a drive that opens later", () => {
  it("keeps Register unavailable until the drive opens, then asks again and lets the student register", async () => {
    const fetch = vi.fn(async (_address: string) => {
      const body = Date.now() < Date.parse(OPENS_AT) ? LATER : OPEN;
      return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
    });
    vi.stubGlobal("fetch", fetch);
    const Stub = createRoutesStub([{ path: "/student/register", Component: StudentRegister }]);
    render(<Stub initialEntries={["/student/register?drive=later1"]} />);

    const region = await screen.findByRole("region", { name: "Campus drive (Lakeview Institute)" });
    expect(region.textContent).toContain(
      "This test opens at 10:00 on 15 July (Eastern Daylight Time). You can register from then.",
    );
    expect(screen.getByRole("button", { name: "Register" })).toHaveProperty("disabled", true);
    expect(screen.getByLabelText("Drive code (if you were given one)")).toHaveProperty("value", "LATER1");
    expect(fetch.mock.calls.map(([address]) => address)).toEqual(["/api/auth/student/drive?code=LATER1"]);

    await act(() => vi.advanceTimersByTimeAsync(36_000));
    expect(await screen.findByText("Open for registration.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Register" })).toHaveProperty("disabled", false);
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
