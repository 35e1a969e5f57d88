// What the quiz page asks of the server in a campus drive: one request per question when a student picks an
// option and presses Next (Next carries the answer), while a pick the student sits on is still saved by itself.
import type { Request } from "@playwright/test";
import { uniqueStudent } from "../support/api.ts";
import { ownQuiz } from "../support/own-quiz.ts";
import { fillRegistration, openDriveRegistration, pauseClockNow } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

test("picking an option and pressing Next is one request per question, and every answer is kept", async ({ page }) => {
  const QUESTIONS = 5;
  // The drive's own test: the questions answered with Next, the one the student sits on, and one after it.
  const quiz = await ownQuiz({ title: "Campus requests", questions: QUESTIONS + 2 });
  const of = `of ${QUESTIONS + 2}`;
  // The clock stands still unless the test moves it, so no save can wait out its delay by accident.
  await page.clock.install();
  await openDriveRegistration(page, quiz);
  await fillRegistration(page, uniqueStudent());
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/quiz$/);
  await expect(page.getByText(`Question 1 ${of}`, { exact: true })).toBeVisible();
  await pauseClockNow(page);
  const token = await page.evaluate(() => localStorage.getItem("studentToken"));

  const quizRequests: Request[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/quiz/")) quizRequests.push(request);
  });

  const picked: { option: string }[] = [];
  for (let position = 1; position <= QUESTIONS; position++) {
    await expect(page.getByText(`Question ${position} ${of}`, { exact: true })).toBeVisible();
    // A student who changes their mind first: still one request.
    await page.getByRole("radio").nth(0).check();
    const radio = page.getByRole("radio").nth(position % 2);
    await radio.check();
    picked.push({ option: (await radio.getAttribute("value")) ?? "" });
    await page.getByRole("button", { name: "Next" }).click();
  }
  await expect(page.getByText(`Question ${QUESTIONS + 1} ${of}`, { exact: true })).toBeVisible();
  expect(quizRequests.map((request) => `${request.method()} ${new URL(request.url()).pathname}`)).toEqual(
    Array.from({ length: QUESTIONS }, () => "POST /api/quiz/next"),
  );

  // A pick the student sits on is saved by itself, and a refresh finds it.
  const sitting = page.getByRole("radio").last();
  await sitting.check();
  const saved = page.waitForResponse((response) => response.url().endsWith("/api/quiz/answers"));
  await page.clock.runFor(2_000);
  expect((await saved).status()).toBe(200);
  expect(quizRequests).toHaveLength(QUESTIONS + 1);
  // Loading a page needs its timers; nothing below depends on the time.
  await page.clock.resume();
  await page.reload();
  await expect(page.getByText(`Question ${QUESTIONS + 1} ${of}`, { exact: true })).toBeVisible();
  await expect(sitting).toBeChecked();

  // Every answer Next carried is on the server, as given.
  const state = (await (
    await page.request.get("/api/quiz/attempt", { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { answers: { questionId: string; optionId: string }[] };
  expect(state.answers.map((answer) => answer.optionId)).toEqual([
    ...picked.map((pick) => pick.option),
    await sitting.getAttribute("value"),
  ]);
});
