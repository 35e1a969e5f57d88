// Issue 27, item 3 (decision 040): on a drive that gives lost connections their time back, a student on a phone
// loses the connection for longer than the drive's grace; when it returns, the page is heard again and runs on with
// the time lost beyond the grace given back, and the live board shows what was given. On a drive of the journey's own.
import { sharedAdminToken, uniqueStudent } from "../support/api.ts";
import { ownQuiz } from "../support/own-quiz.ts";
import { expectNoAxeViolations, openLiveBoard, studentOnWholeQuiz, timerSeconds } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

test("a student's lost connection gets its time back beyond the drive's grace, and the live board shows it", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const token = await sharedAdminToken();
  const { drive } = await ownQuiz({
    title: "Lost connection",
    questions: 3,
    test: { secondsPerQuestion: 60, timingMode: "whole_quiz" },
    drive: { organisation: "Valley College", disconnectGraceSeconds: 30, disconnectCreditMinutes: 5 },
    token,
  });
  await openLiveBoard(page, token, drive._id);
  const details = { ...uniqueStudent(), name: `Kiran Offline ${Date.now()}` };
  const { page: student, context: studentContext } = await studentOnWholeQuiz(browser, drive.code, details);
  await student.getByRole("radio").first().check();
  const row = page.getByRole("table", { name: `Students of ${drive.name} and where each stands` }).getByRole("row", {
    name: new RegExp(details.name),
  });
  await expect(row).toContainText("In progress");

  // The connection drops for 42 s: at least 12 s beyond the 30 s grace (the last heartbeat may be older still).
  await studentContext.setOffline(true);
  await student.waitForTimeout(42_000);
  const offline = timerSeconds(await student.getByRole("timer").textContent());
  await studentContext.setOffline(false);

  // Back online, the page is heard at once and its clock runs on with the time given back, not its own countdown.
  await expect(student.getByText(/^Time lost with your connection was given back/)).toBeAttached({ timeout: 10_000 });
  expect(timerSeconds(await student.getByRole("timer").textContent())).toBeGreaterThanOrEqual(offline + 8);
  await expect(student.getByRole("radio").first()).toBeChecked();
  await expectNoAxeViolations(student);
  await expect(row).toContainText(/\d+ s given back for lost connections/);
  await expectNoAxeViolations(page);

  // The drive's page says its rule.
  await page.goto(`/admin/drives/${drive._id}`);
  await expect(page.getByText("Time lost beyond 30 s of silence given back, up to 5 min in all")).toBeVisible();
  await studentContext.close();
});
