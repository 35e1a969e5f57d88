// An admin imports a GIFT file holding a multiple-answer and a true/false question: the preview shows what would
// be created and names the question kind the bank cannot hold; nothing is saved until the admin confirms.
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

async function logIn(page: Page) {
  await page.goto("/admin/login");
  await page.getByLabel("Username").fill(process.env.E2E_ADMIN_USERNAME ?? "");
  await page.getByLabel("Password").fill(process.env.E2E_ADMIN_PASSWORD ?? "");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

test("an admin previews a GIFT file, confirms skipping an essay, and finds the questions in the bank", async ({
  page,
}) => {
  // Two axe passes over a long admin page, on a shared machine.
  test.setTimeout(120_000);
  const stamp = Date.now();
  const category = `GIFT import ${stamp}`;
  const gift = `$CATEGORY: $course$/top/${category}

// [tag:difficulty-hard]
::Primes:: Which of these are prime numbers (${stamp})? {
  ~%50%2
  ~%50%3
  ~%-50%4
  ~%-50%9
}

::Sun:: The sun is a star (${stamp}). {T}

::Essay:: Describe a linked list. {}
`;
  await logIn(page);
  await page.goto("/admin/questions");
  await page.getByLabel("Question file").setInputFiles({
    name: "bank.gift.txt",
    mimeType: "text/plain",
    buffer: Buffer.from(gift),
  });
  await page.getByRole("button", { name: "Preview import" }).click();

  await expect(page.getByRole("heading", { name: "Import preview: bank.gift.txt (GIFT)" })).toBeFocused();
  await expect(page.getByText("2 questions would be created.")).toBeVisible();
  const preview = page.getByRole("table", { name: "Questions the import would create" });
  const primes = preview.getByRole("row").filter({ hasText: `Which of these are prime numbers (${stamp})?` });
  await expect(primes).toContainText("Multiple answers (partial credit)");
  await expect(primes).toContainText("Hard");
  await expect(primes.getByRole("cell").first()).toHaveText("4");
  await expect(preview.getByRole("row").filter({ hasText: `The sun is a star (${stamp}).` })).toContainText(
    "True/false",
  );
  await expect(page.getByText("Line 13: essay — Essay")).toBeVisible();
  // Nothing is imported while the essay's skipping is not confirmed.
  const importButton = page.getByRole("button", { name: "Import 2 questions" });
  await expect(importButton).toBeDisabled();
  await expectNoAxeViolations(page);

  await page.getByRole("checkbox", { name: "Skip this question and import the rest" }).check();
  await importButton.click();
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: "Imported 2 questions. 1 of kinds the bank does not hold were skipped." }),
  ).toBeVisible();

  await page.getByLabel("Search questions").fill(`(${stamp})`);
  const bank = page.getByRole("region", { name: "Question bank" });
  // The header row and the two imported questions.
  await expect(bank.getByRole("row")).toHaveCount(3);
  const multiple = bank
    .getByRole("row")
    .filter({ hasText: `Which of these are prime numbers (${stamp})?` })
    .first();
  await expect(multiple.getByRole("cell")).toContainText([category, "Hard", "Multiple answers (partial credit)"]);
  await expect(multiple.getByText("3 (correct answer)")).toBeVisible();
  await expect(multiple.getByText("2 (correct answer)")).toBeVisible();
  const trueFalse = bank
    .getByRole("row")
    .filter({ hasText: `The sun is a star (${stamp}).` })
    .first();
  await expect(trueFalse.getByRole("cell")).toContainText(["True/false"]);
  await expect(trueFalse.getByText("True (correct answer)")).toBeVisible();

  // The editor shows a multiple-answer question with a checkbox for each option.
  await multiple.getByRole("button", { name: /^Edit/ }).click();
  await expect(page.getByLabel("Question type")).toHaveValue("multiple");
  await expect(page.getByRole("checkbox", { name: "2 (correct)" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "4", exact: true })).not.toBeChecked();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Cancel Edit" }).click();

  // Deleting from the list: the bank is left as it was.
  page.on("dialog", (dialog) => void dialog.accept());
  for (const text of [`Which of these are prime numbers (${stamp})?`, `The sun is a star (${stamp}).`]) {
    await bank
      .getByRole("row")
      .filter({ hasText: text })
      .first()
      .getByRole("button", { name: /^Delete/ })
      .click();
    await expect(page.getByRole("status").filter({ hasText: "Question deleted." })).toBeVisible();
  }
  await expect(bank.getByRole("row")).toHaveCount(0);
});
