// A recruiter's shortlist in the browser (issue 26): a viewer on a phone ranks a drive's candidates, keeps the top
// three of one college, downloads that college's sheet, and sees the ranks turn from provisional to final; and a
// candidate on a phone downloads their scorecard, which gives their rank once the drive has settled.
import fs from "node:fs";
import { extractText } from "unpdf";
import { apiCall, sharedAdminToken } from "../support/api.ts";
import { type OwnQuiz, ownQuiz, plainQuestions, takeQuiz, uniqueName } from "../support/own-quiz.ts";
import { expectNoAxeViolations, expectNothingScrollsSideways } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

const NORTH = "North Campus College";
const SOUTH = "South Campus College";

/** A candidate of the quiz's drive from `college` and `course`, right on the first `right` questions. */
const candidate = (quiz: OwnQuiz, right: number, college: string, course: string) =>
  takeQuiz(quiz, right, { name: uniqueName("Shortlist Candidate"), college, course });

test("a viewer on a phone shortlists a college's top candidates and downloads the sheet", async ({ page }) => {
  const token = await sharedAdminToken();
  const quiz = await ownQuiz({
    title: "Shortlist journey",
    questions: plainQuestions(4, "the shortlist journey"),
    test: { timingMode: "whole_quiz", passMark: 50 },
    token,
  });
  // Scores 4, 3, 2, 1 and 0 of 4: ranks 1 to 5 whatever the seconds taken.
  const [first, second, third, fourth] = [
    await candidate(quiz, 4, NORTH, "CSE"),
    await candidate(quiz, 3, SOUTH, "CSE"),
    await candidate(quiz, 2, NORTH, "ECE"),
    await candidate(quiz, 1, NORTH, "CSE"),
    await candidate(quiz, 0, SOUTH, "CSE"),
  ];
  const username = uniqueName("shortlister").replaceAll(" ", "-");
  const { password } = await apiCall<{ password: string }>("/admins", {
    token,
    body: { username, role: "viewer", method: "password" },
  });
  const viewer = await apiCall<{ token: string }>("/auth/admin/login", { body: { username, password } });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/admin/login");
  await page.evaluate((value) => localStorage.setItem("adminToken", value), viewer.token);

  await page.goto(`/admin/drives/${quiz.drive._id}`);
  await page.getByRole("link", { name: "Ranks and shortlists" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Ranks and shortlists: ${quiz.drive.name}`);
  await expect(page.getByRole("status").filter({ hasText: "Provisional." })).toContainText(
    "The drive is still open: candidates who start later may change these ranks.",
  );
  await expect(page.getByText(/^Ranked by score, then by less time taken \(to the second\)/)).toBeVisible();
  const shortlist = page.getByRole("table", { name: `The shortlist of ${quiz.drive.name}, in rank order` });
  await expect(shortlist.getByRole("row")).toHaveCount(6);
  await expectNoAxeViolations(page);

  // The top three of the drive, North's only: ranks 1 and 3 (rank 2 is South's).
  await page.getByRole("radio", { name: "The top candidates" }).check();
  await page.getByRole("spinbutton", { name: "How many top candidates" }).fill("3");
  await page.getByRole("combobox", { name: "College" }).selectOption(NORTH);
  await page.getByRole("button", { name: "Show shortlist" }).click();
  await expect(page.getByRole("heading", { name: `Shortlist: 2 of 3 candidates from ${NORTH}` })).toBeVisible();
  const rows = shortlist.getByRole("row").filter({ hasText: "Shortlist Candidate" });
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(first.name);
  await expect(rows.nth(0)).toContainText("4/4 (100.00%)");
  await expect(rows.nth(0)).toContainText("100.00");
  await expect(rows.nth(1)).toContainText(third.name);
  await expect(rows.nth(1)).toContainText("2/4 (50.00%)");
  await expect(rows.nth(1)).toContainText("60.00");
  await expect(shortlist).not.toContainText(second.name);
  await expect(shortlist).not.toContainText(fourth.name);
  await expectNothingScrollsSideways(page);
  await expectNoAxeViolations(page);
  // Back shows the whole list again, and the form says so (it kept the later choices before); Forward returns.
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Shortlist: 5 of 5 candidates" })).toBeVisible();
  await expect(page.getByRole("radio", { name: "Every candidate" })).toBeChecked();
  await expect(page.getByRole("combobox", { name: "College" })).toHaveValue("");
  await expect(page.getByRole("spinbutton", { name: "How many top candidates" })).toBeDisabled();
  await page.goForward();
  await expect(page.getByRole("radio", { name: "The top candidates" })).toBeChecked();
  await expect(page.getByRole("combobox", { name: "College" })).toHaveValue(NORTH);

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^shortlist-[A-Za-z0-9-]+-North-Campus-College-provisional\.csv$/);
  const lines = Buffer.concat(await (await file.createReadStream()).toArray())
    .toString()
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toContain("Rank,Percentile,Name,Email,Phone,USN,College,Branch/Course,Year,Marks,Out of");
  expect(lines).toHaveLength(3);
  expect(lines[1]).toMatch(new RegExp(`^1,100\\.00,${first.name},${first.email},`));
  expect(lines[2]).toMatch(new RegExp(`^3,60\\.00,${third.name},${third.email},.*,ECE,`));

  // Each college and branch with its counts under the same cut.
  const groups = page.getByRole("table", { name: "Candidates and shortlisted candidates per college and course" });
  await expect(groups.getByRole("row", { name: new RegExp(`${SOUTH}`) })).toContainText("1");
  await expect(page.getByRole("button", { name: `Download the shortlist of ${NORTH}, ECE` })).toBeEnabled();

  // Closed, with no attempt running: the same ranks, now final.
  await apiCall(`/drives/${quiz.drive._id}/close`, { token, method: "POST" });
  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: "Final:" })).toContainText(
    "These ranks change only if an admin removes a registration.",
  );
  await expect(rows).toHaveCount(2);
});

test("a candidate on a phone downloads a scorecard from Your results, with rank and percentile once final", async ({
  page,
}) => {
  const token = await sharedAdminToken();
  const quiz = await ownQuiz({
    title: "Scorecard journey",
    questions: plainQuestions(4, "the scorecard journey"),
    test: { timingMode: "whole_quiz", passMark: 50, secure: false },
    token,
  });
  const candidate = await takeQuiz(quiz, 3, { name: uniqueName("Scorecard Candidate"), course: "CSE" });
  await takeQuiz(quiz, 4);
  await apiCall(`/drives/${quiz.drive._id}/close`, { token, method: "POST" });

  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/student/results");
  await page.getByLabel("Email").fill(candidate.email);
  await page.getByLabel("Resume code").fill(candidate.resumeCode);
  await page.getByRole("button", { name: "Show my results" }).click();
  const result = page.getByRole("region", { name: quiz.test.name });
  await expect(result).toContainText("Your Score: 75.00%");
  const downloading = page.waitForEvent("download");
  await result.getByRole("button", { name: "Download your scorecard" }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe("scorecard.pdf");
  const { text } = await extractText(new Uint8Array(fs.readFileSync((await file.path()) ?? "")), {
    mergePages: true,
  });
  const flat = text.replace(/\s+/g, " ");
  for (const line of [
    `Candidate ${candidate.name}`,
    `USN ${candidate.usnNo}`,
    "Branch/Course CSE",
    "Marks 3 of 4",
    "Score 75.00%",
    "Result Passed (pass mark 50%)",
    "Rank 2 of 2",
    "Percentile 50.00",
  ]) {
    expect(flat).toContain(line);
  }
  await expectNothingScrollsSideways(page);
  await expectNoAxeViolations(page);
});
