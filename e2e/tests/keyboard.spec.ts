// The student journey with the keyboard alone: no clicks, no mouse.
import type { Locator, Page } from "@playwright/test";
import { uniqueStudent } from "../support/api.ts";
import { expect, test } from "../support/test.ts";

async function tabTo(page: Page, target: Locator, limit = 60) {
  for (let step = 0; step < limit; step++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("could not reach the element with Tab");
}

test("register, answer with arrow keys and Space, move on with Enter, and see the result", async ({ page }) => {
  await page.clock.install();
  await page.goto("/student/register");
  const student = uniqueStudent();
  await tabTo(page, page.getByLabel("Name", { exact: true }));
  for (const value of Object.values(student)) {
    await page.keyboard.type(value);
    await page.keyboard.press("Tab");
  }
  // The optional drive code comes last; without one the student joins the open drive.
  await expect(page.getByLabel("Drive code (if you were given one)")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Register" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/quiz$/);

  // The open drive draws from the whole bank, which other journeys add to: a question may show code (its block
  // scrolls, so it takes a place in the tab order) and may ask for several answers (checkboxes, one tab stop each,
  // where a radio group is one stop whose arrow keys move the choice).
  const heading = page.getByRole("main").getByRole("heading", { level: 2 });
  let answeredWithArrows = 0;
  for (let position = 1; position <= 25; position++) {
    await expect(page.getByText(`Question ${position} of 25`, { exact: true })).toBeVisible();
    // Each new question takes the focus, so a screen reader starts there.
    await expect(heading).toBeFocused();
    for (const stop of await heading.locator("a[href], [tabindex]:not([tabindex='-1'])").all()) {
      await page.keyboard.press("Tab");
      await expect(stop).toBeFocused();
    }
    await page.keyboard.press("Tab");
    const radios = page.getByRole("radio");
    if ((await radios.count()) > 0) {
      await expect(radios.first()).toBeFocused();
      await page.keyboard.press("Space");
      await expect(radios.first()).toBeChecked();
      await page.keyboard.press("ArrowDown");
      await expect(radios.nth(1)).toBeChecked();
      answeredWithArrows++;
    } else {
      const boxes = page.getByRole("checkbox");
      await expect(boxes.first()).toBeFocused();
      await page.keyboard.press("Space");
      await expect(boxes.first()).toBeChecked();
      await page.keyboard.press("Tab");
      await expect(boxes.nth(1)).toBeFocused();
      await page.keyboard.press("Space");
      await expect(boxes.nth(1)).toBeChecked();
      await expect(boxes.first()).toBeChecked();
    }
    const button = page.getByRole("button", { name: position === 25 ? "Submit" : "Next" });
    await tabTo(page, button);
    await page.keyboard.press("Enter");
  }
  expect(answeredWithArrows, "questions answered with Space and the arrow keys").toBeGreaterThan(0);
  await expect(page).toHaveURL(/\/result\//);
  await expect(page.getByText(/^Your Score: \d+\.\d\d%$/)).toBeVisible();
});

test("the timer is announced when a question opens and at 10 seconds, not every second", async ({ page }) => {
  await page.clock.install();
  await page.goto("/student/register");
  const student = uniqueStudent();
  for (const [label, value] of Object.entries({
    Name: student.name,
    Email: student.email,
    Phone: student.phone,
    "USN No": student.usnNo,
    College: student.college,
    Course: student.course,
    Group: student.group,
    Year: student.year,
  })) {
    await page.getByLabel(label, { exact: true }).fill(value);
  }
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/quiz$/);
  const live = page.locator("[aria-live=polite]");
  await expect(live).toHaveText("Question 1 of 25. You have 30 seconds.");
  await expect(page.getByRole("timer")).not.toHaveAttribute("aria-live", /polite|assertive/);
  await page.clock.runFor(5_000);
  await expect(live).toHaveText("Question 1 of 25. You have 30 seconds.");
  await page.clock.runFor(15_000);
  await expect(live).toHaveText("10 seconds left for this question.");
  await page.clock.runFor(10_000);
  await expect(live).toHaveText("Question 2 of 25. You have 30 seconds.");
});
