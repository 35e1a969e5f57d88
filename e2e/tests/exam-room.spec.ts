// Issue 27, item 6 (and item 1's late entry): a drive's exam room and late-entry cut-off, set on the admin's drive
// form, shown on the drive's page and on the registration page, and holding for a student at a phone's width: from
// outside the room the quiz says where the connection comes from; after the cut-off someone new is refused
// (decision 035). On drives of the journey's own.

import type { Page } from "@playwright/test";
import type { Drive } from "@trainwise/contract/drives";
import { apiCall, sharedAdminToken, uniqueStudent } from "../support/api.ts";
import { ownQuiz } from "../support/own-quiz.ts";
import { expectNoAxeViolations, fillRegistration, openDriveRegistration, wallClock } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

async function asAdmin(page: Page, token: string) {
  await page.goto("/admin/login");
  await page.evaluate((saved) => localStorage.setItem("adminToken", saved), token);
}

test("an exam room set on the drive's form keeps a student outside it from sitting the test, until the admin lets their network in", async ({
  page,
  allowConsoleError,
}) => {
  const token = await sharedAdminToken();
  const quiz = await ownQuiz({
    title: "Exam room",
    questions: 3,
    test: { secondsPerQuestion: 60, timingMode: "per_question" },
    drive: { organisation: "Hillside College" },
    token,
  });

  // The admin sets the room and a late entry on the drive's form; an address that is none is refused there.
  await asAdmin(page, token);
  await page.goto(`/admin/drives?search=${encodeURIComponent(quiz.drive.name)}`);
  await page.getByRole("button", { name: `Edit drive ${quiz.drive.name}` }).click();
  await page.getByLabel(/^Opens at/).fill(wallClock(new Date(Date.now() - 60_000), "Asia/Kolkata"));
  await page.getByLabel("Late entry, in minutes (optional)").fill("45");
  const room = page.getByLabel("Exam room addresses (optional)");
  await expect(room).toHaveAccessibleDescription(/^The test can be taken only from these addresses or ranges/);
  await room.fill("10.99.0.0/16\nlab network");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(room).toHaveAttribute("aria-invalid", "true");
  await expect(
    page.getByText("Each allowed address must be an address such as 10.20.30.40 or a range such as 10.20.0.0/16"),
  ).toBeVisible();
  await room.fill("10.99.0.0/16");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Drive updated.")).toBeVisible();
  await page.goto(`/admin/drives/${quiz.drive._id}`);
  await expect(page.getByText("Nobody new 45 minutes after opening", { exact: true })).toBeVisible();
  await expect(page.getByText("Only from 10.99.0.0/16", { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  // A student at a phone's width registers (from anywhere) and reads until when someone new may enter.
  await page.evaluate(() => localStorage.clear());
  await page.setViewportSize({ width: 360, height: 740 });
  await openDriveRegistration(page, quiz);
  await expect(
    page.getByText(/^New candidates may register and start until \d\d:\d\d on .+ \(India Standard Time\)\.$/),
  ).toBeVisible();
  const student = uniqueStudent();
  await fillRegistration(page, student);
  allowConsoleError(/status of 403/);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/quiz$/);
  // Outside the room the quiz does not open, and says why, with the address the invigilator needs.
  await expect(
    page.getByText(
      /^This test can only be taken from the places its organisers allowed, such as the college's own network; your connection comes from (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)\. Please ask the invigilator\.$/,
    ),
  ).toBeVisible();
  await expectNoAxeViolations(page);

  // The admin adds this machine's network; Try again opens the quiz.
  const drive = await apiCall<Drive>(`/drives/${quiz.drive._id}`, { token });
  await apiCall(`/drives/${quiz.drive._id}`, {
    token,
    method: "PUT",
    body: {
      testId: drive.testId,
      name: drive.name,
      organisation: drive.organisation,
      code: drive.code,
      opensAt: drive.opensAt,
      lateEntryMinutes: drive.lateEntryMinutes,
      allowedAddresses: [...drive.allowedAddresses, "127.0.0.0/8", "::1"],
    },
  });
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByText("Question 1 of 3", { exact: true })).toBeVisible();
});

test("after a drive's late-entry cut-off, someone new at a phone's width is refused and told why", async ({
  page,
  allowConsoleError,
}) => {
  const token = await sharedAdminToken();
  const quiz = await ownQuiz({
    title: "Late entry",
    questions: 3,
    drive: {
      organisation: "Hillside College",
      opensAt: new Date(Date.now() - 2 * 60 * 60_000).toISOString(),
      lateEntryMinutes: 60,
      timeZone: "Asia/Kolkata",
    },
    token,
  });
  await page.setViewportSize({ width: 360, height: 740 });
  await openDriveRegistration(page, quiz);
  const closedAt =
    /Entry to this test closed at \d\d:\d\d on .+ \(India Standard Time\), 60 minutes after it opened\. Please speak to the invigilator\./;
  await expect(
    page.getByText(
      new RegExp(`^${closedAt.source} If you registered before, you can still come back with your resume code\\.$`),
    ),
  ).toBeVisible();
  // The form stays for those who registered before; someone new is refused by the server with the same words.
  await fillRegistration(page, uniqueStudent());
  allowConsoleError(/status of 403/);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByRole("alert").filter({ hasText: closedAt })).toBeVisible();
  await expect(page).toHaveURL(/\/student\/register/);
  await expectNoAxeViolations(page);
});

/** Makes the student's page report that it was hidden, as switching to another tab or app does. */
async function leaveTheWindow(student: Page) {
  // Another tab and back, as the browser tells the page: hidden, shown again, and the window's focus back. The page
  // counts one leave for the whole departure.
  await student.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    document.dispatchEvent(new Event("visibilitychange"));
    Reflect.deleteProperty(document, "visibilityState");
    document.dispatchEvent(new Event("visibilitychange"));
    window.dispatchEvent(new Event("focus"));
  });
}

test("on a drive with exam-room rules the test's screen asks for full screen, turns off copying and submits at the focus-loss limit, and the live board shows each", async ({
  page,
  browser,
}) => {
  // Two browsers and axe runs on each.
  test.setTimeout(120_000);
  const token = await sharedAdminToken();
  const { drive } = await ownQuiz({
    title: "Exam screen",
    questions: 3,
    test: { secondsPerQuestion: 120, timingMode: "per_question", rulesFirst: true },
    drive: {
      organisation: "Hillside College",
      fullScreen: true,
      blockCopyPaste: true,
      focusLossLimit: 2,
      focusLossEndsAttempt: true,
    },
    token,
  });

  // The student, at a phone's width in a browser of their own, reads the rules before Start.
  const studentContext = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const student = await studentContext.newPage();
  const details = { ...uniqueStudent(), name: `Meera Screen ${Date.now()}` };
  await student.goto(`/student/register?drive=${drive.code}`);
  await fillRegistration(student, details);
  await student.getByRole("button", { name: "Register" }).click();
  await expect(student).toHaveURL(/\/quiz$/);
  await expect(
    student.getByText(
      "The test asks for full screen; each time you leave it is noted for your invigilator. Copying, pasting and the right-click menu are turned off.",
    ),
  ).toBeVisible();
  await expect(student.getByText(/Leaving it 2 times submits your quiz with the answers given so far\./)).toBeVisible();
  await student.getByRole("button", { name: "Start" }).click();
  await expect(student.getByText("Question 1 of 3", { exact: true })).toBeVisible();
  await expect.poll(() => student.evaluate(() => document.fullscreenElement !== null)).toBe(true);
  // Copying the question and the context menu do nothing.
  const blocked = await student.evaluate(() =>
    ["copy", "paste", "contextmenu"].map((type) => {
      const event = new Event(type, { bubbles: true, cancelable: true });
      document.querySelector("h2")?.dispatchEvent(event);
      return event.defaultPrevented;
    }),
  );
  expect(blocked).toEqual([true, true, true]);

  // Escape out of full screen: counted, and the way back offered.
  await student.evaluate(() => document.exitFullscreen());
  await expect(
    student.getByText(
      "This drive asks you to take the test in full screen. You have left full screen 1 time; each is noted for your invigilator.",
    ),
  ).toBeVisible();
  await expect(student.getByRole("button", { name: "Enter full screen" })).toBeVisible();
  await expectNoAxeViolations(student);
  await student.getByRole("radio").first().check();

  // Away from the window once: warned.
  await leaveTheWindow(student);
  await expect(
    student.getByText(
      "You have left the quiz window 1 time. This drive submits your quiz when you leave it 2 times: 1 more time ends it.",
    ),
  ).toBeVisible();

  // The invigilator sees both on the live board.
  await asAdmin(page, token);
  await page.goto(`/admin/drives/${drive._id}/live`);
  const row = page.getByRole("table", { name: `Students of ${drive.name} and where each stands` }).getByRole("row", {
    name: new RegExp(details.name),
  });
  await expect(row).toContainText("Left full screen 1 time");
  await expect(row).toContainText("In progress");

  // Away a second time: the quiz is submitted with the answer given, and the student is told why.
  await leaveTheWindow(student);
  await expect(student).toHaveURL(/\/result\//);
  await expect(
    student.getByText(
      "Your quiz was submitted because you left the quiz window as many times as this drive allows. Your answers until then count.",
    ),
  ).toBeVisible();
  await expect(student.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoAxeViolations(student);
  await expect(row).toContainText("Submitted at the drive's limit");
  await expectNoAxeViolations(page);
  await studentContext.close();
});

test("an invigilator ends one student's attempt from the live board, and the student's next step says so", async ({
  page,
  browser,
  allowConsoleError,
}) => {
  test.setTimeout(120_000);
  const token = await sharedAdminToken();
  const { drive } = await ownQuiz({
    title: "Ended attempt",
    questions: 3,
    test: { secondsPerQuestion: 120, timingMode: "per_question" },
    drive: { organisation: "Hillside College" },
    token,
  });
  const studentContext = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const student = await studentContext.newPage();
  const details = { ...uniqueStudent(), name: `Arjun Ended ${Date.now()}` };
  await student.goto(`/student/register?drive=${drive.code}`);
  await fillRegistration(student, details);
  await student.getByRole("button", { name: "Register" }).click();
  await expect(student.getByText("Question 1 of 3", { exact: true })).toBeVisible();
  await student.getByRole("radio").first().check();

  await asAdmin(page, token);
  await page.goto(`/admin/drives/${drive._id}/live`);
  const row = page.getByRole("table", { name: `Students of ${drive.name} and where each stands` }).getByRole("row", {
    name: new RegExp(details.name),
  });
  await expect(row).toContainText("In progress");
  page.once("dialog", (dialog) => {
    expect(dialog.message()).toBe(
      `End the attempt of ${details.name} (${details.usnNo}) now? It is scored with the answers saved so far, and cannot be undone.`,
    );
    void dialog.accept();
  });
  await row.getByRole("button", { name: `End attempt of ${details.name}` }).click();
  await expect(
    page.getByRole("status").filter({
      hasText:
        "The attempt has ended. It is scored with the answers saved so far; the student sees their result at their next step.",
    }),
  ).toBeVisible();
  await expect(row).toContainText("Ended by the invigilator");
  await expect(row.getByRole("button", { name: /^End attempt/ })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The student's next step finds the attempt over, and says who ended it.
  allowConsoleError(/status of 409/);
  await student.getByRole("button", { name: "Next" }).click();
  await expect(
    student.getByText("Your invigilator ended your attempt. Your answers saved until then count."),
  ).toBeVisible();
  await expect(student.getByRole("button", { name: "See your result" })).toBeVisible();
  await expectNoAxeViolations(student);
  await studentContext.close();
});
