import type { Page } from "@playwright/test";
import { submittedStudent } from "../support/api.ts";
import { expectNoAxeViolations, openHomeFeedback } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

async function logInByKeyboard(page: Page) {
  await page.goto("/admin/login");
  await page.getByLabel("Username").focus();
  await page.keyboard.type(process.env.E2E_ADMIN_USERNAME ?? "");
  await page.keyboard.press("Tab");
  await page.keyboard.type(process.env.E2E_ADMIN_PASSWORD ?? "");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

test("the dashboard shows the score chart and the question analysis", async ({ page }) => {
  await submittedStudent();
  await logInByKeyboard(page);
  await expect(page.getByRole("figure", { name: "Score distribution" })).toBeVisible();
  // The question analysis is a list, each question rendered with its share right (decision 027).
  await expect(
    page.getByRole("region", { name: "Questions, hardest first" }).getByRole("listitem").first(),
  ).toContainText(/\d+\.\d% right/);
  await expect(page.getByText("Submitted quizzes")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("a question created by keyboard, edited, and the bank imported and exported as CSV", async ({ page }) => {
  await logInByKeyboard(page);
  await page.goto("/admin/questions");
  const text = `Keyboard question ${Date.now()}?`;
  await page.getByLabel("Question", { exact: true }).focus();
  await page.keyboard.type(text);
  // From the question, Tab reaches the formatting help and the picture button beside it, then the category.
  await page.keyboard.press("Tab");
  await expect(page.getByText("Formatting help: Markdown, code, math and pictures")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Insert image" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Category", { exact: true })).toBeFocused();
  await page.keyboard.type("Keyboard");
  await page.getByLabel("Option", { exact: true }).focus();
  for (const option of ["One", "Two", "Three", "Four"]) {
    await page.keyboard.type(option);
    await page.keyboard.press("Enter");
  }
  await expect(page.getByRole("radio")).toHaveCount(4);
  await page.getByRole("radio", { name: "Correct answer: option 1" }).focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("radio", { name: "Correct answer: option 3" })).toBeChecked();
  await page.getByRole("button", { name: "Create Question" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Question created." })).toBeVisible();
  const listed = page.getByRole("region", { name: "Question bank" }).getByRole("row").filter({ hasText: text }).first();
  await expect(listed.getByText("Three (correct answer)")).toBeVisible();

  await listed.getByRole("button", { name: /^Edit/ }).click();
  await expect(page.getByRole("heading", { name: "Edit question" })).toBeFocused();
  await page.getByLabel("Question", { exact: true }).fill(`${text} (edited)`);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Question updated." })).toBeVisible();
  await page.getByLabel("Search questions").fill("(edited)");
  await expect(page.getByRole("cell", { name: `${text} (edited)`, exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  const bad = "text,category,difficulty,correct,option1,option2\nFine?,Csv,easy,1,a,b\n,Csv,easy,1,a,b\n";
  await page
    .getByLabel("Question file")
    .setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
  await page.getByRole("button", { name: "Preview import" }).click();
  await expect(page.getByRole("alert")).toContainText("1 problem in the file");
  await expect(page.getByRole("alert")).toContainText("Line 3: Question is required");
  await expect(page.getByRole("button", { name: "Import 1 question" })).toBeDisabled();

  const stamp = Date.now();
  const good = `text,category,difficulty,correct,option1,option2\nImported ${stamp} A?,Csv,easy,1,a,b\nImported ${stamp} B?,Csv,hard,2,a,b\n`;
  await page
    .getByLabel("Question file")
    .setInputFiles({ name: "good.csv", mimeType: "text/csv", buffer: Buffer.from(good) });
  await page.getByRole("button", { name: "Preview import" }).click();
  await page.getByRole("button", { name: "Import 2 questions" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Imported 2 questions." })).toBeVisible();
  await page.getByLabel("Search questions").fill(`Imported ${stamp}`);
  // The header row and two questions.
  await expect(page.getByRole("region", { name: "Question bank" }).getByRole("row")).toHaveCount(3);

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("questions.csv");
  const exported = await (await file.createReadStream()).toArray();
  expect(Buffer.concat(exported).toString()).toContain(`Imported ${stamp} B?,Csv,hard,single,all_or_nothing,2,,a,b`);
});

test("students and results lists, their exports, answers of one attempt, and extra time", async ({ page }) => {
  await submittedStudent();
  await logInByKeyboard(page);
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "View Students" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Registered Students");
  await expect(page.getByRole("columnheader", { name: "College" })).toBeVisible();
  await page.getByLabel("Search students").fill("Journey Student");
  await expect(page.getByRole("row").nth(1)).toContainText("Journey Student");
  const studentsCsv = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  expect((await studentsCsv).suggestedFilename()).toBe("students.csv");
  // A student's actions, extra time among them, are behind the row's Actions button.
  await page
    .getByRole("button", { name: /^Actions for/ })
    .first()
    .click();
  const extraTime = page.getByRole("combobox", { name: /^Extra time for/ }).first();
  await extraTime.selectOption("1.5");
  await expect(page.getByRole("status").filter({ hasText: "Extra time set to 1.5×." })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "View Results" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Results");
  // The score and its percentage share one column, written "0/25 (0.00%)" as everywhere (decision 027).
  await expect(page.getByRole("columnheader", { name: "Score" })).toBeVisible();
  await expect(page.getByRole("row").nth(1)).toContainText(/-?[\d.]+\/\d+ \(-?\d+\.\d\d%\)/);
  await page
    .getByRole("button", { name: /^View answers/ })
    .first()
    .click();
  await expect(page.getByText(/Answered: .* · Correct: /).first()).toBeVisible();
  const resultsCsv = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  expect((await resultsCsv).suggestedFilename()).toBe("results.csv");
  await expectNoAxeViolations(page);
});

test("feedback submitted by an admin appears in the home carousel, and hiding it removes it", async ({ page }) => {
  await logInByKeyboard(page);
  await page.goto("/admin/submit-feedback");
  const words = `The mock drive felt like the real thing ${Date.now()}.`;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Submit Student Feedback");
  await page.getByLabel("Name", { exact: true }).fill("Irfan K.");
  await page.getByLabel("USN Number", { exact: true }).fill("1TW23ME004");
  await page.getByLabel("Email ID", { exact: true }).fill("irfan@example.com");
  await page.getByLabel("Section", { exact: true }).fill("C");
  await page.getByLabel("Batch", { exact: true }).fill("2026");
  await page.getByLabel("Feedback", { exact: true }).fill(words);
  await page.getByRole("button", { name: "Submit Feedback" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Feedback submitted successfully." })).toBeVisible();
  await expectNoAxeViolations(page);

  await openHomeFeedback(page);
  await expect(page.getByTestId("feedback-card").filter({ hasText: words })).toHaveCount(1);

  await page.goto("/admin/submit-feedback");
  const entry = page.getByRole("region", { name: "Feedback entries" }).getByRole("row").filter({ hasText: words });
  await entry.getByRole("button", { name: /^Hide/ }).click();
  await expect(entry).toContainText("Hidden");
  await openHomeFeedback(page);
  await expect(page.getByTestId("feedback-card").filter({ hasText: words })).toHaveCount(0);
});

test("enquiries and the account page are reachable and accessible", async ({ page }) => {
  await logInByKeyboard(page);
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Enquiries" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contact Enquiries");
  await expectNoAxeViolations(page);
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Account" }).click();
  await expect(page.getByRole("heading", { name: "Change your password" })).toBeVisible();
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("New password must be at least 12 characters")).toBeVisible();
  await expectNoAxeViolations(page);
});
