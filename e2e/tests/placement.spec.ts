// The placement test as colleges run it (issue 26): an admin builds four sections of 15 questions in the test form,
// two on a section clock with the palette and two a question at a time, negative marking in one and cut-offs in
// two; a student on a 360 px phone sits it, reloads in the middle of a section and comes back to the same section,
// palette and time, leaves a section early and cannot go back; two more candidates of two colleges sit it through
// the API; the drive's ranks and a college's shortlist come out in the order their marks say. The journey makes its
// own questions, test and drive.
import type { Page } from "@playwright/test";
import type { Test } from "@trainwise/contract/drives";
import type { Question } from "@trainwise/contract/questions";
import type { AttemptState } from "@trainwise/contract/quiz";
import { apiCall, sharedAdminToken, uniqueStudent } from "../support/api.ts";
import { ownQuestions, plainQuestions, rightLetter, uniqueName } from "../support/own-quiz.ts";
import {
  expectNoAxeViolations,
  expectNothingScrollsSideways,
  fillRegistration,
  openDriveRegistration,
} from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

type InProgress = Extract<AttemptState, { status: "in_progress" }>;

// The student's part is on a phone, by touch.
test.use({ hasTouch: true });

const SECTIONS = [
  { name: "Quantitative Aptitude", timing: "section_clock", seconds: "40", negativeMark: "0", cutOff: "40" },
  { name: "Logical Reasoning", timing: "per_question", seconds: "30", negativeMark: "0.25", cutOff: "" },
  { name: "Verbal Ability", timing: "section_clock", seconds: "40", negativeMark: "0", cutOff: "40" },
  { name: "Technical", timing: "per_question", seconds: "30", negativeMark: "0", cutOff: "" },
];
const PER_SECTION = 15;
const LAKEVIEW = "Lakeview Institute of Technology";
const RIVERSIDE = "Riverside College of Engineering";

const palette = (page: Page) => page.getByRole("navigation", { name: "Question palette" });
const numbered = (page: Page, number: number) =>
  palette(page).getByRole("button", { name: new RegExp(`^Question ${number}: `) });
const heading = (page: Page) => page.getByRole("main").getByRole("heading", { level: 2 });

/**
 * Picks the question on screen's right option, or the one after it; with `untilSaved`, waits until the server holds
 * it (else Next carries it, or leaving the section sends it first).
 */
async function answer(page: Page, right: boolean, untilSaved = false) {
  const text = await heading(page).innerText();
  const letter = right ? rightLetter(text) : "ABCD"[("ABCD".indexOf(rightLetter(text)) + 1) % 4];
  const saved = untilSaved
    ? page.waitForResponse((response) => response.url().endsWith("/api/quiz/answers") && response.ok())
    : undefined;
  await page.getByRole("radio", { name: new RegExp(`^[A-D]\\. Option ${letter}$`) }).check();
  await saved;
}

/** Seconds on the clock line ("… 4:05" or "… 27 seconds …"). */
function secondsOn(text: string): number {
  const clock = text.match(/(\d+):(\d\d)/);
  if (clock) return Number(clock[1]) * 60 + Number(clock[2]);
  return Number(text.match(/(\d+) seconds/)?.[1] ?? Number.NaN);
}

/**
 * A candidate who sits the test through the API, section by section: right on the first `right[section]` questions
 * of each section, wrong on the rest.
 */
async function sitThroughApi(driveCode: string, bank: Question[], right: number[], student: object) {
  const registered = { ...uniqueStudent(), name: uniqueName("Placement Candidate"), ...student };
  const { token } = await apiCall<{ token: string }>("/auth/student/register", {
    body: { ...registered, driveCode },
  });
  const choose = (questionId: string, isRight: boolean) => {
    const question = bank.find((candidate) => candidate._id === questionId) as Question;
    return { questionId, optionId: question.options.find((option) => option.isCorrect === isRight)?._id ?? "" };
  };
  let state = await apiCall<InProgress>("/quiz/start", { token, method: "POST" });
  for (let section = 0; section < SECTIONS.length; section++) {
    for (let position = state.sectionFirst; position < state.sectionEnd; position++) {
      const isRight = position - state.sectionFirst < (right[section] ?? 0);
      if (state.paced) {
        const open = await apiCall<InProgress>("/quiz/attempt", { token });
        const body = choose(open.question?._id ?? "", isRight);
        await apiCall("/quiz/answers", { token, method: "PUT", body });
        if (position + 1 < state.sectionEnd) await apiCall("/quiz/next", { token, body: { position: position + 1 } });
      } else {
        await apiCall("/quiz/answers", {
          token,
          method: "PUT",
          // A section on its own clock is sent its own questions, the first at `questionsFrom`.
          body: choose(state.questions[position - (state.questionsFrom ?? 0)]?._id ?? "", isRight),
        });
      }
    }
    if (section < SECTIONS.length - 1) {
      state = await apiCall<InProgress>("/quiz/section/next", { token, body: { sectionFirst: state.sectionFirst } });
    }
  }
  await apiCall("/quiz/submit", { token, body: { answers: [] } });
  return registered;
}

test("an admin builds a placement test of four sections; a student on a phone sits it; a college's shortlist comes out", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const token = await sharedAdminToken();
  const categories = SECTIONS.map((section) => uniqueName(`Placement ${section.name}`));
  const bank: Question[] = [];
  for (const category of categories)
    bank.push(...(await ownQuestions(category, plainQuestions(PER_SECTION, category), token)));
  const testName = uniqueName("Campus placement test");

  // The admin's test form: four sections, each with its own draw, marking, cut-off and time.
  await page.goto("/admin/login");
  await page.evaluate((value) => localStorage.setItem("adminToken", value), token);
  await page.goto("/admin/tests");
  await page.getByLabel("Name", { exact: true }).fill(testName);
  await page.getByRole("button", { name: "Divide into sections" }).click();
  await page.getByRole("button", { name: "Add a section" }).click();
  await page.getByRole("button", { name: "Add a section" }).click();
  await page.getByRole("radio", { name: /^Each section on its own/ }).check();
  for (const [index, section] of SECTIONS.entries()) {
    const number = index + 1;
    await page.getByLabel(`Section ${number} name`).fill(section.name);
    await page
      .getByRole("group", { name: `Section ${number} categories` })
      .getByRole("checkbox", { name: categories[index] })
      .check();
    await page.getByLabel(`Section ${number}: number of questions`).fill(String(PER_SECTION));
    await page.getByLabel(`Section ${number}: negative marking (0 to 1)`).fill(section.negativeMark);
    await page.getByLabel(`Section ${number}: cut-off % (optional)`).fill(section.cutOff);
    await page.getByLabel(`Section ${number}: timing`).selectOption(section.timing);
    await page.getByLabel(`Section ${number}: seconds per question`).fill(section.seconds);
  }
  await expect(page.getByText("15 questions × 40 s = 10 min").first()).toBeVisible();
  await page.getByLabel("Pass mark % (optional)").fill("50");
  await page.getByRole("radio", { name: /^Practice: scores at submit/ }).check();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Create Test" }).click();
  await expect(page.getByText("Test created.")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: testName });
  await expect(row).toContainText("Quantitative Aptitude: 10 min on one clock");
  await expect(row).toContainText("Logical Reasoning: 30 s a question");

  const tests = await apiCall<Test[]>("/tests?limit=100", { token });
  const created = tests.find((candidate) => candidate.name === testName) as Test;
  expect(created.timingMode).toBe("per_section");
  const drive = await apiCall<{ _id: string; code: string; name: string }>("/drives", {
    token,
    body: { name: `${testName} drive`, testId: created._id },
  });

  // The student, on a phone.
  await page.evaluate(() => localStorage.clear());
  await page.setViewportSize({ width: 360, height: 740 });
  await openDriveRegistration(page, { registerPath: `/student/register?drive=${drive.code}`, drive });
  const student = { ...uniqueStudent(), name: uniqueName("Placement Phone Student"), college: LAKEVIEW };
  await fillRegistration(page, student);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/quiz$/);
  // The rules before the clock: each section's time, and no way back into a closed one.
  await expect(page.getByText(/^1 mark for each right answer, in 4 sections/)).toContainText(
    "1. Quantitative Aptitude: 15 questions, 10 minutes on one clock, no negative marking, cut-off 40%. " +
      "2. Logical Reasoning: 15 questions, 30 seconds each, 0.25 marks off for each wrong answer.",
  );
  await expect(page.getByText(/^Each section has its own time/)).toContainText(
    "a closed section cannot be opened again",
  );
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByText("Question 1 of 60", { exact: true })).toBeVisible();
  await expect(page.getByText("Section 1 of 4: Quantitative Aptitude", { exact: true })).toBeVisible();
  await expect(page.getByRole("timer")).toContainText("Time left in Quantitative Aptitude");
  // The palette holds the open section's 15 questions, none of a later section.
  await expect(palette(page).getByRole("button", { name: /^Question \d+: / })).toHaveCount(PER_SECTION);
  await expect(numbered(page, 16)).toHaveCount(0);

  // Quant: 8 right, moving with the palette; question 3 marked for review.
  for (let number = 1; number <= 8; number++) {
    if (number > 1) await numbered(page, number).tap();
    await expect(page.getByText(`Question ${number} of 60`, { exact: true })).toBeVisible();
    if (number === 3) {
      const marked = page.waitForResponse((response) => response.url().endsWith("/api/quiz/palette") && response.ok());
      await page.getByRole("button", { name: "Mark for review" }).tap();
      await marked;
    }
    // Saved before the reload below reads the server's palette.
    await answer(page, true, true);
  }
  await expectNothingScrollsSideways(page);
  await expectNoAxeViolations(page);

  // A reload mid-section: the same section, question, palette and the server's time.
  const before = secondsOn(await page.getByRole("timer").innerText());
  await page.reload();
  await expect(page.getByText("Question 8 of 60", { exact: true })).toBeVisible();
  await expect(page.getByText("Section 1 of 4: Quantitative Aptitude", { exact: true })).toBeVisible();
  await expect(numbered(page, 3)).toHaveAccessibleName("Question 3: Answered and marked for review");
  await expect(numbered(page, 7)).toHaveAccessibleName("Question 7: Answered");
  await expect(numbered(page, 9)).toHaveAccessibleName("Question 9: Not visited");
  const after = secondsOn(await page.getByRole("timer").innerText());
  expect(after).toBeLessThanOrEqual(before);
  expect(after).toBeGreaterThan(before - 60);

  // Leaving early: the section's summary names what is left, and says there is no way back.
  await page.getByRole("button", { name: "Leave section" }).tap();
  const summary = page.getByRole("alertdialog");
  await expect(summary).toContainText("Leave Quantitative Aptitude? You have not answered 7 questions: 9, 10, 11, 12");
  await expect(summary).toContainText("You cannot come back to this section.");
  await expectNoAxeViolations(page);
  const left = page.waitForResponse((response) => response.url().endsWith("/api/quiz/section/next") && response.ok());
  await summary.getByRole("button", { name: "Leave section" }).tap();
  await left;

  // Logical Reasoning, a question at a time: 12 right and 3 wrong, at 0.25 off each wrong answer.
  for (let index = 0; index < PER_SECTION; index++) {
    const number = 16 + index;
    await expect(page.getByText(`Question ${number} of 60`, { exact: true })).toBeVisible();
    if (index === 0) {
      await expect(page.getByText("Section 2 of 4: Logical Reasoning", { exact: true })).toBeVisible();
      await expect(page.getByRole("timer")).toContainText("Time left in Logical Reasoning");
      await expect(palette(page)).toHaveCount(0);
      await expectNothingScrollsSideways(page);
    }
    await answer(page, index < 12);
    const last = index === PER_SECTION - 1;
    await page.getByRole("button", { name: last ? "Next section" : "Next", exact: true }).tap();
  }

  // Verbal Ability, on its clock again: every question right; then the last section of the test.
  await expect(page.getByText("Section 3 of 4: Verbal Ability", { exact: true })).toBeVisible();
  await expect(page.getByText("Question 31 of 60", { exact: true })).toBeVisible();
  // The first section's questions are closed for good: its numbers are gone from the palette.
  await expect(numbered(page, 1)).toHaveCount(0);
  for (let number = 31; number <= 45; number++) {
    if (number > 31) await numbered(page, number).tap();
    await answer(page, true);
  }
  await page.getByRole("button", { name: "Leave section" }).tap();
  await page.getByRole("alertdialog").getByRole("button", { name: "Leave section" }).tap();

  // Technical, a question at a time: 10 right, and Submit on the last question of the test.
  for (let index = 0; index < PER_SECTION; index++) {
    const number = 46 + index;
    await expect(page.getByText(`Question ${number} of 60`, { exact: true })).toBeVisible();
    await answer(page, index < 10);
    await page.getByRole("button", { name: index === PER_SECTION - 1 ? "Submit" : "Next", exact: true }).tap();
  }
  await expect(page).toHaveURL(/\/result\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Stay on this page" }).click();
  // Marks: 8 + (12 − 0.75) + 15 + 10 = 44.25 of 60 = 73.75%; every cut-off met.
  await expect(page.getByText("Your Score: 73.75%")).toBeVisible();
  const table = page.getByRole("table", { name: "Your score in each section" });
  await expect(table.getByRole("row", { name: /^Quantitative Aptitude/ })).toHaveText(
    "Quantitative Aptitude8 of 1553.33%40%: met",
  );
  await expect(table.getByRole("row", { name: /^Logical Reasoning/ })).toContainText("12 of 15");
  await expectNothingScrollsSideways(page);
  await expectNoAxeViolations(page);

  // Two more candidates: one of Lakeview above the phone student, one of Riverside.
  const top = await sitThroughApi(drive.code, bank, [15, 15, 15, 15], { college: LAKEVIEW });
  const other = await sitThroughApi(drive.code, bank, [3, 15, 15, 15], { college: RIVERSIDE });

  // The drive's ranks, and Lakeview's shortlist of those who pass.
  await page.evaluate((value) => localStorage.setItem("adminToken", value), token);
  await page.goto(`/admin/drives/${drive._id}/ranking`);
  const ranked = page.getByRole("table", { name: `The shortlist of ${drive.name}, in rank order` });
  const rows = ranked.getByRole("row").filter({ hasText: "Placement" });
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText(top.name);
  await expect(rows.nth(1)).toContainText(other.name);
  await expect(rows.nth(2)).toContainText(student.name);
  await page.getByRole("combobox", { name: "College" }).selectOption(LAKEVIEW);
  await page.getByRole("button", { name: "Show shortlist" }).click();
  await expect(page.getByRole("heading", { name: `Shortlist: 2 of 2 candidates from ${LAKEVIEW}` })).toBeVisible();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(top.name);
  await expect(rows.nth(1)).toContainText(student.name);
  await expectNothingScrollsSideways(page);
  await expectNoAxeViolations(page);
});
