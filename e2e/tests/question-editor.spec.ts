// Writing questions as a newcomer does (issue 22, item 8), on a desktop and on a phone: the Formatting help says
// what the text takes and the question is written from its examples, an option is corrected in place, a picture
// goes in with the description the editor asks for, the category stays for the next question, and a GIFT file with
// a plain ':' in a question is refused with what to write instead. Each run writes into a category of its own.
import { sharedAdminToken } from "../support/api.ts";
import { expectNoAxeViolations } from "../support/pages.ts";
import { solidPng } from "../support/rich-content.ts";
import { expect, test } from "../support/test.ts";

for (const width of [1280, 390]) {
  test(`at ${width} px a question is written from the help, its option edited in place, its picture described, and the category kept; a stray ':' in GIFT is explained`, async ({
    page,
  }) => {
    // Two accessibility audits and an upload on a shared machine.
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
    const stamp = `${Date.now().toString(36)}-${width}`;
    const category = `Editor journey ${stamp}`;
    const token = await sharedAdminToken();
    await page.goto("/admin/login");
    await page.evaluate((stored) => localStorage.setItem("adminToken", stored), token);
    await page.goto("/admin/questions");

    // The field says what it takes; the help, one press away, has an example of each.
    const questionField = page.getByLabel("Question", { exact: true });
    await expect(questionField).toHaveAccessibleDescription(/^Takes Markdown: \*\*bold\*\*, \*italics\*, `code`/);
    const examples = page.getByRole("table", { name: "What to write for each kind of formatting" });
    await expect(examples).toBeHidden();
    await page.getByText("Formatting help: Markdown, code, math and pictures").click();
    await expect(examples).toBeVisible();
    const example = (what: RegExp) => examples.getByRole("row", { name: what }).locator("pre").innerText();
    const math = await example(/^Math in a sentence/);
    const code = await example(/^A block of code/);
    await questionField.fill(`Which value of x solves it (${stamp})? ${math}\n${code}\n`);
    const preview = page.getByRole("region", { name: "Preview" });
    await expect(preview.locator(".katex").first()).toBeVisible();
    await expect(preview.locator("pre code.language-python")).toContainText("print(2 ** 3)");

    // A picture: the editor asks for its description and inserts nothing without one or a "decorative" choice.
    await page.getByLabel("Insert image").setInputFiles({
      name: "red-square.png",
      mimeType: "image/png",
      buffer: solidPng(8, 8, [200, 30, 30]),
    });
    const description = page.getByLabel("Description (alt text)");
    await expect(description).toBeFocused();
    await expect(description).toHaveAccessibleDescription(/screen reader hears this instead of seeing the picture/);
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Insert picture" }).click();
    await expect(description).toHaveAccessibleDescription(/Describe the picture, or tick Decorative/);
    await expect(questionField).not.toHaveValue(/!\[/);
    await description.fill("A red square");
    await page.getByRole("button", { name: "Insert picture" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Inserted red-square.png." })).toBeVisible();
    await expect(questionField).toHaveValue(/!\[A red square\]\(\/api\/media\/[0-9a-f]{64}\.png\)/);
    await expect(preview.getByRole("img", { name: "A red square" })).toBeVisible();

    // Options: a slip corrected in place, without removing the option.
    await page.getByLabel("Category", { exact: true }).fill(category);
    for (const option of ["four", "-4", "16"]) {
      await page.getByLabel("Option", { exact: true }).fill(option);
      await page.getByRole("button", { name: "Add Option" }).click();
    }
    await page.getByLabel("Option 1 text").fill("4");
    await expect(page.getByRole("radio", { name: "Correct answer: option 1" })).toBeChecked();
    await expect(preview.getByRole("listitem").first()).toHaveText("A. 4");
    // The form fits the screen: nothing is out of view sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    await page.getByRole("button", { name: "Create Question" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Question created." })).toBeVisible();
    // Ready for the next question in the same category; the category is now among those offered.
    await expect(page.getByLabel("Category", { exact: true })).toHaveValue(category);
    await expect(questionField).toHaveValue("");
    await expect(page.getByLabel("Option 1 text")).toHaveCount(0);
    await expect(page.locator(`#question-categories option[value="${category}"]`)).toHaveCount(1);
    await page.getByLabel("Search questions").fill(stamp);
    const row = page.getByRole("region", { name: "Question bank" }).getByRole("row").filter({ hasText: stamp });
    await expect(row.getByText("4 (correct answer)")).toBeVisible();
    await expect(row.getByRole("img", { name: "A red square" })).toBeVisible();

    // A plain ':' in a GIFT question: the problem names its line and says what to write.
    const gift = (text: string) =>
      Buffer.from(`$CATEGORY: ${category}\n\nTime check (${stamp})${text} what is 2 + 2? {=4 ~5}\n`);
    await page
      .getByLabel("Question file")
      .setInputFiles({ name: "colon.gift.txt", mimeType: "text/plain", buffer: gift(":") });
    await page.getByRole("button", { name: "Preview import" }).click();
    const problems = page.getByRole("alert").filter({ hasText: "1 problem in the file" });
    await expect(problems).toContainText(
      `Line 3: A ':' in the question text must be written '\\:' in GIFT: "Time check (${stamp})\\: what is 2 + 2? {=4 ~5}".`,
    );
    await expect(problems).not.toContainText("Expected");
    await expectNoAxeViolations(page);
    // Written as it says, the question reads.
    await page
      .getByLabel("Question file")
      .setInputFiles({ name: "colon.gift.txt", mimeType: "text/plain", buffer: gift("\\:") });
    await page.getByRole("button", { name: "Preview import" }).click();
    await expect(page.getByText("1 question would be created")).toBeVisible();
  });
}
