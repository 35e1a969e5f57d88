// An admin imports a GIFT file holding a multiple-answer and a true/false question: the preview shows what would
// be created and names the question kind the bank cannot hold; nothing is saved until the admin confirms. And a
// Moodle XML file: Moodle's math rendered, a question with a sound importable with its loss named, a broken one
// left out once the admin confirms.
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
  await expect(page.getByLabel("Option 1 text")).toHaveValue("2");
  await expect(page.getByRole("checkbox", { name: "Correct answer: option 1" })).toBeChecked();
  await expect(page.getByLabel("Option 3 text")).toHaveValue("4");
  await expect(page.getByRole("checkbox", { name: "Correct answer: option 3" })).not.toBeChecked();
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

test("an admin imports the importable questions of a Moodle XML file: losses named, a broken question left out", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const category = `Moodle import ${stamp}`;
  const sound = Buffer.from("ID3\u0003\u0000 not an image").toString("base64");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/top/${category}</text></category></question>
  <question type="multichoice">
    <questiontext format="html"><text><![CDATA[<p>Is \\(x^2\\) a <span style="font-style: italic">square</span> (${stamp})?</p>]]></text></questiontext>
    <answer fraction="100"><text>yes</text></answer><answer fraction="0"><text>no</text></answer>
  </question>
  <question type="multichoice">
    <questiontext format="html"><text><![CDATA[<p>Which bird sings this (${stamp})? <a href="@@PLUGINFILE@@/song.mp3">listen</a></p>]]></text>
      <file name="song.mp3" path="/" encoding="base64">${sound}</file></questiontext>
    <answer fraction="100"><text>Robin</text></answer><answer fraction="0"><text>Crow</text></answer>
  </question>
  <question type="multichoice">
    <questiontext format="html"><text>No right answer in one (${stamp})?</text></questiontext>
    <answer fraction="0"><text>a</text></answer><answer fraction="0"><text>b</text></answer>
  </question>
</quiz>
`;
  await logIn(page);
  await page.goto("/admin/questions");
  await page.getByLabel("Question file").setInputFiles({
    name: "moodle.xml",
    mimeType: "application/xml",
    buffer: Buffer.from(xml),
  });
  await page.getByRole("button", { name: "Preview import" }).click();
  await expect(page.getByRole("heading", { name: "Import preview: moodle.xml (Moodle XML)" })).toBeFocused();
  await expect(
    page.getByText("2 questions would be created, 1 of them without something the file shows."),
  ).toBeVisible();
  const preview = page.getByRole("table", { name: "Questions the import would create" });
  const math = preview
    .getByRole("row")
    .filter({ hasText: `(${stamp})?` })
    .first();
  // Moodle's TeX is rendered as math, the styled italic kept.
  await expect(math.locator(".katex").first()).toBeVisible();
  await expect(math.locator("em")).toHaveText("square");
  await expect(preview.getByRole("row").filter({ hasText: "Which bird sings this" })).toContainText(
    "Importable with losses",
  );
  await expect(page.getByText(/Line 8: The embedded file song\.mp3 is left out/)).toBeVisible();
  await expect(page.getByText("Line 13: Mark at least one option as correct")).toBeVisible();
  const importButton = page.getByRole("button", { name: "Import 2 questions" });
  await expect(importButton).toBeDisabled();
  await page.getByRole("checkbox", { name: "Leave out the question with a problem and import the rest" }).check();
  await expect(importButton).toBeDisabled();
  await page.getByRole("checkbox", { name: "Import this question without what it loses" }).check();
  await expectNoAxeViolations(page);
  await importButton.click();
  await expect(
    page.getByRole("status").filter({
      hasText: "Imported 2 questions. 1 with problems were left out. 1 were imported without what they lose.",
    }),
  ).toBeVisible();
  await page.getByLabel("Search questions").fill(`(${stamp})`);
  const bank = page.getByRole("region", { name: "Question bank" });
  await expect(bank.getByRole("row")).toHaveCount(3);

  // The bank is left as it was, for the journeys whose quizzes draw from all of it.
  page.on("dialog", (dialog) => void dialog.accept());
  for (const text of [`a square (${stamp})?`, `Which bird sings this (${stamp})?`]) {
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

test("an admin gives a single answer's second option half the mark, told in plain words when a weight is not Moodle's", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  await logIn(page);
  await page.goto("/admin/questions");
  await page.getByLabel("Question", { exact: true }).fill(`Where is the Eiffel Tower (${stamp})?`);
  await page.getByLabel("Category", { exact: true }).fill(`Weights ${stamp}`);
  for (const option of ["Paris", "France", "London"]) {
    await page.getByLabel("Option", { exact: true }).fill(option);
    await page.getByRole("button", { name: "Add Option" }).click();
  }
  await expect(page.getByRole("radio", { name: "Correct answer: option 1" })).toBeChecked();
  // The correct option is worth the whole mark; the others weigh 0 unless given a weight.
  await expect(page.getByLabel("Weight of option 1 (%)")).toHaveCount(0);
  await page.getByLabel("Weight of option 2 (%)").fill("33");
  await page.getByRole("button", { name: "Create Question" }).click();
  const weight = page.getByLabel("Weight of option 2 (%)");
  await expect(weight).toHaveAttribute("aria-invalid", "true");
  await expect(weight).toHaveAccessibleDescription(
    /^Weight 33 is not a grade Moodle allows\. Use one of Moodle's grades/,
  );
  await expectNoAxeViolations(page);

  await weight.fill("50");
  await page.getByRole("button", { name: "Create Question" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Question created." })).toBeVisible();
  await page.getByLabel("Search questions").fill(`(${stamp})`);
  const row = page
    .getByRole("region", { name: "Question bank" })
    .getByRole("row")
    .filter({ hasText: `Where is the Eiffel Tower (${stamp})?` });
  await expect(row.getByText("Paris (correct answer)")).toBeVisible();
  await expect(row.getByText("(weight 50%)")).toBeVisible();

  // The editor shows the weight again; the bank is left as it was.
  await row.getByRole("button", { name: /^Edit/ }).click();
  await expect(page.getByLabel("Weight of option 2 (%)")).toHaveValue("50");
  await expect(page.getByLabel("Weight of option 3 (%)")).toHaveValue("");
  await page.getByRole("button", { name: "Cancel Edit" }).click();
  page.on("dialog", (dialog) => void dialog.accept());
  await row.getByRole("button", { name: /^Delete/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "Question deleted." })).toBeVisible();
});

test("an admin gives a single answer a second option worth the whole mark, and an edit keeps it", async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  await logIn(page);
  await page.goto("/admin/questions");
  await page.getByLabel("Question", { exact: true }).fill(`The capital of France (${stamp})?`);
  await page.getByLabel("Category", { exact: true }).fill(`Several right ${stamp}`);
  for (const option of ["Paris", "Paris, France", "London"]) {
    await page.getByLabel("Option", { exact: true }).fill(option);
    await page.getByRole("button", { name: "Add Option" }).click();
  }
  await expect(page.getByText("A weight of 100 makes another option right too, worth the whole mark.")).toBeVisible();
  await page.getByLabel("Weight of option 2 (%)").fill("100");
  await expect(page.getByText("(also right: full marks)")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Create Question" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Question created." })).toBeVisible();
  await page.getByLabel("Search questions").fill(`(${stamp})`);
  const row = page
    .getByRole("region", { name: "Question bank" })
    .getByRole("row")
    .filter({ hasText: `The capital of France (${stamp})?` });
  // Both are right answers in the bank.
  await expect(row.getByText("(correct answer)")).toHaveCount(2);

  // The editor shows the second as weighing 100, and saving keeps both right.
  await row.getByRole("button", { name: /^Edit/ }).click();
  await expect(page.getByRole("radio", { name: "Correct answer: option 1" })).toBeChecked();
  await expect(page.getByLabel("Weight of option 2 (%)")).toHaveValue("100");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Question updated." })).toBeVisible();
  await expect(row.getByText("(correct answer)")).toHaveCount(2);
  page.on("dialog", (dialog) => void dialog.accept());
  await row.getByRole("button", { name: /^Delete/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "Question deleted." })).toBeVisible();
});
