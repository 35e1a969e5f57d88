// The registration page's panel says, before anyone types, what the intro says before the clock (one list of
// rules), where the drive's window stands in registration's words, and who may register.
import { cleanup, render, screen, within } from "@testing-library/react";
import type { RegistrationDrive } from "@trainwise/contract/drives";
import { afterEach, describe, expect, it } from "vitest";
import { FormField } from "../ui/form-field.tsx";
import { DrivePanel, takesRegistrations } from "./drive-panel.tsx";

afterEach(cleanup);

const open: RegistrationDrive = {
  driveName: "Campus drive",
  organisation: "Lakeview Institute",
  status: "open",
  windowMessage: null,
  closesAtText: "17:00 on 2 March (India Standard Time)",
  entryMessage: null,
  opensAt: null,
  rosterOnly: false,
  personalLinksOnly: false,
  verifyEmail: false,
  test: {
    testName: "Aptitude round",
    questionCount: 4,
    secondsPerQuestion: 45,
    timingMode: "whole_quiz",
    sections: [],
    negativeMark: 0.25,
    passMark: 60,
    reviewPolicy: "score_only",
    secure: true,
    attemptsAllowed: 1,
  },
};

describe("the drive's panel", () => {
  it("is a region named by the drive, with the test's outline in the intro's words", () => {
    render(<DrivePanel drive={open} />);
    const region = screen.getByRole("region", { name: "Campus drive (Lakeview Institute)" });
    expect(within(region).getByText("Test: Aptitude round")).toBeTruthy();
    expect(
      within(region).getByText("Open for registration until 17:00 on 2 March (India Standard Time)."),
    ).toBeTruthy();
    expect(
      within(region).getByText("3 minutes for the whole test. You can move between questions until you submit."),
    ).toBeTruthy();
    expect(
      within(region).getByText(
        "1 mark for each right answer. Negative marking: 0.25 marks off for each wrong answer. A question you leave unanswered costs nothing.",
      ),
    ).toBeTruthy();
    expect(within(region).getByText("You pass with 60% or more.")).toBeTruthy();
    expect(takesRegistrations(open)).toBe(true);
  });

  it("says until when someone new may enter, and once that has passed, that a registered student may come back", () => {
    const entry = "New candidates may register and start until 10:15 on 2 March (India Standard Time).";
    render(<DrivePanel drive={{ ...open, entryMessage: entry }} />);
    expect(screen.getByText(entry)).toBeTruthy();
    cleanup();
    const late =
      "Entry to this test closed at 10:15 on 2 March (India Standard Time), 15 minutes after it opened. Please speak to the invigilator. If you registered before, you can still come back with your resume code.";
    const lateDrive = { ...open, entryMessage: late };
    render(<DrivePanel drive={lateDrive} />);
    expect(screen.getByText(late)).toBeTruthy();
    // The form stays: a student who registered before comes back through it.
    expect(takesRegistrations(lateDrive)).toBe(true);
  });

  it("says when a scheduled drive opens, that a closed one has closed, and who may register", () => {
    const scheduled = {
      ...open,
      status: "scheduled",
      windowMessage: "This test opens at 10:00 on 15 July (Eastern Daylight Time).",
      closesAtText: null,
      rosterOnly: true,
      personalLinksOnly: true,
    } as const;
    render(<DrivePanel drive={scheduled} />);
    expect(
      screen.getByText("This test opens at 10:00 on 15 July (Eastern Daylight Time). You can register from then."),
    ).toBeTruthy();
    expect(screen.getByText("Only students on this drive's list can register.")).toBeTruthy();
    expect(screen.getByText(/^Register with the personal link your placement officer sent you/)).toBeTruthy();
    expect(takesRegistrations(scheduled)).toBe(false);
    cleanup();
    render(
      <DrivePanel
        drive={{ ...scheduled, status: "closed", windowMessage: "This test has been closed." }}
        throughLink
      />,
    );
    expect(screen.getByText("This test has been closed. Registration is closed.")).toBeTruthy();
    expect(screen.queryByText(/^Register with the personal link/)).toBeNull();
  });
});

describe("a field's hint", () => {
  it("shows under the label and describes the field, with its error after it", () => {
    const { rerender } = render(<FormField label="Year" hint="4 digits, e.g. 2025" />);
    const year = screen.getByRole("textbox", { name: "Year" });
    expect(year.getAttribute("aria-describedby")).toBe(screen.getByText("4 digits, e.g. 2025").id);
    rerender(<FormField label="Year" hint="4 digits, e.g. 2025" error="Year must be in 4-digit format (e.g., 2025)" />);
    const described = (year.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id)?.textContent);
    expect(described).toEqual(["4 digits, e.g. 2025", "Year must be in 4-digit format (e.g., 2025)"]);
  });
});
