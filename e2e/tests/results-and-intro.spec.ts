// Issue 22, items 2 and 3 on a phone (390 px, touch): the rules before the clock, a result page that counts down
// in sight and can be stayed on, results and certificates brought back later with the resume code, a refused
// second attempt that leads to the result, and a review that shows the student's choice and, once the drive has
// released, the right answer (decision 026). Each journey makes its own questions, test and drive.
import fs from "node:fs";
import type { Page } from "@playwright/test";
import { extractText } from "unpdf";
import { apiCall, baseUrl, sharedAdminToken, uniqueStudent } from "../support/api.ts";
import { type OwnQuiz, ownQuiz, rightLetter } from "../support/own-quiz.ts";
import {
  expectNoAxeViolations,
  fillRegistration,
  gotoOnStoppedClock,
  openDriveRegistration,
} from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

/** Answers every question on screen rightly (or each with the option after the right one), Next to Submit. */
async function answerAll(page: Page, count: number, right = true) {
  for (let position = 1; position <= count; position++) {
    await expect(page.getByText(`Question ${position} of ${count}`, { exact: true })).toBeVisible();
    const text = await page.getByRole("main").getByRole("heading", { level: 2 }).innerText();
    const letter = right ? rightLetter(text) : "ABCD"[("ABCD".indexOf(rightLetter(text)) + 1) % 4];
    await page.getByRole("radio", { name: new RegExp(`^[A-D]\\. Option ${letter}$`) }).check();
    await page.getByRole("button", { name: position === count ? "Submit" : "Next" }).click();
  }
}

/** Registers a new student on the quiz's share link and waits for the quiz page. */
async function register(page: Page, quiz: OwnQuiz, student = uniqueStudent()) {
  await openDriveRegistration(page, quiz);
  await fillRegistration(page, student);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/quiz$/);
  return student;
}

/** Registers and sits a whole-quiz test through the API (a student's earlier visit); returns their lookup. */
async function satThroughApi(quiz: OwnQuiz, wrongFrom: number) {
  const student = uniqueStudent();
  const { token, resumeCode } = await apiCall<{ token: string; resumeCode: string }>("/auth/student/register", {
    body: { ...student, driveCode: quiz.drive.code },
  });
  const served = await apiCall<{ _id: string; text: string; options: { _id: string; text: string }[] }[]>(
    "/quiz/questions",
    { token },
  );
  const answers = served.map((question, index) => {
    const right = `Option ${rightLetter(question.text)}`;
    const option = question.options.find((candidate) => index < wrongFrom === (candidate.text === right));
    return { questionId: question._id, optionId: option?._id ?? "" };
  });
  await apiCall("/quiz/submit", { token, body: { answers } });
  return { student, resumeCode };
}

async function lookUpResults(page: Page, email: string, resumeCode: string) {
  await page.goto("/student/results");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your results");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Resume code").fill(resumeCode);
  await page.getByRole("button", { name: "Show my results" }).click();
}

test("a test with its rules first shows them, with the resume code, and its clock starts only at Start", async ({
  page,
}) => {
  const quiz = await ownQuiz({
    title: "Rules first",
    questions: 3,
    test: { rulesFirst: true, negativeMark: 0.25, passMark: 60, reviewPolicy: "score_and_ticks" },
  });
  await page.clock.install();
  await register(page, quiz);

  await expect(page.getByRole("heading", { level: 1 })).toHaveText(quiz.category);
  await expect(page.getByText(`${quiz.category} drive`, { exact: true })).toBeVisible();
  await expect(
    page.getByText("3 questions. Choose one answer, or all that apply where a question says so."),
  ).toBeVisible();
  await expect(page.getByText("30 seconds for each question. Once you move on you cannot go back.")).toBeVisible();
  await expect(
    page.getByText(
      "1 mark for each right answer. Negative marking: 0.25 marks off for each wrong answer. A question you leave unanswered costs nothing.",
    ),
  ).toBeVisible();
  await expect(page.getByText("You pass with 60% or more.")).toBeVisible();
  await expect(page.getByText(/^The test moves on to the next question by itself/)).toBeVisible();
  await expect(page.getByText(/^The clock keeps running\. Leaving the test window is noted/)).toBeVisible();
  const note = page.getByRole("region", { name: "Your resume code" });
  await expect(note).toContainText(/Your resume code is [A-Z2-9]{4}-[A-Z2-9]{4}\./);
  await expect(page.getByText(/^Question \d of 3$/)).toHaveCount(0);
  await expect(page.getByRole("timer")).toHaveCount(0);
  await expectNoAxeViolations(page);

  // A minute on the rules: no attempt on the server, so no clock runs.
  await page.clock.runFor(60_000);
  const token = (await page.evaluate(() => localStorage.getItem("studentToken"))) ?? "";
  const before = await page.request.get(`${baseUrl()}/api/quiz/attempt`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(before.status()).toBe(404);

  const start = page.getByRole("button", { name: "Start" });
  await start.scrollIntoViewIfNeeded();
  await start.click();
  await expect(page.getByText("Question 1 of 3", { exact: true })).toBeVisible();
  await expect(page.getByRole("timer")).toHaveText(/^Time Left: (29|30) seconds$/);
  // The code was shown before the clock, not above a timed question; question 1 and Next are in sight at once.
  await expect(note).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Next" })).toBeInViewport();
  const after = await page.request.get(`${baseUrl()}/api/quiz/attempt`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(after.status()).toBe(200);
  expect((await after.json()).secondsLeft).toBeGreaterThanOrEqual(29);
});

test("the result page counts its 5 seconds down in sight, names the test and drive, and Stay keeps it", async ({
  page,
}) => {
  const quiz = await ownQuiz({
    title: "Countdown",
    questions: 2,
    test: { timingMode: "whole_quiz", reviewPolicy: "score_and_ticks" },
  });
  await page.clock.install();
  await register(page, quiz);
  await answerAll(page, 2, false);
  await expect(page).toHaveURL(/\/result\/[0-9a-f-]{36}$/);
  const resultUrl = page.url();

  await gotoOnStoppedClock(page, resultUrl, page.getByRole("heading", { name: "Quiz Result" }));
  await expect(page.getByText(`${quiz.category}, ${quiz.category} drive`, { exact: true })).toBeVisible();
  await expect(page.getByText("You will be redirected to the homepage in 5 seconds.")).toBeVisible();
  const countdown = page.locator("[data-countdown-seconds]");
  await expect(countdown).toHaveText("5");
  await page.clock.runFor(1_000);
  await expect(countdown).toHaveText("4");
  await page.clock.runFor(1_000);
  await expect(countdown).toHaveText("3");
  // The sentence a screen reader hears stays as it was: announced once, not every second.
  await expect(page.getByRole("status")).toHaveText("You will be redirected to the homepage in 5 seconds.");

  // The open drive's review: each choice beside its tick; the right answers wait for the drive to close.
  const items = page.getByRole("main").getByRole("listitem");
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText(/Your answer: Option [A-D]/);
  await expect(page.getByText(/Right answer:/)).toHaveCount(0);
  await expect(page.getByText(/^The right answers are shown after the test closes/)).toBeVisible();

  await page.getByRole("button", { name: "Stay on this page" }).click();
  await expect(page.getByRole("status")).toHaveText("You are staying on this page. Go to the homepage");
  await expect(countdown).toHaveCount(0);
  await page.clock.runFor(10_000);
  await expect(page).toHaveURL(resultUrl);
  await expect(page.getByRole("link", { name: "Your results" })).toHaveAttribute("href", "/student/results");
  // axe times its own work: the page's clock runs again for it (Stay has stopped the return home).
  await page.clock.resume();
  await expectNoAxeViolations(page);
});

test("results and the certificate come back later with the email and resume code, from the registration page", async ({
  page,
}) => {
  const quiz = await ownQuiz({
    title: "Kept results",
    questions: 3,
    test: { timingMode: "whole_quiz", passMark: 60, reviewPolicy: "score_and_ticks" },
    drive: { organisation: "Sunrise Engineering College", rosterOnly: true },
  });
  const student = { ...uniqueStudent(), name: `Meera Kept ${Date.now()}` };
  const roster = await fetch(`${baseUrl()}/api/drives/${quiz.drive._id}/roster`, {
    method: "PUT",
    headers: { authorization: `Bearer ${await sharedAdminToken()}`, "content-type": "text/csv" },
    body: `email,usn\n${student.email},${student.usnNo}\n`,
  });
  expect(roster.status).toBe(200);
  await register(page, quiz, student);
  const note = page.getByRole("region", { name: "Your resume code" });
  const resumeCode = (await note.innerText()).match(/[A-Z2-9]{4}-[A-Z2-9]{4}/)?.[0] ?? "";
  expect(resumeCode).not.toBe("");
  await answerAll(page, 3);
  await expect(page.getByText("Your Score: 100.00%")).toBeVisible();

  // Days later, on another device: nothing in its storage.
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await page.goto("/student/register");
  await page.getByRole("link", { name: "See your results and certificates" }).click();
  await expect(page).toHaveURL(/\/student\/results$/);
  await expectNoAxeViolations(page);
  await page.getByLabel("Email").fill(student.email);
  await page.getByLabel("Resume code").fill(resumeCode.toLowerCase());
  await page.getByRole("button", { name: "Show my results" }).click();

  const card = page.getByRole("region", { name: quiz.category });
  await expect(card).toContainText(`${quiz.category} drive (Sunrise Engineering College)`);
  await expect(card.getByText("Your Score: 100.00%")).toBeVisible();
  await expect(card.getByText("Passed (pass mark 60%)")).toBeVisible();
  await expectNoAxeViolations(page);
  const downloading = page.waitForEvent("download");
  await card.getByRole("button", { name: "Download your certificate" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("certificate.pdf");
  const { text } = await extractText(new Uint8Array(fs.readFileSync((await download.path()) ?? "")), {
    mergePages: true,
  });
  expect(text).toContain(student.name);
});

test("a wrong resume code is refused without saying whose details they were", async ({ page, allowConsoleError }) => {
  allowConsoleError(/status of 404/);
  const quiz = await ownQuiz({ title: "Refused lookup", questions: 2, test: { timingMode: "whole_quiz" } });
  const { student } = await satThroughApi(quiz, 2);
  await lookUpResults(page, student.email, "ABCD-EFGH");
  await expect(page.getByRole("alert")).toHaveText(
    "No results match these details. Check the email and the resume code you were given at registration, or open your personal link again.",
  );
  await expect(page.getByText(student.name)).toHaveCount(0);
});

test("a secure drive's result read later says when results come out, with no score before then", async ({ page }) => {
  const closesAt = new Date(Date.now() + 3 * 60 * 60_000).toISOString();
  const quiz = await ownQuiz({
    title: "Later secure",
    questions: 2,
    test: { timingMode: "whole_quiz", reviewPolicy: "ticks_after_close", passMark: 50 },
    drive: { closesAt },
  });
  expect(quiz.test.secure).toBe(true);
  const { student, resumeCode } = await satThroughApi(quiz, 2);
  await lookUpResults(page, student.email, resumeCode);
  const card = page.getByRole("region", { name: quiz.category });
  await expect(
    card.getByText(/^Submitted — results on \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \(India Standard Time\)$/),
  ).toBeVisible();
  await expect(card.getByText(/Your Score|Passed|Download your certificate/)).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("a second attempt refused after the resume code leads to the result", async ({ page, allowConsoleError }) => {
  allowConsoleError(/status of 409/);
  const quiz = await ownQuiz({
    title: "Once only",
    questions: 2,
    test: { timingMode: "whole_quiz", reviewPolicy: "score_and_ticks" },
  });
  const student = await register(page, quiz);
  const resumeCode =
    (await page.getByRole("region", { name: "Your resume code" }).innerText()).match(/[A-Z2-9]{4}-[A-Z2-9]{4}/)?.[0] ??
    "";
  await answerAll(page, 2);
  await expect(page.getByText("Your Score: 100.00%")).toBeVisible();

  await page.evaluate(() => localStorage.clear());
  await openDriveRegistration(page, quiz);
  await fillRegistration(page, student);
  await page.getByRole("button", { name: "Register" }).click();
  await page.getByLabel("Resume code").fill(resumeCode);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/quiz$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`You have already completed ${quiz.category}`);
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "See your result" }).click();
  await expect(page).toHaveURL(/\/result\/[0-9a-f-]{36}$/);
  await expect(page.getByText("Your Score: 100.00%")).toBeVisible();
});

test("the review shows the choice and the right answer once a revealing drive has closed, and nothing on a hiding one", async ({
  page,
}) => {
  const admin = await sharedAdminToken();
  const revealing = await ownQuiz({
    title: "Review reveals",
    questions: 2,
    test: { timingMode: "whole_quiz", reviewPolicy: "score_and_ticks" },
  });
  const hiding = await ownQuiz({
    title: "Review hides",
    questions: 2,
    test: { timingMode: "whole_quiz", reviewPolicy: "score_only", secure: false },
  });
  // Question 1 right, question 2 wrong, on each; then both drives close.
  const shown = await satThroughApi(revealing, 1);
  const hidden = await satThroughApi(hiding, 1);
  for (const quiz of [revealing, hiding]) {
    await apiCall(`/drives/${quiz.drive._id}/close`, { token: admin, method: "POST" });
  }

  await lookUpResults(page, shown.student.email, shown.resumeCode);
  const card = page.getByRole("region", { name: revealing.category });
  await expect(card.getByText("Your Score: 50.00%")).toBeVisible();
  await card.getByText("Your answers").click();
  const wrong = card.getByRole("listitem").filter({ hasText: "Wrong:" });
  await expect(wrong).toHaveCount(1);
  const wrongText = await wrong.innerText();
  const letter = rightLetter(wrongText.match(/Question \d+ of .*\?/)?.[0] ?? "");
  await expect(wrong).toContainText(`Right answer: Option ${letter}`);
  await expect(wrong).toContainText(/Your answer: Option [A-D]/);
  expect(wrongText).not.toContain(`Your answer: Option ${letter}`);
  const right = card.getByRole("listitem").filter({ hasText: "Correct:" });
  await expect(right).toContainText(/Your answer: Option ([A-D])[\s\S]*Right answer: Option \1/);
  await expectNoAxeViolations(page);

  await lookUpResults(page, hidden.student.email, hidden.resumeCode);
  const hiddenCard = page.getByRole("region", { name: hiding.category });
  await expect(hiddenCard.getByText("Your Score: 50.00%")).toBeVisible();
  await expect(hiddenCard.getByText("This test shows your score only.")).toBeVisible();
  await expect(hiddenCard.getByText("Your answers")).toHaveCount(0);
  await expect(page.getByText(/Right answer:|Your answer:/)).toHaveCount(0);
});
