// Nothing an admin types into question or option text runs in a browser: each payload goes in through the editor
// (create) and through a GIFT import, and is then looked for wherever question text is shown — the editor's
// preview, the import preview, the questions list, the quiz, the result and the item analysis. A picture upload
// that is really an SVG is refused.
import type { Page } from "@playwright/test";
import { baseUrl, sharedAdminToken, uniqueStudent } from "../support/api.ts";
import { quizOfCategory } from "../support/own-quiz.ts";
import { fillRegistration, openDriveRegistration, pauseClockNow } from "../support/pages.ts";
import { giftEscape, RICH_TEXT } from "../support/rich-content.ts";
import { expect, test } from "../support/test.ts";

const PAYLOADS = [
  "<script>window.__xss=1</script>",
  '<img src=x onerror="window.__xss=1">',
  "[x](javascript:window.__xss=1)",
  '<a href="JaVaScRiPt:window.__xss=1">x</a>',
  '<svg onload="window.__xss=1">',
  '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
  "$\\href{javascript:window.__xss=1}{x}$",
  "![x](javascript:window.__xss=1)",
  '<details open ontoggle="window.__xss=1">x</details>',
];

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="window.__xss=1"><script>window.__xss=1</script></svg>';

declare global {
  interface Window {
    __xss?: number;
  }
}

/**
 * On the page as it stands: the question text is there, holds no script, frame, event handler or script URL, and
 * clicking every link and picture in it runs nothing.
 */
async function expectInert(page: Page, where: string) {
  await expect(page.locator(RICH_TEXT).first(), where).toBeVisible();
  for (const selector of ["script", "iframe", "svg[onload]", "[onerror]", 'a[href^="javascript" i]']) {
    await expect(page.locator(`:is(${RICH_TEXT}) ${selector}`), `${where}: ${selector}`).toHaveCount(0);
  }
  const found = await page.evaluate((containers) => {
    const bad: string[] = [];
    for (const box of document.querySelectorAll(containers)) {
      for (const element of box.querySelectorAll("*")) {
        const tag = element.tagName.toLowerCase();
        if (["script", "iframe", "frame", "object", "embed", "base", "form", "meta", "link", "style"].includes(tag)) {
          bad.push(tag);
        }
        for (const attribute of element.attributes) {
          if (/^on/i.test(attribute.name) || attribute.name === "srcdoc") bad.push(`${tag}[${attribute.name}]`);
          if (/(href|src|action)$/i.test(attribute.name) && /^\s*(javascript|vbscript|data):/i.test(attribute.value)) {
            bad.push(`${tag}[${attribute.name}="${attribute.value}"]`);
          }
        }
      }
    }
    return bad;
  }, RICH_TEXT);
  expect(found, where).toEqual([]);
  const url = page.url();
  await page.evaluate((containers) => {
    for (const target of document.querySelectorAll<HTMLElement>(
      `:is(${containers}) a, :is(${containers}) img, :is(${containers}) details`,
    )) {
      target.click();
    }
  }, RICH_TEXT);
  expect(await page.evaluate(() => window.__xss), where).toBeUndefined();
  expect(page.url(), `${where}: no link went anywhere`).toBe(url);
}

test("script in question and option text never runs, wherever the text is shown", async ({
  page,
  allowConsoleError,
}) => {
  test.setTimeout(180_000);
  // The refused SVG upload (415, or 400 for bytes that are not the image they claim to be).
  allowConsoleError(/status of 4(00|15)/);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const token = await sharedAdminToken();
  const stamp = Date.now().toString(36);
  const category = `XSS journey ${stamp}`;

  // An SVG is not an image the product takes, whatever it is called.
  await page.goto("/admin/login");
  await page.evaluate((stored) => localStorage.setItem("adminToken", stored), token);
  await page.goto("/admin/questions");
  await page.getByLabel("Insert image").setInputFiles({
    name: "picture.svg",
    mimeType: "image/svg+xml",
    buffer: Buffer.from(SVG),
  });
  await expect(page.getByRole("alert").filter({ hasText: /\w/ })).toBeVisible();
  await expect(page.getByLabel("Question", { exact: true })).toHaveValue("");
  for (const contentType of ["image/svg+xml", "image/png"]) {
    const response = await fetch(`${baseUrl()}/api/media`, {
      method: "POST",
      headers: { "content-type": contentType, authorization: `Bearer ${token}` },
      body: SVG,
    });
    expect([400, 415], `an SVG sent as ${contentType}`).toContain(response.status);
  }

  // Through the editor: every payload in the question, one in each option; the live preview shows them inert.
  const created = `Created (${stamp})`;
  await page.getByLabel("Question", { exact: true }).fill([created, ...PAYLOADS].join("\n\n"));
  await page.getByLabel("Category", { exact: true }).fill(category);
  for (const payload of PAYLOADS) {
    await page.getByLabel("Option", { exact: true }).fill(payload);
    await page.getByRole("button", { name: "Add Option" }).click();
  }
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview.locator("[data-preview]")).toContainText(created);
  await expect(preview.getByRole("listitem")).toHaveCount(PAYLOADS.length);
  await expectInert(page, "editor preview");
  await page.getByRole("button", { name: "Create Question" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Question created." })).toBeVisible();

  // Through a GIFT import: the same payloads; the import preview shows them inert.
  const imported = `Imported (${stamp})`;
  const gift = [
    `$CATEGORY: $course$/top/${category}`,
    "",
    `::Imported::[markdown]${giftEscape([imported, ...PAYLOADS].join("\n"))}`,
    `{${PAYLOADS.map((payload, index) => `${index === 0 ? "=" : "~"}${giftEscape(payload)}`).join(" ")}}`,
    "",
  ].join("\n");
  await page.getByLabel("Question file").setInputFiles({
    name: "xss.gift.txt",
    mimeType: "text/plain",
    buffer: Buffer.from(gift),
  });
  await page.getByRole("button", { name: "Preview import" }).click();
  await expect(page.getByText("1 question would be created.")).toBeVisible();
  await expectInert(page, "import preview");
  await page.getByRole("button", { name: "Import 1 question" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Imported 1 questions." })).toBeVisible();

  await page.getByLabel("Search questions").fill(`(${stamp})`);
  const bank = page.getByRole("region", { name: "Question bank" });
  // The header row and the two questions.
  await expect(bank.getByRole("row")).toHaveCount(3);
  await expectInert(page, "questions list");

  // A student sits both questions.
  const quiz = await quizOfCategory(category, 2, {
    test: { name: `XSS test ${stamp}`, timingMode: "whole_quiz" },
    drive: { name: `XSS drive ${stamp}` },
    token,
  });
  const { drive } = quiz;
  await page.clock.install();
  await openDriveRegistration(page, quiz);
  await fillRegistration(page, uniqueStudent());
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/quiz$/);
  for (let position = 1; position <= 2; position++) {
    await expect(page.getByText(`Question ${position} of 2`, { exact: true })).toBeVisible();
    await expect(page.getByRole("radio")).toHaveCount(PAYLOADS.length);
    await expectInert(page, `quiz question ${position}`);
    await page.getByRole("radio").first().check();
    await page.getByRole("button", { name: position === 2 ? "Submit" : "Next" }).click();
  }
  await expect(page.getByText(/^Your Score: /)).toBeVisible();
  await pauseClockNow(page);
  // The two questions' texts, and beside each the option the student chose (decision 026): hostile text all four.
  await expect(page.locator(RICH_TEXT)).toHaveCount(4);
  await expectInert(page, "result");

  await page.clock.resume();
  await page.goto(`/admin/drives/${drive._id}/analysis`);
  await expect(page.getByRole("rowheader")).toHaveCount(2);
  await expectInert(page, "item analysis");

  expect(dialogs, "no dialog opened").toEqual([]);
});
