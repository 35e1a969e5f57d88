// Rich question content end to end: an admin uploads a picture from the editor (whose live preview shows it and
// the highlighted code), imports a GIFT file with a code question, a picture question and a multiple-answer
// question, and a student sees the code highlighted, the formula typeset and the picture loaded, answers all
// three and gets the result the answers make; the drive's item analysis shows what the fixed answers make. Public
// pages load none of the styles and fonts this needs.
import { PUBLIC_PATHS } from "@trainwise/contract/site-paths";
import { apiCall, sharedAdminToken, uniqueStudent } from "../support/api.ts";
import { analysisCells, expectedAnalysis, type FixedAttempt, summaryFigure } from "../support/item-analysis.ts";
import { quizOfCategory } from "../support/own-quiz.ts";
import { expectNoAxeViolations, fillRegistration, openDriveRegistration, pauseClockNow } from "../support/pages.ts";
import { giftEscape, imagesLoaded, solidPng } from "../support/rich-content.ts";
import { expect, test } from "../support/test.ts";

const CODE = `# ${"a comment far too long for a phone's screen, ".repeat(4).trim()}\nprint(len("ten") * 3 + 1)`;
const IMAGE = { width: 48, height: 32 };
const STUDENTS = 10;

/** The questions in the journey's order: code, picture, primes. */
const CODE_QUESTION = "What does this code print";
const PICTURE_QUESTION = "Which shape is shown";
const PRIMES_QUESTION = "Which of these are prime numbers";

type Served = { _id: string; text: string; options: { _id: string; text: string }[] }[];

test("code, a picture and math from the editor and a GIFT file reach the student, the result and the item analysis", async ({
  page,
}) => {
  // Eleven quiz attempts and four accessibility audits on a shared machine.
  test.setTimeout(240_000);
  const token = await sharedAdminToken();
  const stamp = Date.now().toString(36);
  const category = `Rich journey ${stamp}`;

  // The editor: a code block typed in, a picture inserted at the cursor; the live preview shows both.
  await page.goto("/admin/login");
  await page.evaluate((stored) => localStorage.setItem("adminToken", stored), token);
  await page.goto("/admin/questions");
  const questionField = page.getByLabel("Question", { exact: true });
  await questionField.fill(`${CODE_QUESTION}?\n\`\`\`python\n${CODE}\n\`\`\`\n`);
  await page.getByLabel("Insert image").setInputFiles({
    name: "red-square.png",
    mimeType: "image/png",
    buffer: solidPng(IMAGE.width, IMAGE.height, [200, 30, 30]),
  });
  await page.getByLabel("Description (alt text)").fill("A red square");
  await page.getByRole("button", { name: "Insert picture" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Inserted red-square.png." })).toBeVisible();
  const inserted = /!\[[^\]]*\]\(<?(\/api\/media\/[0-9a-f]{64}\.png)>?\)/.exec(await questionField.inputValue());
  expect(inserted, "the picture's Markdown is in the question").not.toBeNull();
  const imageUrl = inserted?.[1] ?? "";
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview.locator("pre code.hljs.language-python .hljs-built_in").first()).toHaveText("print");
  await expect(preview.locator(`img[src="${imageUrl}"]`)).toBeVisible();
  await expect.poll(() => imagesLoaded(page, "[data-preview] img")).toBe(true);
  await expectNoAxeViolations(page);

  // The import: a preview with the code highlighted and the picture shown, then the questions written.
  const gift = [
    `$CATEGORY: $course$/top/${category}`,
    "",
    "// [tag:difficulty-medium]",
    `::Code::[markdown]${giftEscape(`${CODE_QUESTION} (${stamp})? It works out $2^3 + 2$.\n\`\`\`python\n${CODE}\n\`\`\``)}`,
    "{=10 ~9 ~ten ~31}",
    "",
    `::Picture::[markdown]${giftEscape(`${PICTURE_QUESTION} (${stamp})?\n![A red shape](${imageUrl})`)}`,
    "{=A red square ~A blue circle ~A green triangle}",
    "",
    `::Primes::[markdown]${giftEscape(`${PRIMES_QUESTION} (${stamp})?`)}`,
    "{~%50%2 ~%50%3 ~%-50%4 ~%-50%9}",
    "",
  ].join("\n");
  await page.getByLabel("Question file").setInputFiles({
    name: "rich.gift.txt",
    mimeType: "text/plain",
    buffer: Buffer.from(gift),
  });
  await page.getByRole("button", { name: "Preview import" }).click();
  await expect(page.getByText("3 questions would be created.")).toBeVisible();
  const importPreview = page.getByRole("table", { name: "Questions the import would create" });
  const codeRow = importPreview.getByRole("row").filter({ hasText: CODE_QUESTION });
  await expect(codeRow.locator("pre code.hljs .hljs-built_in").first()).toHaveText("print");
  await expect(codeRow.locator(".katex")).toBeVisible();
  await expect(importPreview.locator(`img[src="${imageUrl}"]`)).toBeVisible();
  await expect.poll(() => imagesLoaded(page)).toBe(true);
  await page.getByRole("button", { name: "Import 3 questions" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Imported 3 questions." })).toBeVisible();

  const quiz = await quizOfCategory(category, 3, {
    test: { name: `Rich journey test ${stamp}`, timingMode: "whole_quiz", reviewPolicy: "score_and_ticks" },
    drive: { name: `Rich journey drive ${stamp}` },
    token,
  });
  const { drive } = quiz;

  // A student on a phone: code right, picture wrong, primes 2, 3 and 4 (two right, one wrong: half the mark).
  await page.setViewportSize({ width: 360, height: 800 });
  await page.clock.install();
  await openDriveRegistration(page, quiz);
  await fillRegistration(page, uniqueStudent());
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/quiz$/);
  await page.getByRole("button", { name: "I have noted it" }).click();
  const heading = page.getByRole("main").getByRole("heading", { level: 2 });
  const seen = new Set<string>();
  for (let position = 1; position <= 3; position++) {
    await expect(page.getByText(`Question ${position} of 3`, { exact: true })).toBeVisible();
    const text = await heading.innerText();
    if (text.includes(CODE_QUESTION)) {
      seen.add(CODE_QUESTION);
      await expect(heading.locator("pre code.hljs .hljs-comment")).toBeVisible();
      expect(await heading.locator('pre code.hljs span[class^="hljs-"]').count()).toBeGreaterThan(3);
      // The theme's colours apply (its styles load on this page), and the formula is typeset by KaTeX's CSS.
      await expect(heading.locator(".hljs-built_in").first()).toHaveCSS("color", "rgb(170, 93, 0)");
      const formula = heading.getByRole("img", { name: "2^3 + 2" });
      await expect(formula.locator(".katex .katex-html")).toBeVisible();
      await expect(formula.locator(".katex")).toHaveCSS("font-family", /KaTeX_Main/);
      // The long line scrolls inside the code block, not the page.
      expect(await heading.locator("pre").evaluate((pre) => pre.scrollWidth > pre.clientWidth)).toBe(true);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        "no sideways scrolling of the page at 360 px",
      ).toBe(true);
      await expectNoAxeViolations(page);
      await page.getByRole("radio", { name: /^[A-J]\. 10$/ }).check();
    } else if (text.includes(PICTURE_QUESTION)) {
      seen.add(PICTURE_QUESTION);
      const image = heading.getByRole("img", { name: "A red shape" });
      await expect(image).toHaveAttribute("src", imageUrl);
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(48);
      const served = await page.request.get(imageUrl);
      expect(served.status()).toBe(200);
      expect(served.headers()["content-type"]).toBe("image/png");
      expect(served.headers()["cache-control"]).toMatch(/max-age=\d{7,}.*immutable|immutable.*max-age=\d{7,}/);
      await page.getByRole("radio", { name: /^[A-J]\. A blue circle$/ }).check();
    } else {
      seen.add(PRIMES_QUESTION);
      expect(text).toContain(PRIMES_QUESTION);
      for (const option of ["2", "3", "4"]) {
        await page.getByRole("checkbox", { name: new RegExp(`^[A-J]\\. ${option}$`) }).check();
      }
      await expect(page.getByRole("checkbox", { checked: true })).toHaveCount(3);
    }
    await page.getByRole("button", { name: position === 3 ? "Submit" : "Next" }).click();
  }
  expect(seen.size).toBe(3);

  await expect(page.getByText("Your Score: 50.00%")).toBeVisible();
  // The clock stands still while the student stays; axe then needs its timers running again.
  await pauseClockNow(page);
  await page.getByRole("button", { name: "Stay on this page" }).click();
  await page.clock.resume();
  await expect(page.getByText("1 of 3 answers correct; 1.5 marks after negative marking.")).toBeVisible();
  const resultId = /\/result\/([^/?#]+)/.exec(page.url())?.[1] ?? "";
  const lines = page.getByRole("main").getByRole("listitem");
  await expect(lines.filter({ hasText: PRIMES_QUESTION })).toContainText("Partly right");
  await expect(lines.filter({ hasText: PRIMES_QUESTION })).toContainText("0.50 of 1");
  await expect(lines.filter({ hasText: PICTURE_QUESTION })).toContainText("Wrong");
  await expect(lines.filter({ hasText: CODE_QUESTION })).toContainText("Correct");
  await expect(lines.filter({ hasText: CODE_QUESTION }).locator("pre code.hljs .hljs-comment")).toBeVisible();
  await expect.poll(() => imagesLoaded(page)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expectNoAxeViolations(page);

  // Ten more students answer through the API with answers fixed here.
  const attempts: FixedAttempt[] = [{ id: resultId, marks: 1.5, right: [true, false, false] }];
  for (let i = 0; i < STUDENTS; i++) {
    const student = await apiCall<{ token: string }>("/auth/student/register", {
      body: { ...uniqueStudent(), driveCode: drive.code },
    });
    const served = await apiCall<Served>("/quiz/questions?limit=25", { token: student.token });
    const optionIds = (question: string, texts: string[]) => {
      const found = served.find((candidate) => candidate.text.includes(question));
      return texts.map((text) => found?.options.find((option) => option.text === text)?._id ?? "");
    };
    const questionId = (question: string) => served.find((candidate) => candidate.text.includes(question))?._id ?? "";
    const codeRight = i >= 3;
    const pictureRight = i % 2 === 0;
    const primes = i >= 6 ? ["2", "3"] : i >= 3 ? ["2"] : ["4"];
    const answers = [
      { questionId: questionId(CODE_QUESTION), optionId: optionIds(CODE_QUESTION, [codeRight ? "10" : "31"])[0] },
      {
        questionId: questionId(PICTURE_QUESTION),
        optionId: optionIds(PICTURE_QUESTION, [pictureRight ? "A red square" : "A green triangle"])[0],
      },
      { questionId: questionId(PRIMES_QUESTION), optionIds: optionIds(PRIMES_QUESTION, primes) },
    ];
    const submitted = await apiCall<{ resultId: string; refused: unknown[] }>("/quiz/submit", {
      token: student.token,
      body: { answers },
    });
    expect(submitted.refused).toEqual([]);
    // Partial credit: (right chosen − wrong chosen) ÷ right options, never below 0.
    const primesMark = Math.max(
      0,
      (primes.filter((p) => p === "2" || p === "3").length - primes.filter((p) => p === "4" || p === "9").length) / 2,
    );
    attempts.push({
      id: submitted.resultId,
      marks: Number(codeRight) + Number(pictureRight) + primesMark,
      right: [codeRight, pictureRight, primesMark === 1],
    });
  }
  const want = expectedAnalysis(attempts, 3);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/admin/drives/${drive._id}/analysis`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Item analysis: Rich journey drive ${stamp}`);
  await expect(summaryFigure(page, "Submitted attempts")).toHaveText(String(attempts.length));
  await expect(summaryFigure(page, "Mean score")).toHaveText(want.mean);
  await expect(summaryFigure(page, "Median score")).toHaveText(want.median);
  await expect(summaryFigure(page, "Standard deviation")).toHaveText(want.sd);
  await expect(summaryFigure(page, "Upper and lower groups")).toHaveText(want.groups);
  for (const [q, question] of [CODE_QUESTION, PICTURE_QUESTION, PRIMES_QUESTION].entries()) {
    const cells = analysisCells(page, question);
    await expect(cells.nth(0), question).toHaveText(String(attempts.length));
    await expect(cells.nth(1), question).toHaveText(want.questions[q]?.facility ?? "");
    await expect(cells.nth(2), question).toHaveText(want.questions[q]?.discrimination ?? "");
  }
  await expect(page.getByRole("rowheader").filter({ hasText: CODE_QUESTION }).locator("code.hljs")).toBeVisible();
  await expect(page.getByRole("rowheader").getByRole("img", { name: "A red shape" })).toBeVisible();
});

test("public pages load no highlighting or math styles, and no math fonts", async ({ page }) => {
  test.slow();
  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  for (const path of PUBLIC_PATHS) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    const richRules = await page.evaluate(() =>
      [...document.styleSheets]
        .flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText))
        .filter((rule) => /\.katex|\.hljs|KaTeX_|\.rich-text/.test(rule)),
    );
    expect(richRules, `style rules on ${path}`).toEqual([]);
  }
  expect(requested.filter((url) => /katex|hljs|highlight|rich-text/i.test(url))).toEqual([]);
});
