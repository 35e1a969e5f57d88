// Admin screens read as reports (decision 027): an attempt's answers show the question as the student saw it (math,
// code that wraps on a phone), tables keep Score and Actions in view at 1280 and 390 px without sideways scrolling,
// a viewer reads a drive's page and its item analysis without the key, and one score reads the same everywhere.
import type { Page } from "@playwright/test";
import { apiCall, sharedAdminToken } from "../support/api.ts";
import { ownQuiz, plainQuestions, type QuestionDraft, takeQuiz, uniqueName } from "../support/own-quiz.ts";
import { expectNoAxeViolations, expectNothingScrollsSideways } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

async function signInWith(page: Page, token: string) {
  await page.goto("/admin/login");
  await page.evaluate((value) => localStorage.setItem("adminToken", value), token);
}

/**
 * A quiz of the journey's own timed as a whole, so the original calls used below get every question at once.
 */
const reportQuiz = (settings: Parameters<typeof ownQuiz>[0]) =>
  ownQuiz({ ...settings, test: { timingMode: "whole_quiz", ...settings?.test } });

/** Every part of the element is inside the viewport's width. */
async function expectWithinWidth(page: Page, element: ReturnType<Page["locator"]>, what: string) {
  const width = page.viewportSize()?.width ?? 0;
  const box = await element.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box?.x ?? -1, `${what} starts left of the screen`).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0), `${what} ends right of the screen`).toBeLessThanOrEqual(width);
}

const MATH_AND_CODE: QuestionDraft = {
  text: [
    "Given $f(x) = x^2 + 1$, which call prints the key joined by `-`?",
    "",
    "```js",
    'const parts = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]; console.log(parts.map((p) => p.toUpperCase()).join("-"));',
    "```",
  ].join("\n"),
  options: [
    { text: "$f(2) = 5$", isCorrect: true },
    { text: "`parts.join()`", isCorrect: false },
  ],
};

for (const width of [360, 1280]) {
  test(`at ${width} px an attempt's answers show math and code as the student saw them, not Markdown`, async ({
    page,
  }) => {
    const token = await sharedAdminToken();
    const quiz = await reportQuiz({ title: "Rendered answers", questions: [MATH_AND_CODE], token });
    const student = await takeQuiz(quiz, 1);
    await page.setViewportSize({ width, height: 900 });
    await signInWith(page, token);
    await page.goto(`/admin/results?search=${student.usnNo}`);
    await page.getByRole("button", { name: `View answers of ${student.name}` }).click();
    const answers = page.locator("[id^=answers-]");
    await expect(answers.getByText("Right", { exact: true })).toBeVisible();
    // Before: "$f(x) = x^2 + 1$", "```js" and backticks were shown as typed.
    await expect(answers.locator(".katex").first()).toBeVisible();
    await expect(answers.locator("code.hljs")).toBeVisible();
    await expect(answers).not.toContainText("$f(x)");
    await expect(answers).not.toContainText("```");
    await expect(answers).not.toContainText("`-`");
    // The chosen and the right option are rendered too.
    await expect(answers.getByText(/Answered: .* · Correct:/).locator(".katex")).toHaveCount(2);
    // Before, at 360: the line was cut off and its `.join("-")` out of view, with nothing saying so. It wraps now.
    const code = answers.locator("pre");
    expect(await code.evaluate((pre) => pre.scrollWidth <= pre.clientWidth)).toBe(true);
    await expectWithinWidth(page, code.getByText('"-"'), 'the code\'s join("-")');
    await expectNothingScrollsSideways(page);
    await expectNoAxeViolations(page);
  });
}

test("the dashboard's question analysis shows the question rendered, its figures in view at 1280 px", async ({
  page,
}) => {
  const token = await sharedAdminToken();
  const quiz = await reportQuiz({ title: "Dashboard math", questions: [MATH_AND_CODE], token });
  await takeQuiz(quiz, 1);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInWith(page, token);
  await page.goto("/admin/dashboard");
  const analysis = page.getByRole("region", { name: "Questions, hardest first" });
  const item = analysis
    .getByRole("listitem")
    .filter({ has: page.locator("code.hljs") })
    .filter({ hasText: "epsilon" });
  await expect(item.first()).toBeAttached();
  await expect(item.first().locator(".katex").first()).toBeAttached();
  await expect(item.first()).not.toContainText("$f(x)");
  await item.first().scrollIntoViewIfNeeded();
  // Before: a table whose question column pushed the Served and Right numbers past the card's edge.
  await expectWithinWidth(page, item.first().getByText(/right/).first(), "the share right");
  await expectNothingScrollsSideways(page);
  await expectNoAxeViolations(page);
});

test("at 1280 px the tests, drives, students and results tables show every column and their actions without scrolling", async ({
  page,
}) => {
  const token = await sharedAdminToken();
  const quiz = await reportQuiz({
    title: "Wide tables",
    questions: 2,
    test: { passMark: 50, negativeMark: 0.25 },
    drive: { organisation: "Lakeview Institute of Technology", batch: "2026 CSE" },
    token,
  });
  const student = await takeQuiz(quiz, 1);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInWith(page, token);
  for (const [path, table] of [
    [`/admin/tests?search=${encodeURIComponent(quiz.test.name)}`, /Tests/],
    [`/admin/drives?search=${encodeURIComponent(quiz.drive.name)}`, /Drives/],
    [`/admin/results?search=${student.usnNo}`, /Submitted quizzes/],
    [`/admin/students?search=${student.usnNo}`, /Registered students/],
  ] as const) {
    await page.goto(path);
    const grid = page.getByRole("table", { name: table });
    await expect(grid.getByRole("row")).toHaveCount(2);
    // Before: Actions (and on the drives, Passed and Failed) were past the right edge.
    for (const heading of await grid.getByRole("columnheader").all()) {
      await expectWithinWidth(page, heading, `column ${await heading.textContent()} of ${path}`);
    }
    const row = grid.getByRole("row").nth(1);
    for (const button of await row.getByRole("button").all()) {
      if (await button.isVisible()) await expectWithinWidth(page, button, `${await button.textContent()} on ${path}`);
    }
    await expectNothingScrollsSideways(page);
    await expectNoAxeViolations(page);
  }
  // Before: six actions in a narrow column made each student's row about 240 px tall.
  const studentRow = page
    .getByRole("table", { name: /Registered students/ })
    .getByRole("row")
    .nth(1);
  expect((await studentRow.boundingBox())?.height ?? 0).toBeLessThan(120);
  await studentRow.getByRole("button", { name: `Actions for ${student.name}` }).click();
  const menu = page.getByRole("group", { name: `Actions for ${student.name}` });
  await expectWithinWidth(page, menu.getByRole("button", { name: /^Let resume/ }), "Let resume");
  await expectNoAxeViolations(page);
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
});

test("at 390 px the results, students and drive tables stack their rows with Score and Actions in view", async ({
  page,
}) => {
  const token = await sharedAdminToken();
  const quiz = await reportQuiz({ title: "Phone tables", questions: 4, token });
  const student = await takeQuiz(quiz, 3);
  await page.setViewportSize({ width: 390, height: 844 });
  await signInWith(page, token);

  await page.goto(`/admin/results?search=${student.usnNo}`);
  const results = page.getByRole("table", { name: "Submitted quizzes" });
  const score = results.getByRole("cell", { name: /^Score/ });
  await expect(score).toContainText("3/4 (75.00%)");
  await expectWithinWidth(page, score.getByText("3/4 (75.00%)"), "the score");
  await expectWithinWidth(page, results.getByRole("button", { name: /^View answers/ }), "View answers");
  await expectNothingScrollsSideways(page);
  await expectNoAxeViolations(page);

  await page.goto(`/admin/students?search=${student.usnNo}`);
  const actions = page.getByRole("button", { name: `Actions for ${student.name}` });
  await expectWithinWidth(page, actions, "the student's actions");
  await actions.click();
  await expectWithinWidth(
    page,
    page.getByRole("group", { name: `Actions for ${student.name}` }).getByRole("button", { name: /^End sessions/ }),
    "End sessions",
  );
  await page.keyboard.press("Escape");
  await expectNothingScrollsSideways(page);

  await page.goto(`/admin/drives/${quiz.drive._id}`);
  const driveResults = page.getByRole("table", { name: /Submitted attempts of/ });
  await expectWithinWidth(page, driveResults.getByText("3/4 (75.00%)"), "the drive's score");
  await expectNothingScrollsSideways(page);
  await expectNoAxeViolations(page);
});

test("a viewer reads a drive's page and its item analysis, without the key while the drive runs", async ({ page }) => {
  const token = await sharedAdminToken();
  const quiz = await reportQuiz({ title: "Viewer report", questions: 2, token });
  await takeQuiz(quiz, 1);
  const username = uniqueName("viewer").replaceAll(" ", "-");
  const { password } = await apiCall<{ password: string }>("/admins", {
    token,
    body: { username, role: "viewer", method: "password" },
  });
  const viewer = await apiCall<{ token: string }>("/auth/admin/login", { body: { username, password } });
  await page.setViewportSize({ width: 390, height: 844 });
  await signInWith(page, viewer.token);

  // The dashboard sends a viewer only where a viewer may go: it linked the Drives and Tests lists, both "Not allowed".
  await page.goto("/admin/dashboard");
  const analysis = page.getByText(/^Share of students who answered each question right/);
  await expect(analysis.getByRole("link", { name: "View Results" })).toBeVisible();
  await expect(analysis.getByRole("link", { name: "Drives" })).toHaveCount(0);

  // Before: "Not allowed", though the page is a report.
  await page.goto(`/admin/drives/${quiz.drive._id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Drive: ${quiz.drive.name}`);
  await expect(page.getByRole("table", { name: /Submitted attempts of/ })).toBeVisible();
  // Read-only: nothing that changes the roster or makes links.
  await expect(page.getByRole("button", { name: "Upload roster" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Make (links|new links)/ })).toHaveCount(0);
  await expectNoAxeViolations(page);

  await page.getByRole("link", { name: "Item analysis of this drive" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Item analysis: ${quiz.drive.name}`);
  await expect(page.getByRole("table", { name: /Per question/ })).toBeVisible();
  await expect(page.getByText(/Which options are right, and how often each was chosen, are shown once/)).toBeVisible();
  // No key: no option is marked correct, and no share per option gives it away.
  await expect(page.getByText("(correct)")).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Retire/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Download CSV" })).toHaveCount(0);
  await expectNoAxeViolations(page);

  await page.goto(`/admin/tests/${quiz.test._id}/analysis`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Item analysis: ${quiz.test.name}`);
  await expect(page.getByText("(correct)")).toHaveCount(0);
});

test("one score reads the same on the results table, an attempt's answers, the drive page and the live board", async ({
  page,
}) => {
  const token = await sharedAdminToken();
  const quiz = await reportQuiz({ title: "Same score", questions: plainQuestions(8, "the same-score quiz"), token });
  const student = await takeQuiz(quiz, 7);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInWith(page, token);
  // Before: 88 % in the results table, 87.50 % on the drive page and the result page, 87.5 % on the live board.
  const shown = "7/8 (87.50%)";
  await page.goto(`/admin/results?search=${student.usnNo}`);
  const row = page.getByRole("row").filter({ hasText: student.name });
  await expect(row.getByRole("cell", { name: shown })).toBeVisible();
  await row.getByRole("button", { name: /^View answers/ }).click();
  await expect(page.getByText(`Score ${shown}`)).toBeVisible();
  await page.goto(`/admin/drives/${quiz.drive._id}`);
  await expect(page.getByRole("table", { name: /Submitted attempts of/ }).getByText(shown)).toBeVisible();
  await page.goto(`/admin/drives/${quiz.drive._id}/live`);
  await expect(page.getByText(`Scored ${shown}`)).toBeVisible();
  // The drive's time zone is named wherever its times are shown.
  await page.goto(`/admin/results?search=${student.usnNo}`);
  await expect(page.getByRole("row").filter({ hasText: student.name })).toContainText("(India Standard Time)");
});
