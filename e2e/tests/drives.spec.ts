import fs from "node:fs/promises";
import type { Page } from "@playwright/test";
import { apiCall, baseUrl, sharedAdminToken, uniqueStudent } from "../support/api.ts";
import { ownQuestions, ownQuiz, plainQuestions, uniqueName } from "../support/own-quiz.ts";
import { expectNoAxeViolations, fillRegistration, wallClock } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

// These journeys run in order in one worker, log in through the page once, and share that session.
test.describe.configure({ mode: "serial" });
let adminToken = "";

async function logIn(page: Page) {
  if (adminToken) {
    await page.goto("/admin/login");
    await page.evaluate((token) => localStorage.setItem("adminToken", token), adminToken);
    await page.goto("/admin/dashboard");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Admin Dashboard");
    return;
  }
  await page.goto("/admin/login");
  await page.getByLabel("Username").fill(process.env.E2E_ADMIN_USERNAME ?? "");
  await page.getByLabel("Password").fill(process.env.E2E_ADMIN_PASSWORD ?? "");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  adminToken = (await page.evaluate(() => localStorage.getItem("adminToken"))) ?? "";
}

/** "10:00 on 3 December (India Standard Time)", as the registration page's refusals name a time. */
function driveTime(instant: Date, timeZone: string, zoneName: string): string {
  const time = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  const day = new Intl.DateTimeFormat("en-GB", { timeZone, day: "numeric", month: "long" });
  return `${time.format(instant)} on ${day.format(instant)} (${zoneName})`;
}

function uniqueCode(prefix: string): string {
  return `${prefix}${Date.now().toString(36).slice(-6)}${Math.floor(Math.random() * 36).toString(36)}`.toUpperCase();
}

async function createDriveThroughApi(token: string, drive: Record<string, unknown>): Promise<{ _id: string }> {
  const tests = (await (
    await fetch(`${baseUrl()}/api/tests`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { _id: string; isDefault: boolean }[];
  const response = await fetch(`${baseUrl()}/api/drives`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ testId: tests.find((candidate) => candidate.isDefault)?._id, ...drive }),
  });
  if (response.status !== 201) throw new Error(`drive not created: ${response.status} ${await response.text()}`);
  return (await response.json()) as { _id: string };
}

test("an admin plans a test and a drive; a student joins by its link and appears in the drive's results", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
  await logIn(page);
  const stamp = Date.now().toString(36);
  // Two categories of the journey's own, with more questions of each difficulty than the test will ask for.
  const aptitude = uniqueName("Aptitude");
  const programming = uniqueName("Programming");
  for (const [category, counts] of [
    [aptitude, { easy: 2, medium: 1, hard: 1 }],
    [programming, { easy: 1, medium: 2, hard: 1 }],
  ] as const) {
    const drafts = Object.entries(counts).flatMap(([difficulty, count]) =>
      plainQuestions(count, `${category}, ${difficulty}`).map((question) => ({
        ...question,
        difficulty: difficulty as keyof typeof counts,
      })),
    );
    await ownQuestions(category, drafts, adminToken);
  }

  // The test: questions of both categories.
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Tests" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tests");
  await page.getByRole("button", { name: "Create Test" }).click();
  await expect(page.getByText("Name is required", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
  const testName = `Aptitude mix ${stamp}`;
  await page.getByLabel("Name", { exact: true }).fill(testName);
  await page.getByRole("checkbox", { name: aptitude, exact: true }).check();
  await page.getByRole("checkbox", { name: programming, exact: true }).check();
  await page.getByRole("radio", { name: "Set how many of each difficulty" }).check();
  await page.getByLabel("Easy questions").fill("2");
  await page.getByLabel("Medium questions").fill("2");
  await page.getByLabel("Hard questions").fill("1");
  await page.getByLabel("Pass mark % (optional)").fill("40");
  await page.getByRole("radio", { name: /^Per question/ }).check();
  await page.getByLabel("After submitting, students see").selectOption({ label: "Score and per-question ticks" });
  // New tests are secure (results when the drive ends); this journey's student reads their score at once.
  await expect(
    page.getByRole("radio", { name: /^Secure: scores, pass or fail and ticks come out together/ }),
  ).toBeChecked();
  await page.getByRole("radio", { name: /^Practice: scores at submit/ }).check();
  await expect(page.getByRole("checkbox", { name: /^Show the rules first/ })).toBeChecked();
  await page.getByRole("button", { name: "Create Test" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Test created." })).toBeVisible();
  const testRow = page.getByRole("row").filter({ hasText: testName });
  await expect(testRow).toContainText("5 (2 easy, 2 medium, 1 hard)");
  await expect(testRow).toContainText("40%");
  await expect(testRow).toContainText("Practice: at submit");
  await expect(testRow).toContainText(`${aptitude}, ${programming}`);
  await expect(testRow).not.toContainText("fewer than the test asks for");
  await expectNoAxeViolations(page);

  // Editing starts from the saved recipe.
  await testRow.getByRole("button", { name: `Edit test ${testName}` }).click();
  await expect(page.getByRole("heading", { name: `Edit test: ${testName}` })).toBeFocused();
  await expect(page.getByRole("radio", { name: "Set how many of each difficulty" })).toBeChecked();
  await expect(page.getByLabel("Hard questions")).toHaveValue("1");
  await expect(page.getByRole("checkbox", { name: programming, exact: true })).toBeChecked();
  await page.getByLabel("Seconds per question").fill("45");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Test updated." })).toBeVisible();
  await expect(
    page
      .getByRole("row")
      .filter({ hasText: testName })
      .getByRole("cell", { name: /^45 s a question/ }),
  ).toBeVisible();

  // The drive, open from a minute ago for two hours, planned in India's time.
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Drives" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Drives");
  const driveName = `Lakeview campus drive ${stamp}`;
  const code = uniqueCode("LV");
  const opens = new Date(Date.now() - 60_000);
  const closes = new Date(Date.now() + 2 * 60 * 60_000);
  await page.getByLabel("Test", { exact: true }).selectOption({ label: `${testName} (5 questions)` });
  await page.getByLabel("Name", { exact: true }).fill(driveName);
  await page.getByLabel("College or company").fill("Lakeview Institute of Technology");
  await page.getByLabel("Batch").fill("2026 CSE");
  await page.getByLabel(/^Code/).fill(code);
  await expect(page.getByLabel("Time zone of the opening and closing times")).toHaveValue("Asia/Kolkata");
  await page.getByLabel(/^Opens at/).fill(wallClock(opens, "Asia/Kolkata"));
  await page.getByLabel(/^Closes at/).fill(wallClock(closes, "Asia/Kolkata"));
  await page.getByRole("button", { name: "Create Drive" }).click();
  // The new drive's page, where its link, QR code and roster are.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Drive: ${driveName}`);
  await expect(
    page.getByRole("status").filter({ hasText: `Drive created. Students register with the code ${code}.` }),
  ).toBeVisible();
  await page.getByRole("link", { name: "Back to all drives" }).click();
  const driveRow = page.getByRole("row").filter({ hasText: driveName });
  await expect(driveRow.getByRole("cell", { name: "Open", exact: true })).toBeVisible();
  await expect(driveRow).toContainText(testName);
  await expect(driveRow).toContainText(`${wallClock(closes, "Asia/Kolkata").slice(11)} (India Standard Time)`);
  await expectNoAxeViolations(page);

  // Its page: the share link, copied and printed with the code and the QR code.
  await driveRow.getByRole("link", { name: driveName }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Drive: ${driveName}`);
  // Left unticked on the form: closing lets running attempts finish their time.
  await expect(page.getByText("Running attempts may finish their time", { exact: true })).toBeVisible();
  const link = `${baseUrl()}/student/register?drive=${code}`;
  await expect(page.getByRole("link", { name: link })).toHaveAttribute("href", link);
  const qr = page.getByRole("img", { name: `QR code of the link to register for ${driveName}` });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((element) => element.tagName)).toBe("svg");
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Link copied." })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await page.evaluate(() => {
    window.print = () => {
      document.body.dataset.printed = "yes";
    };
  });
  await page.getByRole("button", { name: "Print" }).click();
  await expect(page.locator("body")).toHaveAttribute("data-printed", "yes");
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("navigation", { name: "Admin" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await expect(page.getByText(code, { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: link })).toBeVisible();
  await expect(qr).toBeVisible();
  // A notice for a notice board: the test, the window and the steps, not just a code in a corner.
  const sheet = page.getByRole("region", { name: `How students join ${driveName}` });
  await expect(sheet).toContainText(`${testName} for Lakeview Institute`);
  await expect(sheet).toContainText(
    new RegExp(`Closes: [^.]*${wallClock(closes, "Asia/Kolkata").slice(11)} \\(India Standard Time\\)\\.`),
  );
  await expect(sheet.getByRole("listitem").first()).toHaveText(
    "Scan the QR code with your phone, or open the link, and check the drive's name.",
  );
  await page.emulateMedia({ media: "screen" });
  await expect(page.getByText("Nobody has submitted this drive's test yet.")).toBeVisible();
  await expectNoAxeViolations(page);

  // A student opens the link with nobody logged in, finds the code filled in, and takes the five questions.
  await page.evaluate(() => localStorage.clear());
  await page.goto(link);
  await expect(page.getByLabel("Drive code (if you were given one)")).toHaveValue(code);
  const student = uniqueStudent();
  await fillRegistration(page, student);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/quiz$/);
  // A test made on the form shows its rules first; the clock starts at Start.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(testName);
  await expect(page.getByText("You pass with 40% or more.")).toBeVisible();
  await page.getByRole("button", { name: "Start" }).click();
  // The student answers nothing: each Next, and Submit, asks first, since a per-question test has no way back.
  for (let position = 1; position <= 4; position++) {
    await expect(page.getByText(`Question ${position} of 5`, { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Move on without an answer" }).click();
  }
  await expect(page.getByText("Question 5 of 5", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Submit" }).click();
  await page.getByRole("button", { name: "Submit without an answer" }).click();
  await expect(page).toHaveURL(/\/result\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Quiz Result" })).toBeVisible();
  await expect(page.getByText("Not passed (pass mark 40%)")).toBeVisible();

  // The admin finds the student in the drive's results and its CSV.
  await logIn(page);
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Drives" }).click();
  await page.getByRole("row").filter({ hasText: driveName }).getByRole("link", { name: driveName }).click();
  const resultRow = page
    .getByRole("table", { name: `Submitted attempts of ${driveName}, best first` })
    .getByRole("row")
    .filter({ hasText: student.email });
  await expect(resultRow).toContainText(student.name);
  await expect(resultRow).toContainText(student.usnNo);
  await expect(resultRow).toContainText("0/5 (0.00%)");
  await expect(resultRow).toContainText("Fail");
  await expect(page.getByText("1 registered, 1 submitted, 0 passed, 1 failed")).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("drive-results.csv");
  const csv = Buffer.concat(await (await file.createReadStream()).toArray()).toString();
  expect(csv).toContain(student.email);
  await expectNoAxeViolations(page);

  // Archiving the test keeps the drive and its results; the default test has no Archive button.
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Tests" }).click();
  await expect(
    page
      .getByRole("row")
      .filter({ hasText: "(default)" })
      .getByRole("button", { name: /^Archive/ }),
  ).toHaveCount(0);
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: `Archive test ${testName}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "The test has been archived." })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: testName })).toHaveCount(0);
});

test("registration explains a drive that has not opened, one that has closed, and a roster that lacks the student", async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(/status of 40[39]/);
  await logIn(page);
  // Closed an hour ago, and a roster-only drive, set up through the API.
  const closedCode = uniqueCode("CL");
  const closedAt = new Date(Date.now() - 60 * 60_000);
  await createDriveThroughApi(adminToken, {
    name: "Closed drive",
    code: closedCode,
    opensAt: new Date(Date.now() - 3 * 60 * 60_000).toISOString(),
    closesAt: closedAt.toISOString(),
    timeZone: "Asia/Kolkata",
  });
  const rosterCode = uniqueCode("RO");
  await createDriveThroughApi(adminToken, {
    name: `Roster drive ${rosterCode}`,
    code: rosterCode,
    rosterOnly: true,
  });

  // Not open yet: planned in New York's summer time through the form, so the time the student reads is the one
  // the admin typed, whatever zone the browser is in.
  const year = new Date().getUTCFullYear() + 1;
  const laterName = `Summer drive ${Date.now().toString(36)}`;
  const laterCode = uniqueCode("NY");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Drives" }).click();
  await page.getByLabel("Test", { exact: true }).selectOption({ index: 1 });
  await page.getByLabel("Name", { exact: true }).fill(laterName);
  await page.getByLabel(/^Code/).fill(laterCode);
  await page.getByLabel("Time zone of the opening and closing times").selectOption("America/New_York");
  await page.getByLabel(/^Opens at/).fill(`${year}-07-15T10:00`);
  // A code another drive has: the server's message shows under the field.
  await page.getByLabel(/^Code/).fill(closedCode);
  await page.getByRole("button", { name: "Create Drive" }).click();
  await expect(page.getByText("Another drive has this code. Choose another.").first()).toBeVisible();
  await expect(page.getByLabel(/^Code/)).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel(/^Code/).fill(laterCode);
  // A closing time already past is usually a mistyped date: the admin is asked before it is saved.
  await page.getByLabel(/^Opens at/).fill(`${year - 2}-07-15T10:00`);
  await page.getByLabel(/^Closes at/).fill(`${year - 2}-07-15T12:00`);
  const asked = new Promise<string>((resolve) =>
    page.once("dialog", (dialog) => {
      resolve(dialog.message());
      void dialog.dismiss();
    }),
  );
  await page.getByRole("button", { name: "Create Drive" }).click();
  expect(await asked).toBe(
    `The closing time, 15 Jul ${year - 2}, 12:00 (Eastern Daylight Time), has already passed: nobody will be able to register or start. Save the drive anyway?`,
  );
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Drives");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(laterName);
  await page.getByLabel(/^Opens at/).fill(`${year}-07-15T10:00`);
  await page.getByLabel(/^Closes at/).fill("");
  await page.getByRole("button", { name: "Create Drive" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Drive: ${laterName}`);
  await page.getByRole("link", { name: "Back to all drives" }).click();
  const laterRow = page.getByRole("row").filter({ hasText: laterName });
  await expect(laterRow.getByRole("cell", { name: "Scheduled", exact: true })).toBeVisible();
  await expect(laterRow).toContainText(`15 Jul ${year}, 10:00 (Eastern Daylight Time)`);

  // The roster is uploaded on the drive's page.
  await page.getByRole("link", { name: `Roster drive ${rosterCode}` }).click();
  await expect(page.getByText("Only students on the roster (0 listed)")).toBeVisible();
  const roster = "email,usn\nlisted.student@example.com,1LV26CS001\n";
  await page
    .getByLabel("Roster CSV file")
    .setInputFiles({ name: "roster.csv", mimeType: "text/csv", buffer: Buffer.from(roster) });
  await page.getByRole("button", { name: "Upload roster" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The roster now lists 1 student." })).toBeVisible();
  await expect(page.getByText("Only students on the roster (1 listed)")).toBeVisible();
  const rosterLine = page
    .getByRole("table", { name: /Every line, by email then USN/ })
    .getByRole("row")
    .nth(1);
  await expect(rosterLine.getByRole("cell")).toHaveText([
    "listed.student@example.com",
    "1LV26CS001",
    "Not yet",
    "None",
  ]);
  await expectNoAxeViolations(page);

  await page.evaluate(() => localStorage.clear());
  // A drive that takes nobody now says why before anyone types, and its form cannot be sent (decision 029).
  const windows: [code: string, message: string][] = [
    [laterCode, "This test opens at 10:00 on 15 July (Eastern Daylight Time). You can register from then."],
    [
      closedCode,
      `This test closed at ${driveTime(closedAt, "Asia/Kolkata", "India Standard Time")}. Registration is closed.`,
    ],
  ];
  for (const [code, message] of windows) {
    await page.goto(`/student/register?drive=${code}`);
    await expect(page.getByLabel("Drive code (if you were given one)")).toHaveValue(code);
    await expect(page.getByText(message)).toBeVisible();
    await expect(page.getByRole("button", { name: "Register" })).toBeDisabled();
  }
  // A roster that does not list the student refuses at Register; the page, which has shown the code is right, says
  // the details are not on the list, under them, instead of sending the student back to the code.
  await page.goto(`/student/register?drive=${rosterCode}`);
  await expect(page.getByText("Only students on this drive's list can register.")).toBeVisible();
  await fillRegistration(page, uniqueStudent());
  await page.getByRole("button", { name: "Register" }).click();
  const notListed =
    "Your email and USN are not on this drive's list. Check them against what you gave your placement officer, or ask them to add you.";
  await expect(page.getByRole("alert").first()).toHaveText(notListed);
  await expect(page.getByLabel("Email", { exact: true })).toHaveAccessibleDescription(notListed);
  await expect(page.getByLabel("Drive code (if you were given one)")).not.toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/student\/register/);

  // Closing, reopening and archiving the drive that has not opened yet.
  await logIn(page);
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Drives" }).click();
  const closing = new Promise<string>((resolve) =>
    page.once("dialog", (dialog) => {
      resolve(dialog.message());
      void dialog.accept();
    }),
  );
  await laterRow.getByRole("button", { name: `Close drive ${laterName}` }).click();
  expect(await closing).toBe(
    `Close the drive "${laterName}" now? Nobody new can register or start. Nobody is sitting it now.`,
  );
  await expect(
    page.getByRole("status").filter({ hasText: "The drive is closed: nobody new can register or start." }),
  ).toBeVisible();
  await expect(laterRow.getByRole("cell", { name: "Closed", exact: true })).toBeVisible();
  await laterRow.getByRole("button", { name: `Reopen drive ${laterName}` }).click();
  // It has not reached its opening time, and the admin is told so.
  await expect(
    page.getByRole("status").filter({ hasText: /^The drive is no longer closed by hand; it opens at \d\d:\d\d on / }),
  ).toBeVisible();
  await expect(laterRow.getByRole("cell", { name: "Scheduled", exact: true })).toBeVisible();
  page.once("dialog", (dialog) => void dialog.accept());
  await laterRow.getByRole("button", { name: `Archive drive ${laterName}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "The drive has been archived." })).toBeVisible();
  await expect(laterRow).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("personal links: the placement officer's CSV, a classmate refused, the student admitted with their identity locked", async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(/status of 403/);
  await logIn(page);
  const code = uniqueCode("PL");
  const driveName = `Links drive ${code}`;
  const drive = await createDriveThroughApi(adminToken, {
    name: driveName,
    organisation: "Lakeview Institute",
    code,
    rosterOnly: true,
    personalLinksOnly: true,
  });
  const student = uniqueStudent();
  const classmate = uniqueStudent();

  // The roster goes up on the drive's page, and the links come down as the placement officer's CSV.
  await page.goto(`/admin/drives/${drive._id}`);
  await expect(page.getByText(`Only students on the roster (0 listed), through their personal links`)).toBeVisible();
  await page.getByLabel("Roster CSV file").setInputFiles({
    name: "roster.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`email,usn\n${student.email},${student.usnNo}\n${classmate.email},${classmate.usnNo}\n`),
  });
  await page.getByRole("button", { name: "Upload roster" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The roster now lists 2 students." })).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Make links for lines without one" }).click();
  const csvFile = await download;
  expect(csvFile.suggestedFilename()).toBe(`personal-links-${code}.csv`);
  const csv = await fs.readFile((await csvFile.path()) ?? "", "utf8");
  await expect(page.getByRole("status").filter({ hasText: "Made 2 personal links." })).toBeVisible();
  const rows = csv
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => line.split(","));
  const link = rows.find(([email]) => email === student.email)?.[2] ?? "";
  expect(link).toMatch(new RegExp(`/student/register\\?drive=${code}&link=[A-Za-z0-9_-]{22}$`));
  const roster = page.getByRole("table", { name: /Every line, by email then USN/ });
  await expect(roster.getByRole("row").filter({ hasText: student.email }).getByRole("cell").nth(3)).toHaveText(
    /^Made /,
  );
  await expectNoAxeViolations(page);

  // A classmate who knows the student's email and USN, and has the drive code, is turned away.
  await page.evaluate(() => localStorage.clear());
  await page.goto(`/student/register?drive=${code}`);
  await expect(page.getByText(/^Register with the personal link your placement officer sent you/)).toBeVisible();
  await fillRegistration(page, { ...classmate, email: student.email, usnNo: student.usnNo });
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByRole("alert").first()).toHaveText(
    "This drive takes registrations only through personal links: open the link your placement officer sent you.",
  );

  // The student's own link names the drive, fills in and locks their email and USN, and lets them in.
  await page.goto(new URL(link).pathname + new URL(link).search);
  await expect(page.getByText(`Your personal link for ${driveName} (Lakeview Institute)`)).toBeVisible();
  // Above the form, the panel its drive's share link shows (decision 029), without sending the link holder elsewhere.
  const panel = page.getByRole("region", { name: `${driveName} (Lakeview Institute)` });
  await expect(panel.getByText("Only students on this drive's list can register.")).toBeVisible();
  await expect(panel.getByText(/^Register with the personal link/)).toHaveCount(0);
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(student.email);
  await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("readonly", "");
  await expect(page.getByLabel("USN No", { exact: true })).toHaveValue(student.usnNo);
  await expect(page.getByLabel("USN No", { exact: true })).toHaveAttribute("readonly", "");
  await expect(page.getByLabel("Drive code (if you were given one)")).toHaveValue(code);
  await expectNoAxeViolations(page);
  // The rest the student types; the locked fields take no typing.
  const unlocked = { name: "Name", phone: "Phone", college: "College", course: "Course", group: "Group", year: "Year" };
  for (const [field, label] of Object.entries(unlocked)) {
    await page.getByLabel(label, { exact: true }).fill(student[field as keyof typeof unlocked]);
  }
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/quiz$/);

  // The roster shows the link used.
  await page.evaluate((token) => localStorage.setItem("adminToken", token), adminToken);
  await page.goto(`/admin/drives/${drive._id}`);
  const used = page
    .getByRole("table", { name: /Every line, by email then USN/ })
    .getByRole("row")
    .filter({ hasText: student.email });
  await expect(used.getByRole("cell").nth(2)).toHaveText(student.name);
  await expect(used.getByRole("cell").nth(3)).toHaveText(/^Used /);
});

test("held results: the student waits for the organisers; the admin publishes once everyone's time is up", async ({
  page,
}) => {
  await logIn(page);
  const quiz = await ownQuiz({
    title: "Held results",
    questions: 2,
    test: { timingMode: "whole_quiz", secure: true, reviewPolicy: "score_only" },
    drive: { holdResults: true },
    token: adminToken,
  });
  const { token } = await apiCall<{ token: string }>("/auth/student/register", {
    body: { ...uniqueStudent(), driveCode: quiz.drive.code },
  });
  await apiCall("/quiz/questions?limit=25", { token });
  const { resultId } = await apiCall<{ resultId: string }>("/quiz/submit", { body: { answers: [] }, token });
  const result = () => apiCall<{ status: string; heldForPublishing?: boolean }>(`/quiz/result/${resultId}`, { token });
  expect(await result()).toMatchObject({ status: "pending", heldForPublishing: true });

  await page.goto(`/admin/drives/${quiz.drive._id}`);
  const results = page.locator("dt", { hasText: /^Results$/ }).locator("xpath=following-sibling::dd[1]");
  await expect(results).toHaveText(
    "Scores and pass or fail: held until you publish them, which you can once the drive closes and everyone's time is up",
  );
  await apiCall(`/drives/${quiz.drive._id}/close`, { method: "POST", token: adminToken });
  await page.reload();
  await expect(results).toHaveText("Scores and pass or fail: held; everyone's time is up, so you can publish them");
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Publish results" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Results published: the drive's students can now read them." }),
  ).toBeVisible();
  await expect(results).toHaveText(/^Scores and pass or fail: out since /);
  await expect(page.getByRole("button", { name: "Publish results" })).toHaveCount(0);
  await expectNoAxeViolations(page);
  expect(await result()).toMatchObject({ status: "released" });
});

test("an admin lets a student resume and ends their sessions", async ({ page }) => {
  const student = uniqueStudent();
  // Another drive, so the drive filter has somewhere the student is not.
  const adminToken = await sharedAdminToken();
  const authorised = { "content-type": "application/json", authorization: `Bearer ${adminToken}` };
  const tests = (await (await fetch(`${baseUrl()}/api/tests`, { headers: authorised })).json()) as { _id: string }[];
  const otherDriveName = `Filter check ${Date.now()}`;
  const created = await fetch(`${baseUrl()}/api/drives`, {
    method: "POST",
    headers: authorised,
    body: JSON.stringify({ name: otherDriveName, testId: tests[0]?._id }),
  });
  expect(created.status).toBe(201);
  const registered = await fetch(`${baseUrl()}/api/auth/student/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(student),
  });
  expect(registered.status).toBe(200);
  await logIn(page);
  await page.goto("/admin/students");
  await page.getByLabel("Search students").fill(student.email);
  await expect(page.getByRole("row")).toHaveCount(2);
  await expect(page.getByRole("row").nth(1)).toContainText(student.email);
  // Registered without a code: the open drive, and the drive filter finds the student there and nowhere else.
  await expect(page.getByRole("row").nth(1).getByRole("cell", { name: "Open registration" })).toBeVisible();
  await page.getByLabel("Drive", { exact: true }).selectOption({ label: "Open registration" });
  await expect(page.getByRole("row")).toHaveCount(2);
  await page.getByLabel("Drive", { exact: true }).selectOption({ label: otherDriveName });
  await expect(page.getByText(student.email)).toHaveCount(0);
  await page.getByLabel("Drive", { exact: true }).selectOption({ label: "All drives" });
  await page.getByRole("button", { name: `Actions for ${student.name}` }).click();
  await page.getByRole("button", { name: `Let resume for ${student.name}` }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Give the student this resume code\./ })).toBeVisible();
  // The one-time code is shown to the admin, to hand to the student, until the admin is done with it.
  const issued = page.getByRole("region", { name: `Resume code for ${student.name}` });
  await expect(issued.getByText(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/)).toBeVisible();
  await issued.getByRole("button", { name: "Done, I have passed it on" }).click();
  await expect(issued).toHaveCount(0);
  await page.getByRole("button", { name: `Actions for ${student.name}` }).click();
  await page.getByRole("button", { name: `End sessions for ${student.name}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "The student's sessions have ended." })).toBeVisible();
  await expectNoAxeViolations(page);
});
