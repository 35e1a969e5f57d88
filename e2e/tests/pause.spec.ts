// Issue 27, item 4 (decision 039): an invigilator pauses the whole drive from the live board; the student's page at
// a phone's width puts the question away and its clock stands still, and when the drive is resumed the question
// comes back with the time it had. On a drive of the journey's own.
import { sharedAdminToken, uniqueStudent } from "../support/api.ts";
import { ownQuiz } from "../support/own-quiz.ts";
import { expectNoAxeViolations, openLiveBoard, studentOnWholeQuiz, timerSeconds } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

test("an invigilator pauses the drive from the live board: the student's clock stands still until it is resumed", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const token = await sharedAdminToken();
  const { drive } = await ownQuiz({
    title: "Paused drive",
    questions: 3,
    test: { secondsPerQuestion: 40, timingMode: "whole_quiz" },
    drive: { organisation: "Riverside College" },
    token,
  });
  await openLiveBoard(page, token, drive._id);
  const details = { ...uniqueStudent(), name: `Nila Pause ${Date.now()}` };
  const { page: student, context: studentContext } = await studentOnWholeQuiz(browser, drive.code, details);
  const question = await student.getByRole("heading", { level: 2 }).first().textContent();

  page.once("dialog", (dialog) => {
    expect(dialog.message()).toContain(`Pause ${drive.name} now?`);
    void dialog.accept();
  });
  await page.getByRole("button", { name: "Pause the drive" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Paused: the clocks of 1 attempt" })).toBeVisible();
  await expect(page.getByText(/^Paused since /)).toBeVisible();
  await expect(page.getByRole("button", { name: "Resume the drive" })).toBeVisible();
  await expectNoAxeViolations(page);

  // The student's page says so within seconds, puts the question away, and its clock stands still.
  const paused = student.getByRole("region", { name: "Test paused" });
  await expect(paused).toBeVisible({ timeout: 15_000 });
  await expect(student.getByRole("radio")).toHaveCount(0);
  await expect(student.getByRole("timer")).toContainText("(paused)");
  const stood = timerSeconds(await student.getByRole("timer").textContent());
  await expectNoAxeViolations(student);
  await student.waitForTimeout(5_000);
  expect(timerSeconds(await student.getByRole("timer").textContent())).toBe(stood);
  // A reload meanwhile comes back to the pause, not to a running clock.
  await student.reload();
  await expect(student.getByRole("region", { name: "Test paused" })).toBeVisible();

  await page.getByRole("button", { name: "Resume the drive" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: /^Resumed after .*: 1 attempt that was running got that time back/ }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Pause the drive" })).toBeVisible();
  // The question comes back with the time it had at the pause (a second or two either way), not less by the pause.
  await expect(student.getByRole("heading", { level: 2 }).first()).toHaveText(question ?? "", { timeout: 15_000 });
  await expect(student.getByRole("timer")).not.toContainText("(paused)");
  const after = timerSeconds(await student.getByRole("timer").textContent());
  expect(after).toBeGreaterThanOrEqual(stood - 4);
  expect(after).toBeLessThanOrEqual(stood + 2);
  await student.getByRole("radio").first().check();
  await expect(student).toHaveURL(/\/quiz$/);
  await studentContext.close();
});
