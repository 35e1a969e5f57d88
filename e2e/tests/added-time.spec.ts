// Issue 27, item 4 (decisions 037 and 038): an invigilator adds time from the live board, to one student or to
// everyone running, and sends a message to every candidate; the student's page at a phone's width shows each within
// seconds, pushed down its notices' stream. On a drive of the journey's own.
import { sharedAdminToken, uniqueStudent } from "../support/api.ts";
import { ownQuiz } from "../support/own-quiz.ts";
import { expectNoAxeViolations, openLiveBoard, studentOnWholeQuiz } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

test("an invigilator adds time to one student and to everyone, and sends a message, from the live board; the student's page shows each at once", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const token = await sharedAdminToken();
  // Timed as a whole: 3 questions of 15 s, 45 s in all: the page could never show a minute without time added.
  const { drive } = await ownQuiz({
    title: "Added time",
    questions: 3,
    test: { secondsPerQuestion: 15, timingMode: "whole_quiz" },
    drive: { organisation: "Hillside College" },
    token,
  });
  // The board is open before the student starts, so the time is added well before their 45 s are up.
  await openLiveBoard(page, token, drive._id);
  const details = { ...uniqueStudent(), name: `Meera Extra ${Date.now()}` };
  const { page: student, context: studentContext } = await studentOnWholeQuiz(browser, drive.code, details);
  await student.getByRole("radio").first().check();

  const row = page.getByRole("table", { name: `Students of ${drive.name} and where each stands` }).getByRole("row", {
    name: new RegExp(details.name),
  });
  await expect(row).toContainText("In progress");
  page.once("dialog", (dialog) => {
    expect(dialog.message()).toBe(`Minutes to add to the attempt of ${details.name} (${details.usnNo}):`);
    void dialog.accept("1");
  });
  await row.getByRole("button", { name: `Add time to the attempt of ${details.name}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added 1 minute to the attempt: " })).toBeVisible();
  await expect(row).toContainText("1 min added");
  // The student's page shows it within seconds, not when its own 45 s run out.
  await expect(student.getByRole("timer")).toHaveText(/^Time Left: 1:\d\d for the whole quiz$/, { timeout: 15_000 });

  page.once("dialog", (dialog) => {
    expect(dialog.message()).toBe(`Minutes to add to every attempt of ${drive.name} running now:`);
    void dialog.accept("1");
  });
  await page.getByRole("button", { name: "Add time for everyone" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added 1 minute to 1 running attempt: " })).toBeVisible();
  await expect(row).toContainText("2 min added");
  await expect(student.getByRole("timer")).toHaveText(/^Time Left: 2:\d\d for the whole quiz$/, { timeout: 15_000 });
  await expect(student.getByText("The invigilator added time:")).toBeAttached();

  // A message to every candidate of the drive.
  await page.getByLabel("Message to every candidate").fill("Calculators away, please.");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Sent to the screen of every candidate" })).toBeVisible();
  await expect(page.getByLabel("Message to every candidate")).toHaveValue("");
  await expectNoAxeViolations(page);
  const message = student.getByRole("region", { name: "Message from the invigilator" });
  await expect(message).toContainText("Calculators away, please.", { timeout: 15_000 });
  await expect(student).toHaveURL(/\/quiz$/);
  await expect(student.getByRole("radio").first()).toBeChecked();
  await expect(row).toContainText("In progress");
  await expectNoAxeViolations(student);
  await studentContext.close();
});
