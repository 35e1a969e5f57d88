import type { AttemptState } from "@trainwise/contract/quiz";
import { apiCall, sharedAdminToken, uniqueStudent } from "../support/api.ts";
import { ownQuestions, plainQuestions, rightLetter, uniqueName } from "../support/own-quiz.ts";
import { expectNoAxeViolations } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

// The item analysis of a test in sections: three students answer through the API with answers fixed here,
// and an admin reads how each section did, narrows the questions to one section, on a laptop and on a phone.

type InProgress = Extract<AttemptState, { status: "in_progress" }>;

/** Per section, the questions a student answers right or wrong (by number in the section); the rest are left. */
type Plan = Record<"quant" | "verbal", Record<number, "right" | "wrong">>;

test("an admin reads each section's marks in the item analysis and filters its questions by section", async ({
  page,
}) => {
  test.slow();
  const token = await sharedAdminToken();
  const quant = uniqueName("Analysis Quant");
  const verbal = uniqueName("Analysis Verbal");
  await ownQuestions(quant, plainQuestions(2, quant), token);
  await ownQuestions(verbal, plainQuestions(2, verbal), token);
  const testName = uniqueName("Sections analysed");
  const created = await apiCall<{ _id: string }>("/tests", {
    token,
    body: {
      name: testName,
      timingMode: "whole_quiz",
      sections: [
        { name: "Quantitative Aptitude", categories: [quant], questionCount: 2, negativeMark: 0.5, cutOff: 50 },
        { name: "Verbal Ability", categories: [verbal], questionCount: 2 },
      ],
    },
  });
  const drive = await apiCall<{ _id: string; code: string }>("/drives", {
    token,
    body: { name: `${testName} drive`, testId: created._id },
  });

  async function sit(plan: Plan) {
    const student = await apiCall<{ token: string }>("/auth/student/register", {
      body: { ...uniqueStudent(), driveCode: drive.code },
    });
    const state = await apiCall<InProgress>("/quiz/start", { token: student.token, method: "POST", body: {} });
    for (const question of state.questions) {
      const number = Number(question.text.match(/^Question (\d+) of /)?.[1]);
      const choice = (question.text.includes(quant) ? plan.quant : plan.verbal)[number];
      if (!choice) continue;
      const right = rightLetter(question.text);
      const letter = choice === "right" ? right : right === "A" ? "B" : "A";
      const option = question.options.find((candidate) => candidate.text === `Option ${letter}`);
      await apiCall("/quiz/answers", {
        token: student.token,
        method: "PUT",
        body: { questionId: question._id, optionId: option?._id },
      });
    }
    await apiCall("/quiz/submit", { token: student.token, body: { answers: [] } });
  }
  // Quantitative Aptitude (−0.5 a wrong answer, cut-off 50%): 100% (met), 0.5 of 2 = 25%, 0%: mean 41.67%, median
  // 25.00%, 1 of 3 met. Verbal Ability (no cut-off): 100%, 50%, 0%.
  await sit({ quant: { 1: "right", 2: "right" }, verbal: { 1: "right", 2: "right" } });
  await sit({ quant: { 1: "right", 2: "wrong" }, verbal: { 1: "right" } });
  await sit({ quant: {}, verbal: { 1: "wrong", 2: "wrong" } });

  await page.goto("/admin/login");
  await page.evaluate((stored) => localStorage.setItem("adminToken", stored), token);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/admin/drives/${drive._id}/analysis`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Item analysis: ${testName} drive`);

  async function expectSectionsTable() {
    const table = page.getByRole("table", { name: /^Sections/ });
    await expect(table.getByRole("columnheader")).toHaveText([
      "Section",
      "Attempts",
      "Mean",
      "Median",
      "Met the cut-off",
    ]);
    await expect(table.getByRole("rowheader")).toHaveText(["Quantitative Aptitude", "Verbal Ability"]);
    const cells = (name: string) => table.getByRole("row").filter({ hasText: name }).getByRole("cell");
    await expect(cells("Quantitative Aptitude")).toHaveText(["3", "41.67%", "25.00%", "1 of 3"]);
    await expect(cells("Verbal Ability")).toHaveText(["3", "50.00%", "50.00%", "No cut-off"]);
    return table;
  }
  await expectSectionsTable();

  // Every question says its section; the filter keeps those of one section, and says how many it shows.
  const questions = page.getByRole("table", { name: /^Per question/ }).getByRole("rowheader");
  await expect(questions).toHaveCount(4);
  await expect(questions.filter({ hasText: "Section: Quantitative Aptitude" })).toHaveCount(2);
  await expect(questions.filter({ hasText: "Section: Verbal Ability" })).toHaveCount(2);
  const filter = page.getByLabel("Section", { exact: true });
  await expect(filter).toHaveValue("");
  await expect(filter.locator("option")).toHaveText(["All sections", "Quantitative Aptitude", "Verbal Ability"]);
  await filter.focus();
  await filter.selectOption({ label: "Verbal Ability" });
  await expect(filter).toBeFocused();
  await expect(page.getByText("2 of 4 questions, in Verbal Ability")).toBeVisible();
  await expect(questions).toHaveCount(2);
  for (const row of await questions.all()) {
    await expect(row).toContainText(verbal);
    await expect(row).toContainText("Section: Verbal Ability");
  }
  await expectNoAxeViolations(page);

  // On a phone: the sections table's rows stack, so neither it nor the page scrolls sideways; the filter still works.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.reload();
  const table = await expectSectionsTable();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    "no sideways scrolling of the page on a phone",
  ).toBe(true);
  const box = await table.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(360);
  await filter.selectOption({ label: "Quantitative Aptitude" });
  await expect(page.getByText("2 of 4 questions, in Quantitative Aptitude")).toBeVisible();
  await expect(questions).toHaveCount(2);
  for (const row of await questions.all()) await expect(row).toContainText(quant);
  await expectNoAxeViolations(page);
});
