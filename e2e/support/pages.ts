// Steps several journeys share: an accessibility check of the page as it stands, the home page's feedback, and
// opening and filling in registration, that nothing on a phone-width page scrolls sideways, and an invigilator's
// live board beside a student on the quiz.
import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Locator, type Page } from "@playwright/test";
import type { uniqueStudent } from "./api.ts";

/** axe-core finds nothing on the page in its current state; a failure names each rule and where it failed. */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(", ")}`),
  ).toEqual([]);
}

const REGISTRATION_LABELS = {
  name: "Name",
  email: "Email",
  phone: "Phone",
  usnNo: "USN No",
  college: "College",
  course: "Course",
  group: "Group",
  year: "Year",
} as const;

/** The text a question's or option's server-rendered HTML shows, as the page's own parser reads it (inert). */
export function renderedText(page: Page, html: string): Promise<string> {
  return page.evaluate((markup) => new DOMParser().parseFromString(markup, "text/html").body.textContent ?? "", html);
}

/**
 * Opens the home page and scrolls to its feedback, as a visitor does: the carousel loads only when it nears the
 * viewport. Resolves once its first slide shows.
 */
export async function openHomeFeedback(page: Page) {
  await page.goto("/");
  await page.getByRole("heading", { name: "What our students say" }).scrollIntoViewIfNeeded();
  await expect(page.getByTestId("feedback-slide").first()).toBeVisible();
}

/** Opens a drive's share link (`ownQuiz`'s `registerPath`) and waits until the page has filled in the drive's code. */
export async function openDriveRegistration(page: Page, quiz: { registerPath: string; drive: { code: string } }) {
  await page.goto(quiz.registerPath);
  await expect(page.getByLabel("Drive code (if you were given one)")).toHaveValue(quiz.drive.code);
}

/** Types a student's details into the registration form, field by field, by their labels. */
export async function fillRegistration(page: Page, student: ReturnType<typeof uniqueStudent>) {
  for (const [field, label] of Object.entries(REGISTRATION_LABELS)) {
    await page.getByLabel(label, { exact: true }).fill(student[field as keyof typeof REGISTRATION_LABELS]);
  }
}

/**
 * Loads `url` while the page's installed clock stands still, moving it on in steps of 50 ms only until `ready`
 * shows. Whatever a page times from when something shows (the result page's return home) has then counted at most
 * one step when this returns, however slowly the machine loaded the page; a running clock would have counted the
 * real time the load took.
 */
export async function gotoOnStoppedClock(page: Page, url: string, ready: Locator): Promise<void> {
  await pauseClockNow(page);
  await page.goto(url, { waitUntil: "commit" });
  for (let moved = 0; !(await ready.isVisible()); moved += 50) {
    if (moved >= 20_000) throw new Error(`${url} did not show its content within 20 s of its own clock`);
    await page.clock.runFor(50);
  }
}

/**
 * Pauses the page's installed clock at about its present time. `pauseAt` refuses a time already past, and on a
 * busy machine the page's clock can pass a fixed margin between reading it and pausing: try again a little
 * further ahead, staying well under a second so a test's own `runFor` steps still decide what comes due.
 */
export async function pauseClockNow(page: Page) {
  for (let margin = 100; ; margin *= 2) {
    try {
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + margin);
      return;
    } catch (error) {
      if (margin >= 800 || !String(error).includes("Cannot fast-forward to the past")) throw error;
    }
  }
}

/** Neither the page nor any table's scroll box scrolls sideways. */
export async function expectNothingScrollsSideways(page: Page) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth - window.innerWidth,
    boxes: [...document.querySelectorAll("main section")]
      .filter((box) => box.querySelector("table"))
      .map((box) => box.scrollWidth - box.clientWidth),
  }));
  expect(widths.page, "the page scrolls sideways").toBeLessThanOrEqual(0);
  for (const extra of widths.boxes) expect(extra, "a table scrolls sideways").toBeLessThanOrEqual(0);
}

/** A `datetime-local` value: the wall-clock time in `timeZone` at `instant`. */
export function wallClock(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("sv-SE", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  })
    .format(instant)
    .replace(" ", "T");
}

/** Opens the live board of `driveId` for the admin of `token`, and waits until it follows the drive's changes. */
export async function openLiveBoard(page: Page, token: string, driveId: string) {
  await page.goto("/admin/login");
  await page.evaluate((saved) => localStorage.setItem("adminToken", saved), token);
  await page.goto(`/admin/drives/${driveId}/live`);
  await expect(page.getByText("Updating as students answer.")).toBeVisible();
}

/**
 * A student at a phone's width (360 × 740) who registers for the drive `driveCode` as `student` and is on a quiz
 * timed as a whole: their page, and its context to close.
 */
export async function studentOnWholeQuiz(
  browser: Browser,
  driveCode: string,
  student: ReturnType<typeof uniqueStudent>,
) {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await page.goto(`/student/register?drive=${driveCode}`);
  await fillRegistration(page, student);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByRole("timer")).toContainText("for the whole quiz");
  return { page, context };
}

/** The seconds a whole-quiz timer shows, from "Time Left: 1:23 for the whole quiz". */
export function timerSeconds(text: string | null): number {
  const [, minutes, seconds] = /(\d+):(\d\d)/.exec(text ?? "") ?? [];
  return Number(minutes) * 60 + Number(seconds);
}
