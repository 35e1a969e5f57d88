import { adminLogin, baseUrl, uniqueStudent } from "../support/api.ts";
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

async function api<T>(path: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<T> {
  const response = await fetch(`${baseUrl()}/api${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

test("an admin reads a drive's item analysis: figures, flags and chart as the students' answers make them", async ({
  page,
}) => {
  // Ten students answer through the API before the page opens.
  test.slow();
  const token = await adminLogin();
  const stamp = Date.now().toString(36);
  const category = `Item journey ${stamp}`;
  const texts = CORRECT.map((_, q) => `Item journey ${stamp} question ${q + 1}?`);
  for (const [q, text] of texts.entries()) {
    await api("/questions", {
      token,
      body: {
        text,
        category,
        difficulty: "medium",
        options: LETTERS.map((letter) => ({ text: `Q${q + 1} option ${letter}`, isCorrect: letter === CORRECT[q] })),
      },
    });
  }
  const testName = `Item journey test ${stamp}`;
  const created = await api<{ _id: string }>("/tests", {
    token,
    body: { name: testName, categories: [category], questionCount: texts.length, timingMode: "whole_quiz" },
  });
  const drive = await api<{ _id: string; code: string }>("/drives", {
    token,
    body: { name: `Item journey drive ${stamp}`, testId: created._id },
  });

  // Each student answers through the API; the attempt's id breaks ties in the ranking, as on the server.
  const attempts: { id: string; score: number; right: boolean[]; choices: (Letter | null)[] }[] = [];
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
    attempts.push({ id: resultId, score: right.filter(Boolean).length, right, choices });
  }

  // What the page must show, from the choices above.
  const percents = attempts.map((attempt) => (attempt.score / texts.length) * 100).sort((a, b) => a - b);
  const mean = percents.reduce((sum, value) => sum + value, 0) / STUDENTS;
  const median = ((percents[STUDENTS / 2 - 1] ?? 0) + (percents[STUDENTS / 2] ?? 0)) / 2;
  const sd = Math.sqrt(percents.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (STUDENTS - 1));
  const ranked = [...attempts].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  const groupSize = Math.ceil(0.27 * STUDENTS);
  const upper = ranked.slice(0, groupSize);
  const lower = ranked.slice(STUDENTS - groupSize);
  const share = (group: typeof attempts, q: number) =>
    group.filter((attempt) => attempt.right[q]).length / group.length;
  const expected = texts.map((_, q) => {
    const facility = share(attempts, q) * 100;
    const discrimination = Math.round((share(upper, q) - share(lower, q)) * 100) / 100;
    const flags = [
      ...(discrimination < 0 ? ["Discriminates negatively"] : []),
      ...(facility === 0 ? ["Nobody right"] : []),
      ...(facility === 100 ? ["Too easy"] : []),
    ];
    return { facility: `${facility.toFixed(1)}%`, discrimination: discrimination.toFixed(2), flags };
  });
  expect(expected[1]?.flags, "the fixed answers make question 2 discriminate negatively").toContain(
    "Discriminates negatively",
  );

  await page.goto("/admin/login");
  await page.evaluate((stored) => localStorage.setItem("adminToken", stored), token);
  await page.goto(`/admin/drives/${drive._id}`);
  await page.getByRole("link", { name: "Item analysis of this drive" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/drives/${drive._id}/analysis$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Item analysis: Item journey drive ${stamp}`);

  const summary = page.getByRole("definition");
  const figure = (label: string) =>
    page
      .getByRole("term")
      .filter({ hasText: new RegExp(`^${label}$`) })
      .locator("xpath=following-sibling::dd");
  await expect(summary.first()).toBeVisible();
  await expect(figure("Submitted attempts")).toHaveText(String(STUDENTS));
  await expect(figure("Mean score")).toHaveText(`${mean.toFixed(1)}%`);
  await expect(figure("Median score")).toHaveText(`${median.toFixed(1)}%`);
  await expect(figure("Standard deviation")).toHaveText(`${(Math.round(sd * 100) / 100).toFixed(1)} points`);
  await expect(figure("Upper and lower groups")).toHaveText(`${groupSize} attempts each`);

  const table = page.getByRole("table");
  for (const [q, text] of texts.entries()) {
    const row = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: text }) });
    const cells = row.getByRole("cell");
    const want = expected[q];
    await expect(cells.nth(0), text).toHaveText(String(STUDENTS));
    await expect(cells.nth(1), text).toHaveText(want?.facility ?? "");
    await expect(cells.nth(2), text).toHaveText(want?.discrimination ?? "");
    for (const letter of LETTERS) {
      const chosen = attempts.filter((attempt) => attempt.choices[q] === letter).length;
      await expect(cells.nth(3), text).toContainText(
        `Q${q + 1} option ${letter}: ${((chosen / STUDENTS) * 100).toFixed(1)}%`,
      );
    }
    const blank = attempts.filter((attempt) => attempt.choices[q] === null).length;
    await expect(cells.nth(3), text).toContainText(`Not answered: ${((blank / STUDENTS) * 100).toFixed(1)}%`);
    if (want?.flags.length) {
      for (const flag of want.flags) await expect(cells.nth(4).getByRole("listitem"), text).toContainText([flag]);
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
  await page.getByRole("link", { name: `Item analysis of test ${testName}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Item analysis: ${testName}`);
  await expect(figure("Submitted attempts")).toHaveText(String(STUDENTS));
});
