import { apiCall as api, sharedAdminToken, uniqueStudent } from "../support/api.ts";
import { analysisCells, expectedAnalysis, summaryFigure } from "../support/item-analysis.ts";
import { ownQuiz } from "../support/own-quiz.ts";
import { expectNoAxeViolations } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

// A drive set up through the API, ten students answering five questions with choices fixed here, and the item
// analysis page checked against figures this file works out from those choices.

const LETTERS = ["A", "B", "C", "D"] as const;
type Letter = (typeof LETTERS)[number];
const CORRECT: Letter[] = ["A", "B", "C", "D", "A"];

/** Student i's choice for question q (0-based), or null for no answer. */
function choiceOf(i: number, q: number): Letter | null {
  switch (q) {
    case 0:
      return i >= 4 ? "A" : "B"; // the stronger students
    case 1:
      return i < 3 ? "B" : "C"; // the weaker ones only: negative discrimination
    case 2:
      return i === 9 ? null : i % 2 ? "A" : "D"; // nobody right
    case 3:
      return i >= 5 ? "D" : "A";
    default:
      return "A"; // everyone right: too easy
  }
}

const STUDENTS = 10;

test("an admin reads a drive's item analysis: figures, flags and chart as the students' answers make them", async ({
  page,
}) => {
  // Ten students answer through the API before the page opens.
  test.slow();
  const token = await sharedAdminToken();
  const quiz = await ownQuiz({
    title: "Item journey",
    questions: CORRECT.map((correct, q) => ({
      text: `Item journey question ${q + 1}?`,
      difficulty: "medium",
      options: LETTERS.map((letter) => ({ text: `Q${q + 1} option ${letter}`, isCorrect: letter === correct })),
    })),
    test: { timingMode: "whole_quiz" },
    token,
  });
  const texts = quiz.questions.map((question) => question.text);
  const { drive, test: created } = quiz;

  // Each student answers through the API; the attempt's id breaks ties in the ranking, as on the server.
  const attempts: { id: string; marks: number; right: boolean[]; choices: (Letter | null)[] }[] = [];
  for (let i = 0; i < STUDENTS; i++) {
    const student = await api<{ token: string }>("/auth/student/register", {
      body: { ...uniqueStudent(), driveCode: drive.code },
    });
    const served = await api<{ _id: string; text: string; options: { _id: string; text: string }[] }[]>(
      "/quiz/questions?limit=25",
      { token: student.token },
    );
    const choices = texts.map((_, q) => choiceOf(i, q));
    const answers = served.flatMap((question) => {
      const q = texts.indexOf(question.text);
      const option = question.options.find((candidate) => candidate.text === `Q${q + 1} option ${choices[q]}`);
      return option ? [{ questionId: question._id, optionId: option._id }] : [];
    });
    const { resultId } = await api<{ resultId: string }>("/quiz/submit", { token: student.token, body: { answers } });
    const right = choices.map((choice, q) => choice === CORRECT[q]);
    attempts.push({ id: resultId, marks: right.filter(Boolean).length, right, choices });
  }

  // What the page must show, from the choices above.
  const want = expectedAnalysis(attempts, texts.length);
  const expected = want.questions;
  expect(expected[1]?.flags, "the fixed answers make question 2 discriminate negatively").toContain(
    "Discriminates negatively",
  );

  await page.goto("/admin/login");
  await page.evaluate((stored) => localStorage.setItem("adminToken", stored), token);
  await page.goto(`/admin/drives/${drive._id}`);
  await page.getByRole("link", { name: "Item analysis of this drive" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/drives/${drive._id}/analysis$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Item analysis: ${drive.name}`);

  const summary = page.getByRole("definition");
  const figure = (label: string) => summaryFigure(page, label);
  await expect(summary.first()).toBeVisible();
  await expect(figure("Submitted attempts")).toHaveText(String(STUDENTS));
  await expect(figure("Mean score")).toHaveText(want.mean);
  await expect(figure("Median score")).toHaveText(want.median);
  await expect(figure("Standard deviation")).toHaveText(want.sd);
  await expect(figure("Upper and lower groups")).toHaveText(want.groups);

  const table = page.getByRole("table");
  for (const [q, text] of texts.entries()) {
    const cells = analysisCells(page, text);
    const wanted = expected[q];
    await expect(cells.nth(0), text).toHaveText(String(STUDENTS));
    await expect(cells.nth(1), text).toHaveText(wanted?.facility ?? "");
    await expect(cells.nth(2), text).toHaveText(wanted?.discrimination ?? "");
    for (const letter of LETTERS) {
      const chosen = attempts.filter((attempt) => attempt.choices[q] === letter).length;
      await expect(cells.nth(3), text).toContainText(
        `Q${q + 1} option ${letter}: ${((chosen / STUDENTS) * 100).toFixed(1)}%`,
      );
    }
    const blank = attempts.filter((attempt) => attempt.choices[q] === null).length;
    await expect(cells.nth(3), text).toContainText(`Not answered: ${((blank / STUDENTS) * 100).toFixed(1)}%`);
    if (wanted?.flags.length) {
      for (const flag of wanted.flags) await expect(cells.nth(4).getByRole("listitem"), text).toContainText([flag]);
    } else {
      await expect(cells.nth(4), text).toHaveText("None");
    }
  }
  await expect(page.getByText(/Students with low total scores got this right more often/)).toBeVisible();

  const chart = page.getByRole("img", { name: "Facility against discrimination" });
  for (const [q, want] of expected.entries()) {
    await expect(chart).toHaveAccessibleDescription(
      new RegExp(`Q${q + 1}: facility ${want.facility.replace(".", "\\.")}, discrimination ${want.discrimination}`),
    );
  }

  // Sorting on the client: by facility, lowest first, puts the question nobody got right on top.
  await page.getByRole("button", { name: "Facility" }).click();
  await expect(table.getByRole("rowheader").first()).toContainText(texts[2] ?? "");
  await expect(page.getByRole("columnheader", { name: "Facility" })).toHaveAttribute("aria-sort", "ascending");

  await expectNoAxeViolations(page);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole("table")).toBeVisible();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    "no sideways scrolling of the page on a phone",
  ).toBe(true);
  await expectNoAxeViolations(page);

  // The same test across its drives, reached from the tests list.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/admin/tests");
  await page.getByRole("link", { name: `Item analysis of test ${created.name}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Item analysis: ${created.name}`);
  await expect(figure("Submitted attempts")).toHaveText(String(STUDENTS));
});
