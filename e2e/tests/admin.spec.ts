import type { Page } from "@playwright/test";
import { studentServed } from "../support/api.ts";
import { expectNoAxeViolations, renderedText } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

async function logIn(page: Page) {
  await page.goto("/admin/login");
  await page.getByLabel("Username").fill(process.env.E2E_ADMIN_USERNAME ?? "");
  await page.getByLabel("Password").fill(process.env.E2E_ADMIN_PASSWORD ?? "");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

test("a wrong password shows the server's message", async ({ page, allowConsoleError }) => {
  allowConsoleError(/status of 401/);
  await page.goto("/admin/login");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Admin Login");
  await page.getByLabel("Username").fill("e2e-admin");
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByRole("alert")).toHaveText("Invalid username or password.");
  await expectNoAxeViolations(page);
});

test("before the page runs, Login cannot send the password natively in the address", async ({
  page,
  allowConsoleError,
}) => {
  // The page's scripts never arrive (a slow phone, a blocked script): the prerendered form is all there is.
  allowConsoleError(/ERR_FAILED|Failed to load|Failed to fetch/);
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await page.goto("/admin/login", { waitUntil: "load" });
  await page.getByLabel("Username").fill("e2e-admin");
  await page.getByLabel("Password").fill("a secret password");
  await expect(page.getByRole("button", { name: "Login" })).toBeDisabled();
  await page.getByLabel("Password").press("Enter");
  await page.waitForLoadState("load");
  expect(page.url()).not.toContain("password");
  await expect(page).toHaveURL(/\/admin\/login$/);
});

test("an admin logs in, sees the dashboard, manages a question, adds feedback and logs out", async ({ page }) => {
  await logIn(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Admin Dashboard");
  // The original four dashboard buttons are the admin navigation's links (the dashboard no longer repeats them).
  for (const name of ["View Students", "View Results", "Manage Questions", "Submit Feedback"]) {
    await expect(page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name })).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: "Recent Questions" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Student Details" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Student Results" })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Manage Questions" }).click();
  await expect(page).toHaveURL(/\/admin\/questions$/);
  await expect(page.getByLabel("Difficulty", { exact: true })).toHaveValue("medium");
  await page.getByLabel("Question", { exact: true }).fill("Which tag makes a level-one heading in HTML?");
  await page.getByLabel("Category", { exact: true }).fill("Web");
  await page.getByLabel("Difficulty", { exact: true }).selectOption("easy");
  await page.getByLabel("Option", { exact: true }).fill("   ");
  await page.getByRole("button", { name: "Add Option" }).click();
  await expect(page.getByRole("radio")).toHaveCount(0);
  for (const option of ["<h2>", "<h1>", "<header>"]) {
    await page.getByLabel("Option", { exact: true }).fill(option);
    await page.getByRole("button", { name: "Add Option" }).click();
  }
  await expect(page.getByRole("radio", { name: "Correct answer: option 1" })).toBeChecked();
  await page.getByRole("radio", { name: "Correct answer: option 2" }).check();
  await page.getByRole("button", { name: "Create Question" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Question created." })).toBeVisible();
  const first = page.getByRole("region", { name: "Question bank" }).getByRole("row").nth(1);
  await expect(first).toContainText("Which tag makes a level-one heading in HTML?");
  await expect(first.getByRole("cell")).toContainText(["Which tag makes a level-one heading in HTML?", "Web", "Easy"]);
  await expect(first.getByText("<h1> (correct answer)")).toBeVisible();
  await expectNoAxeViolations(page);

  // A student whose 25 random questions include the new one answers it right in the quiz and is scored for it.
  const { token: studentToken, questions } = await studentServed("Which tag makes a level-one heading in HTML?");
  await page.evaluate((token) => {
    localStorage.setItem("studentToken", token);
  }, studentToken);
  await page.clock.install();
  await page.goto("/quiz");
  for (const question of questions) {
    // As rendered: the open drive draws from the whole bank, where other journeys' questions carry code and math.
    await expect(page.getByRole("main").getByRole("heading", { level: 2 })).toHaveText(
      await renderedText(page, question.html),
    );
    if (question.text.startsWith("Which tag makes")) await page.getByRole("radio", { name: /<h1>$/ }).check();
    await page.getByRole("button", { name: question === questions.at(-1) ? "Submit" : "Next" }).click();
  }
  // The other 24 were left unanswered: on a whole-quiz test, Submit names them and asks first.
  await expect(page.getByRole("alertdialog", { name: /^You have not answered 24 questions: / })).toBeVisible();
  await page.getByRole("button", { name: "Submit without those answers" }).click();
  await expect(page.getByText("Your Score: 4.00%")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "Correct:" })).toHaveText(
    /Which tag makes a level-one heading/,
  );
  await page.goto("/admin/questions");

  page.once("dialog", (dialog) => void dialog.accept());
  // By its text: by now the newest row may be a question another journey running beside this one created.
  await page
    .getByRole("region", { name: "Question bank" })
    .getByRole("row")
    .filter({ hasText: "Which tag makes a level-one heading in HTML?" })
    .getByRole("button", { name: /^Delete/ })
    .click();
  await expect(page.getByText("Which tag makes a level-one heading in HTML?")).toHaveCount(0);

  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Submit Feedback" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Submit Student Feedback");
  await expect(page.getByLabel("Admin Token", { exact: true })).toHaveAttribute("type", "password");
  await expect(page.getByLabel("Admin Token", { exact: true })).not.toHaveValue("");
  await expect(page.getByLabel("Email ID", { exact: true })).toHaveAttribute("type", "email");
  await page.getByLabel("Name", { exact: true }).fill("Deepa V.");
  await page.getByLabel("USN Number", { exact: true }).fill("1TW23EC010");
  await page.getByLabel("Email ID", { exact: true }).fill("deepa@example.com");
  await page.getByLabel("Section", { exact: true }).fill("A");
  await page.getByLabel("Batch", { exact: true }).fill("2026");
  await page.getByLabel("Feedback", { exact: true }).fill("The aptitude shortcuts saved me in the placement test.");
  await page.getByRole("button", { name: "Submit Feedback" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Feedback submitted successfully." })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  expect(await page.evaluate(() => localStorage.getItem("adminToken"))).toBeNull();
  await page.goto("/admin/questions");
  await expect(page).toHaveURL(/\/admin\/login$/);
});

test("an expired session on the dashboard says so and goes to login", async ({ page, allowConsoleError }) => {
  allowConsoleError(/status of 401/);
  await page.goto("/admin/login");
  await page.evaluate(() => localStorage.setItem("adminToken", "expired.or.forged"));
  await page.goto("/admin/dashboard");
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByRole("alert")).toHaveText("Unauthorized or session expired");
  expect(await page.evaluate(() => localStorage.getItem("adminToken"))).toBeNull();
});
