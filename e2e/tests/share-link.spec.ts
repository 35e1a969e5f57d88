// Issue 22, item 4: a share link's page says which drive and test it is for, the test's outline and whether the
// drive takes registrations now, before anyone types; a wrong code says so at once; Year says what it wants
// (decision 029). At a phone's width and a desktop's, on drives of the journey's own.
import type { Drive } from "@trainwise/contract/drives";
import { apiCall, sharedAdminToken } from "../support/api.ts";
import { ownQuiz, uniqueName } from "../support/own-quiz.ts";
import { expectNoAxeViolations } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

const NOT_ADMITTED =
  "This drive code does not let you in. Check the code you were given, and that your email and USN are the ones " +
  "your placement officer has.";

for (const [width, height] of [
  [390, 844],
  [1280, 900],
] as const) {
  test(`at ${width} px the share link shows its drive, outline and window before any typing, and a wrong code at once`, async ({
    page,
    allowConsoleError,
  }) => {
    await page.setViewportSize({ width, height });
    const token = await sharedAdminToken();
    const nextYear = new Date().getUTCFullYear() + 1;
    const quiz = await ownQuiz({
      title: "Share link",
      questions: 4,
      test: { secondsPerQuestion: 45, timingMode: "whole_quiz", negativeMark: 0.25, passMark: 60 },
      drive: {
        organisation: "Lakeview Institute",
        closesAt: `${nextYear}-03-02T11:30:00.000Z`,
        timeZone: "Asia/Kolkata",
      },
    });
    const driveOf = (name: string, settings: Record<string, unknown>) =>
      apiCall<Drive>("/drives", {
        token,
        body: { name: uniqueName(name), organisation: "Lakeview Institute", testId: quiz.test._id, ...settings },
      });
    const panelOf = (drive: Drive) => page.getByRole("region", { name: `${drive.name} (Lakeview Institute)` });
    const register = page.getByRole("button", { name: "Register" });

    // An open drive: the drive, its test, when it closes in its own time zone, and the outline the intro gives.
    await page.goto(quiz.registerPath);
    const open = panelOf(quiz.drive);
    await expect(open.getByRole("heading", { name: `${quiz.drive.name} (Lakeview Institute)` })).toBeVisible();
    await expect(open.getByText(`Test: ${quiz.test.name}`)).toBeVisible();
    await expect(open.getByText("Open for registration until 17:00 on 2 March (India Standard Time).")).toBeVisible();
    await expect(
      open.getByText("4 questions. Choose one answer, or all that apply where a question says so."),
    ).toBeVisible();
    await expect(
      open.getByText("3 minutes for the whole test. You can move between questions until you submit."),
    ).toBeVisible();
    await expect(
      open.getByText(
        "1 mark for each right answer. Negative marking: 0.25 marks off for each wrong answer. A question you leave unanswered costs nothing.",
      ),
    ).toBeVisible();
    await expect(open.getByText("You pass with 60% or more.")).toBeVisible();
    await expect(register).toBeEnabled();
    // Year says what it wants before anyone types, and a screen reader hears it with the field.
    await expect(page.getByText("4 digits, e.g. 2025")).toBeVisible();
    await expect(page.getByLabel("Year", { exact: true })).toHaveAccessibleDescription("4 digits, e.g. 2025");
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("");
    await expectNoAxeViolations(page);

    // A drive that opens later says when, in its time zone, and its form cannot be sent.
    const later = await driveOf("Later drive", {
      opensAt: `${nextYear}-07-15T14:00:00.000Z`,
      timeZone: "America/New_York",
    });
    await page.goto(`/student/register?drive=${later.code}`);
    await expect(
      panelOf(later).getByText(
        "This test opens at 10:00 on 15 July (Eastern Daylight Time). You can register from then.",
      ),
    ).toBeVisible();
    await expect(page.getByText("Register becomes available when the drive opens.")).toBeVisible();
    await expect(register).toBeDisabled();
    await expectNoAxeViolations(page);

    // A closed drive says so plainly.
    const closed = await driveOf("Closed drive", {});
    await apiCall(`/drives/${closed._id}/close`, { method: "POST", token });
    await page.goto(`/student/register?drive=${closed.code}`);
    await expect(panelOf(closed).getByText("This test has been closed. Registration is closed.")).toBeVisible();
    await expect(page.getByText("This drive takes no more registrations.")).toBeVisible();
    await expect(register).toBeDisabled();

    // A roster drive says only its list may register, and takes registrations (the roster decides at Register).
    const roster = await driveOf("Roster drive", { rosterOnly: true });
    await page.goto(`/student/register?drive=${roster.code}`);
    await expect(panelOf(roster).getByText("Only students on this drive's list can register.")).toBeVisible();
    await expect(register).toBeEnabled();
    await expectNoAxeViolations(page);

    // A wrong code is refused before anything is typed, in registration's words, under the field too.
    allowConsoleError(/status of 403/);
    await page.goto("/student/register?drive=NOSUCH42");
    await expect(page.getByRole("alert")).toHaveText(NOT_ADMITTED);
    await expect(page.getByLabel("Drive code (if you were given one)")).toHaveAccessibleDescription(NOT_ADMITTED);
    await expect(page.getByText(/^Test: /)).toHaveCount(0);
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("");
    await expectNoAxeViolations(page);
  });
}
