// A test in sections in the browser (issue 26): an admin divides a test into two sections in the test form, each
// with its own categories, negative marking and cut-off; a student on a phone reads the sections in the rules,
// sees which section each question is in, and reads each section's score and cut-off on the result; the drive's
// page lists each section's marks beside the score. Two journeys, each with its own questions: the form, and a
// student's sitting of a test made through the API as the form makes it.
import type { Page } from "@playwright/test";
import type { Test } from "@trainwise/contract/drives";
import { apiCall, sharedAdminToken, uniqueStudent } from "../support/api.ts";
import { ownQuestions, plainQuestions, rightLetter, uniqueName } from "../support/own-quiz.ts";
import {
  expectNoAxeViolations,
  expectNothingScrollsSideways,
  fillRegistration,
  openDriveRegistration,
} from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

/** Answers the question on screen: rightly, or with the option after the right one. */
async function answer(page: Page, right: boolean) {
  const text = await page.getByRole("main").getByRole("heading", { level: 2 }).innerText();
  const letter = right ? rightLetter(text) : "ABCD"[("ABCD".indexOf(rightLetter(text)) + 1) % 4];
  await page.getByRole("radio", { name: new RegExp(`^[A-D]\\. Option ${letter}$`) }).check();
}

/** Two categories of two questions each, of this journey's own. */
async function twoCategories(token: string) {
  const quant = uniqueName("Sections Quant");
  const verbal = uniqueName("Sections Verbal");
  await ownQuestions(quant, plainQuestions(2, quant), token);
  await ownQuestions(verbal, plainQuestions(2, verbal), token);
  return { quant, verbal };
}

test("an admin divides a test into sections in the test form, each with its draw, negative marking and cut-off", async ({
  page,
}) => {
  const token = await sharedAdminToken();
  const { quant, verbal } = await twoCategories(token);
  const testName = uniqueName("Placement in sections");

  // The admin's test form, at a laptop's width.
  await page.goto("/admin/login");
  await page.evaluate((value) => localStorage.setItem("adminToken", value), token);
  await page.goto("/admin/tests");
  await page.getByLabel("Name", { exact: true }).fill(testName);
  await page.getByRole("button", { name: "Divide into sections" }).click();
  await expect(page.getByLabel("Section 1 name")).toBeFocused();
  // By keyboard, focus follows a section moved to the top, and a removed one's place goes to the add button.
  await page.getByRole("button", { name: "Add a section" }).press("Enter");
  await expect(page.getByLabel("Section 3 name")).toBeFocused();
  await page.getByRole("button", { name: "Move up section 3" }).press("Enter");
  await expect(page.getByRole("button", { name: "Move up section 2" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Move down section 1" })).toBeFocused();
  await page.getByRole("button", { name: "Remove section 1" }).press("Enter");
  await expect(page.getByRole("button", { name: "Add a section" })).toBeFocused();
  const sections = [
    { name: "Quantitative Aptitude", negativeMark: "0.5", cutOff: "50" },
    { name: "Verbal Ability", negativeMark: "0", cutOff: "" },
  ];
  for (const [index, section] of sections.entries()) {
    const number = index + 1;
    await page.getByLabel(`Section ${number} name`).fill(section.name);
    // A slip: both sections tick Quantitative Aptitude's category (put right below).
    await page
      .getByRole("group", { name: `Section ${number} categories` })
      .getByRole("checkbox", { name: quant })
      .check();
    await page.getByLabel(`Section ${number}: number of questions`).fill("2");
    await page.getByLabel(`Section ${number}: negative marking (0 to 1)`).fill(section.negativeMark);
    await page.getByLabel(`Section ${number}: cut-off % (optional)`).fill(section.cutOff);
  }
  // In sections, the draw and the negative marking are each section's: the test's own boxes are gone.
  await expect(page.getByLabel("Number of questions", { exact: true })).toHaveCount(0);
  await expect(page.getByLabel("Negative marking (marks off per wrong answer, 0 to 1)")).toHaveCount(0);
  await page.getByRole("radio", { name: /^Whole quiz/ }).check();
  await page.getByLabel("Pass mark % (optional)").fill("50");
  await page.getByRole("radio", { name: /^Practice: scores at submit/ }).check();
  // Two sections drawing the same questions are refused, and the refusal takes focus beside the sections.
  await page.getByRole("button", { name: "Create Test" }).press("Enter");
  const overlap = page.getByRole("alert").filter({ hasText: "both draw" });
  await expect(overlap).toHaveText(
    `Sections Quantitative Aptitude and Verbal Ability both draw ${quant} questions: give each category to one section`,
  );
  await expect(overlap).toBeFocused();
  const secondCategories = page.getByRole("group", { name: "Section 2 categories" });
  await secondCategories.getByRole("checkbox", { name: quant }).uncheck();
  await secondCategories.getByRole("checkbox", { name: verbal }).check();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Create Test" }).click();
  await expect(page.getByText("Test created.")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: testName });
  await expect(row).toContainText("4 in 2 sections: Quantitative Aptitude 2, Verbal Ability 2");
  await expect(row).toContainText("Quantitative Aptitude: −0.5, cut-off 50%");

  // What the form stored, read back as an edit shows it.
  await row.getByRole("button", { name: `Edit test ${testName}` }).click();
  await expect(page.getByLabel("Section 1 name")).toHaveValue("Quantitative Aptitude");
  await expect(page.getByLabel("Section 2: cut-off % (optional)")).toHaveValue("");
  await expect(page.getByLabel("Section 2 name")).toHaveValue("Verbal Ability");
  await expect(page.getByLabel("Section 1: negative marking (0 to 1)")).toHaveValue("0.5");
  await expect(page.getByLabel("Section 1: cut-off % (optional)")).toHaveValue("50");
  await page.getByRole("button", { name: "Cancel" }).click();
});

test("a student on a phone sits a test in sections and reads each section's score; the drive's pages show them", async ({
  page,
}) => {
  const token = await sharedAdminToken();
  const { quant, verbal } = await twoCategories(token);
  const testName = uniqueName("Placement in sections");
  // The test the form above makes, through the API.
  const created = await apiCall<Test>("/tests", {
    token,
    body: {
      name: testName,
      timingMode: "whole_quiz",
      passMark: 50,
      secure: false,
      rulesFirst: true,
      sections: [
        { name: "Quantitative Aptitude", categories: [quant], questionCount: 2, negativeMark: 0.5, cutOff: 50 },
        { name: "Verbal Ability", categories: [verbal], questionCount: 2, negativeMark: 0 },
      ],
    },
  });
  const drive = await apiCall<{ _id: string; code: string }>("/drives", {
    token,
    body: { name: `${testName} drive`, testId: created._id },
  });

  // The student, on a phone: the rules name the sections, and the quiz says which section each question is in.
  await page.setViewportSize({ width: 360, height: 740 });
  await openDriveRegistration(page, { registerPath: `/student/register?drive=${drive.code}`, drive });
  await fillRegistration(page, uniqueStudent());
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/quiz$/);
  await expect(
    page.getByText(
      "1 mark for each right answer, in 2 sections that come in this order. 1. Quantitative Aptitude: 2 questions, " +
        "0.5 marks off for each wrong answer, cut-off 50%. 2. Verbal Ability: 2 questions, no negative marking. " +
        "A question you leave unanswered costs nothing.",
    ),
  ).toBeVisible();
  await expect(page.getByText("You pass with 50% or more, and every section's cut-off.")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Start" }).click();

  // Quant: one right, one wrong (1 − 0.5 = 0.5 of 2, below its 50% cut-off); Verbal: both right.
  const plan = [
    ["Section 1 of 2: Quantitative Aptitude", true],
    ["Section 1 of 2: Quantitative Aptitude", false],
    ["Section 2 of 2: Verbal Ability", true],
    ["Section 2 of 2: Verbal Ability", true],
  ] as const;
  for (const [index, [section, right]] of plan.entries()) {
    await expect(page.getByText(`Question ${index + 1} of 4`, { exact: true })).toBeVisible();
    await expect(page.getByText(section, { exact: true })).toBeVisible();
    await answer(page, right);
    if (index === 0) {
      await expectNothingScrollsSideways(page);
      await expectNoAxeViolations(page);
    }
    await page.getByRole("button", { name: index === plan.length - 1 ? "Submit" : "Next" }).click();
  }

  await expect(page).toHaveURL(/\/result\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Stay on this page" }).click();
  // 2.5 of 4 is 62.50%, above the pass mark, but Quantitative Aptitude missed its cut-off.
  await expect(page.getByText("Your Score: 62.50%")).toBeVisible();
  await expect(page.getByText("Not passed (pass mark 50% and every section's cut-off)")).toBeVisible();
  const table = page.getByRole("table", { name: "Your score in each section" });
  await expect(table.getByRole("row", { name: /^Quantitative Aptitude/ })).toHaveText(
    "Quantitative Aptitude1 of 225.00% (0.5 marks)50%: not met",
  );
  await expect(table.getByRole("row", { name: /^Verbal Ability/ })).toHaveText("Verbal Ability2 of 2100.00%None");
  await expectNothingScrollsSideways(page);
  await expectNoAxeViolations(page);

  // The drive's page lists each section's marks under the score.
  await page.evaluate((value) => localStorage.setItem("adminToken", value), token);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/admin/drives/${drive._id}`);
  const results = page.getByRole("table", { name: `Submitted attempts of ${testName} drive, best first` });
  await expect(results).toContainText("Quantitative Aptitude: 0.5/2 (25.00%), cut-off 50% not met");
  await expect(results).toContainText("Verbal Ability: 2/2 (100.00%)");

  // The live board: the student's score with each section's part, and the questions grouped by section.
  await page.goto(`/admin/drives/${drive._id}/live`);
  const students = page.getByRole("table", { name: `Students of ${testName} drive and where each stands` });
  await expect(students).toContainText("Quantitative Aptitude: 0.5/2 (25.00%), cut-off 50% not met");
  const perQuestion = page.getByRole("table", { name: /reached, answered and left unanswered each question/ });
  await expect(perQuestion.getByRole("rowheader", { name: "Quantitative Aptitude" })).toBeVisible();
  await expect(perQuestion.getByRole("rowheader", { name: "Verbal Ability" })).toBeVisible();
  await expectNoAxeViolations(page);

  // The drive's ties are broken by Verbal Ability, chosen in the drive's form; the ranking page says so.
  await page.goto(`/admin/drives?search=${encodeURIComponent(`${testName} drive`)}`);
  await page.getByRole("button", { name: `Edit drive ${testName} drive` }).click();
  await expect(page.getByRole("group", { name: "Ties in the ranks" })).toBeVisible();
  await page.getByLabel("Tie-break 1").selectOption("Verbal Ability");
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Drive updated.")).toBeVisible();
  await page.goto(`/admin/drives/${drive._id}/ranking`);
  await expect(
    page.getByText(/^Ranked by score, then by the score in Verbal Ability, then by less time taken \(to the second\)/),
  ).toBeVisible();
  const ranked = page.getByRole("table", { name: `The shortlist of ${testName} drive, in rank order` });
  await expect(ranked).toContainText("Verbal Ability: 2/2 (100.00%)");
});
