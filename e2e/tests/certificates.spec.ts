import fs from "node:fs";
import { extractText } from "unpdf";
import { baseUrl, sharedAdminToken, uniqueStudent } from "../support/api.ts";
import { ownQuiz } from "../support/own-quiz.ts";
import { expectNoAxeViolations, fillRegistration } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

const escapeRegExp = (text: string) => text.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("a passing student keeps the resume code, downloads a certificate naming them, and /verify confirms it", async ({
  page,
}) => {
  // A roster-only drive, open now, on a short whole-quiz test with a pass mark, of questions of its own: a
  // certificate vouches for who took the test only where the college's candidate list confirms it.
  const { questions, drive } = await ownQuiz({
    title: "Certified Aptitude",
    questions: 3,
    test: { timingMode: "whole_quiz", passMark: 60, reviewPolicy: "score_and_ticks" },
    drive: { name: "Certificate batch", organisation: "Sunrise Engineering College", rosterOnly: true },
  });
  const correctText = new Map(
    questions.map((question) => [question.text, question.options.find((option) => option.isCorrect)?.text]),
  );
  const student = { ...uniqueStudent(), name: `Asha Certified ${Date.now()}` };
  const uploaded = await fetch(`${baseUrl()}/api/drives/${drive._id}/roster`, {
    method: "PUT",
    headers: { authorization: `Bearer ${await sharedAdminToken()}`, "content-type": "text/csv" },
    body: `email,usn\n${student.email},${student.usnNo}\n`,
  });
  expect(uploaded.status).toBe(200);

  // The share link fills in the code.
  await page.goto(`/student/register?drive=${drive.code.toLowerCase()}`);
  await expect(page.getByLabel("Drive code (if you were given one)")).toHaveValue(drive.code);
  await fillRegistration(page, student);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/quiz$/);

  const note = page.getByRole("region", { name: "Your resume code" });
  await expect(note).toContainText(/Your resume code is [A-Z2-9]{4}-[A-Z2-9]{4}\./);
  await expectNoAxeViolations(page);
  await note.getByRole("button", { name: "I have noted it" }).click();
  await expect(note).toHaveCount(0);

  // A whole-quiz test: one clock, every question reachable, Submit on the last.
  await expect(page.getByRole("timer")).toHaveText(/^Time Left: 1:(2\d|30) for the whole quiz$/);
  for (let position = 1; position <= 3; position++) {
    await expect(page.getByText(`Question ${position} of 3`, { exact: true })).toBeVisible();
    const questionText = await page.getByRole("main").getByRole("heading", { level: 2 }).innerText();
    await page
      .getByRole("radio", { name: new RegExp(`^[A-J]\\. ${escapeRegExp(correctText.get(questionText) ?? "")}$`) })
      .check();
    await page.getByRole("button", { name: position === 3 ? "Submit" : "Next" }).click();
  }

  await expect(page.getByText("Your Score: 100.00%")).toBeVisible();
  await expect(page.getByText("Passed (pass mark 60%)")).toBeVisible();
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download your certificate" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("certificate.pdf");
  const pdf = fs.readFileSync((await download.path()) ?? "");
  const { text } = await extractText(new Uint8Array(pdf), { mergePages: true });
  expect(text).toContain(student.name);
  const code = text.match(/Verification code: ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/)?.[1];
  expect(code).toBeDefined();

  await page.goto(`/verify/${code}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Verify a certificate");
  await expect(page.getByText(`Certificate ${code} is genuine.`)).toBeVisible();
  await expect(page.getByText(new RegExp(`^${escapeRegExp(student.name)} passed Certified Aptitude`))).toBeVisible();
  await expect(
    page.getByText(`Identity: USN ${student.usnNo}, on the candidate list of Sunrise Engineering College.`),
  ).toBeVisible();
  await expect(page.getByText(student.email)).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("an unknown certificate code is said plainly", async ({ page, allowConsoleError }) => {
  allowConsoleError(/status of 404/);
  await page.goto("/verify/AAAA-BBBB-CCCC");
  await expect(page.getByRole("alert")).toHaveText("No certificate has this code. Check it and try again.");
});
