// The palette of a quiz timed as a whole (issue 26, item 2) on a 360 px phone: a student opens questions out of
// order from the palette (by touch and by keyboard), marks some for review, clears an answer, reloads in the
// middle and finds the same question, the same palette and the server's time, then reads the summary before
// Submit. The score counts the answers that stand, a cleared one not. The journey makes its own questions, test
// and drive.
import type { Page } from "@playwright/test";
import { uniqueStudent } from "../support/api.ts";
import { ownQuiz, rightLetter } from "../support/own-quiz.ts";
import {
  expectNoAxeViolations,
  expectNothingScrollsSideways,
  fillRegistration,
  openDriveRegistration,
} from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

test.use({ viewport: { width: 360, height: 740 }, hasTouch: true });

const palette = (page: Page) => page.getByRole("navigation", { name: "Question palette" });
const numbered = (page: Page, number: number) =>
  palette(page).getByRole("button", { name: new RegExp(`^Question ${number}: `) });

/** Picks the question on screen's right option, or the one after it, and waits until the server holds it. */
async function answer(page: Page, right: boolean) {
  const text = await page.getByRole("main").getByRole("heading", { level: 2 }).innerText();
  const letter = right ? rightLetter(text) : "ABCD"[("ABCD".indexOf(rightLetter(text)) + 1) % 4];
  const saved = page.waitForResponse((response) => response.url().endsWith("/api/quiz/answers") && response.ok());
  await page.getByRole("radio", { name: new RegExp(`^[A-D]\\. Option ${letter}$`) }).check();
  await saved;
}

/** Where a palette call lands: each one changes the server's palette, which the reload below reads. */
const paletteSaved = (page: Page) =>
  page.waitForResponse((response) => response.url().endsWith("/api/quiz/palette") && response.ok());

test("a student on a phone moves with the palette, marks and clears, reloads, and submits after the summary", async ({
  page,
}) => {
  const quiz = await ownQuiz({
    title: "Palette quiz",
    questions: 6,
    test: { timingMode: "whole_quiz", secondsPerQuestion: 60 },
  });
  await openDriveRegistration(page, quiz);
  await fillRegistration(page, uniqueStudent());
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/quiz$/);
  await expect(page.getByText("Question 1 of 6", { exact: true })).toBeVisible();
  await expect(numbered(page, 1)).toHaveAccessibleName("Question 1: Opened, not answered (open now)");
  await expect(numbered(page, 2)).toHaveAccessibleName("Question 2: Not visited");

  await answer(page, true);
  await expect(numbered(page, 1)).toHaveAccessibleName("Question 1: Answered (open now)");

  // Straight to question 4 by touch: marked for review and answered rightly.
  await numbered(page, 4).tap();
  await expect(page.getByText("Question 4 of 6", { exact: true })).toBeVisible();
  await expect(page.getByRole("main").getByRole("heading", { level: 2 })).toBeFocused();
  let saved = paletteSaved(page);
  await page.getByRole("button", { name: "Mark for review" }).tap();
  await saved;
  await expect(page.getByRole("button", { name: "Mark for review" })).toHaveAttribute("aria-pressed", "true");
  await answer(page, true);
  await expect(numbered(page, 4)).toHaveAccessibleName("Question 4: Answered and marked for review (open now)");

  // To question 2 by keyboard: answered wrongly, then the response cleared and the question marked.
  await numbered(page, 2).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Question 2 of 6", { exact: true })).toBeVisible();
  await answer(page, false);
  saved = paletteSaved(page);
  await page.getByRole("button", { name: "Clear response" }).tap();
  await saved;
  await expect(page.getByRole("radio", { checked: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Clear response" })).toBeDisabled();
  // The cleared button has nothing more to clear: the focus is back on the question, not lost on the page.
  await expect(page.getByRole("main").getByRole("heading", { level: 2 })).toBeFocused();
  saved = paletteSaved(page);
  await page.getByRole("button", { name: "Mark for review" }).tap();
  await saved;
  await expect(numbered(page, 2)).toHaveAccessibleName("Question 2: Marked for review, not answered (open now)");
  await expectNothingScrollsSideways(page);
  await expectNoAxeViolations(page);

  // A reload mid-quiz: the same question, the same palette (from the server), and its time, not a fresh clock.
  const before = await page.getByRole("timer").innerText();
  await page.reload();
  await expect(page.getByText("Question 2 of 6", { exact: true })).toBeVisible();
  await expect(numbered(page, 1)).toHaveAccessibleName("Question 1: Answered");
  await expect(numbered(page, 2)).toHaveAccessibleName("Question 2: Marked for review, not answered (open now)");
  await expect(numbered(page, 3)).toHaveAccessibleName("Question 3: Not visited");
  await expect(numbered(page, 4)).toHaveAccessibleName("Question 4: Answered and marked for review");
  await expect(numbered(page, 5)).toHaveAccessibleName("Question 5: Not visited");
  const timeLeft = (text: string) => {
    const [minutes, seconds] = (text.match(/(\d+):(\d\d)/)?.slice(1) ?? []).map(Number);
    return (minutes ?? 0) * 60 + (seconds ?? 0);
  };
  expect(timeLeft(before)).toBeLessThanOrEqual(6 * 60);
  expect(timeLeft(await page.getByRole("timer").innerText())).toBeLessThanOrEqual(timeLeft(before));

  // A keyboard user tabs past the last palette number into the browser and on round to the page: not noted as
  // leaving the quiz window.
  const focusReports: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/quiz/focus")) focusReports.push(request.url());
  });
  await numbered(page, 6).focus();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(page.locator("main :focus, body :focus").first()).toBeAttached();
  expect(focusReports).toEqual([]);
  await expect(page.getByText(/You left the quiz window/)).toHaveCount(0);

  // Submit from the last question: the summary names what is left and what is marked.
  await numbered(page, 6).tap();
  await page.getByRole("button", { name: "Submit" }).tap();
  const summary = page.getByRole("alertdialog");
  await expect(summary).toHaveAccessibleName(
    "You have not answered 4 questions: 2, 3, 5, 6. You marked 2 questions for review: 2, 4. Once you submit, you " +
      "cannot change your answers.",
  );
  await expect(page.getByRole("button", { name: "Go to question 2" })).toBeFocused();
  await expect(summary.getByRole("listitem").filter({ hasText: "Answered and marked for review" })).toHaveText(
    /Answered and marked for review: 1$/,
  );
  await expect(summary.getByRole("listitem").filter({ hasText: "Not visited" })).toHaveText(/Not visited: 2$/);
  await expectNothingScrollsSideways(page);
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Submit without those answers" }).tap();
  await expect(page).toHaveURL(/\/result\//);
  // Questions 1 and 4 stand; question 2's wrong answer was cleared, so it is not counted against the student.
  await expect(page.getByText("Your Score: 33.33%")).toBeVisible();
});
