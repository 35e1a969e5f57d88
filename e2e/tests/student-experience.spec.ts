// What a student meets around the quiz: the server's messages where they are looking, a result page they can stay
// on, guards that do not trap the back button, and a save that survives a proxy's error page.
import { baseUrl, uniqueStudent } from "../support/api.ts";
import { ownQuiz } from "../support/own-quiz.ts";
import { expectNoAxeViolations, fillRegistration, openDriveRegistration, pauseClockNow } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

const PHONE = { width: 360, height: 640 };

/** A registered student who submitted an empty quiz through the API, with what the result page needs. */
async function submittedResult(): Promise<{ token: string; resultId: string }> {
  const post = async (path: string, body: unknown, token?: string) =>
    (await fetch(`${baseUrl()}/api${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }).then((response) => response.json())) as Record<string, string>;
  const { token } = await post("/auth/student/register", uniqueStudent());
  if (!token) throw new Error("registration failed");
  await fetch(`${baseUrl()}/api/quiz/questions`, { headers: { authorization: `Bearer ${token}` } });
  const { resultId } = await post("/quiz/submit", { answers: [] }, token);
  if (!resultId) throw new Error("submit failed");
  return { token, resultId };
}

test("on a phone, registration's server message appears beside Register and takes focus", async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(/status of 409/);
  await page.setViewportSize(PHONE);
  const student = uniqueStudent();
  await page.goto("/student/register");
  await fillRegistration(page, student);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/quiz$/);
  await page.evaluate(() => localStorage.clear());

  await page.goto("/student/register");
  await fillRegistration(page, { ...student, usnNo: `${student.usnNo}-B` });
  await page.getByRole("button", { name: "Register" }).click();
  const message = page.getByRole("alert").filter({ hasText: "This email or USN is already registered for this test." });
  await expect(message).toBeInViewport({ ratio: 1 });
  expect(await message.evaluate((alert) => alert.parentElement?.contains(document.activeElement))).toBe(true);
  await expectNoAxeViolations(page);
});

test("on a phone, the contact form's answer appears beside Submit and takes focus", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto("/contactform");
  await page.getByLabel("Name").fill("Meera Iyer");
  await page.getByLabel("Email").fill("meera@college.example");
  await page.getByLabel("Subject").fill(`Mock interviews for our batch ${Date.now()}`);
  await page.getByLabel("Phone Number").fill("+91 98450 22222");
  await page.getByRole("button", { name: "Submit" }).click();
  const thanks = page.getByRole("status").filter({ hasText: "Thank you. We have received your message" });
  await expect(thanks).toBeInViewport({ ratio: 1 });
  expect(await thanks.evaluate((status) => status.parentElement?.contains(document.activeElement))).toBe(true);
});

test("the result page's guard replaces the history entry, so Back does not bounce off it", async ({ page }) => {
  await page.goto("/");
  await page.evaluate(() => localStorage.setItem("studentToken", "anything"));
  await page.goto("/result/00000000-0000-4000-8000-000000000000");
  await expect(page).toHaveURL(/\/student\/register$/);
  await page.goBack();
  await expect(page).toHaveURL(`${baseUrl()}/`);
});

test("the result page counts down visibly and lets the student stay to read their answers", async ({ page }) => {
  const { token, resultId } = await submittedResult();
  await page.goto("/");
  await page.evaluate(
    ([studentToken]) => {
      localStorage.setItem("studentToken", studentToken as string);
      localStorage.setItem("quizSubmitted", "true");
    },
    [token],
  );
  // The page loads on a running clock (a paused one can stall it), then the clock stands still, so the redirect
  // waits while the test reads the countdown and presses Stay; only runFor moves it on.
  await page.clock.install();
  await page.goto(`/result/${resultId}`);
  await expect(page.getByText("You will be redirected to the homepage in 5 seconds.")).toBeVisible();
  await pauseClockNow(page);
  await expect(page.locator("[data-countdown]")).toBeVisible();

  await page.getByRole("button", { name: "Stay on this page" }).click();
  await expect(page.getByRole("status").filter({ hasText: "You are staying on this page." })).toBeVisible();
  await page.clock.runFor(30_000);
  await expect(page).toHaveURL(new RegExp(`/result/${resultId}$`));
  // axe waits on timers of its own, which a paused clock never fires. (The countdown state is checked by the
  // whole-quiz journey in portal.spec.ts.)
  await page.clock.resume();
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Go to the homepage" }).click();
  await expect(page).toHaveURL(`${baseUrl()}/`);
});

test("a proxy's HTML error page on a save is retried like a dropped connection, not shown as final", async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(/status of 502/);
  await openDriveRegistration(page, await ownQuiz({ title: "Proxy error", questions: 3 }));
  await fillRegistration(page, uniqueStudent());
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText("Question 1 of 3", { exact: true })).toBeVisible();

  // The first Next meets a load balancer's error page, as while an instance restarts; later ones pass.
  let intercepted = 0;
  await page.route("**/api/quiz/next", async (route) => {
    if (intercepted++ > 0) return route.fallback();
    await route.fulfill({
      status: 502,
      contentType: "text/html",
      body: "<html><body><h1>502 Bad Gateway</h1><hr><center>nginx</center></body></html>",
    });
  });
  await page.getByRole("radio").first().check();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Question 2 of 3", { exact: true })).toBeVisible({ timeout: 15_000 });
  expect(intercepted).toBeGreaterThanOrEqual(2);
});

test("a registration whose answer is lost on the way is retried and lets the student in", async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(/ERR_CONNECTION_RESET|Failed to load resource/);
  await page.goto("/student/register");
  await fillRegistration(page, uniqueStudent());
  // The first try reaches the server and is stored, but its answer never arrives (the instance died after
  // committing); the page's retry must not meet "already registered".
  let tries = 0;
  await page.route("**/api/auth/student/register", async (route) => {
    if (tries++ > 0) return route.fallback();
    await route.fetch();
    await route.abort("connectionreset");
  });
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/quiz$/, { timeout: 15_000 });
  await expect(page.getByText(/[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}/).first()).toBeVisible();
  expect(tries).toBe(2);
});

test("Next with no answer asks first: Stay keeps the question, Move on leaves it unanswered", async ({ page }) => {
  await openDriveRegistration(page, await ownQuiz({ title: "Next unanswered", questions: 4 }));
  await fillRegistration(page, uniqueStudent());
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText("Question 1 of 4", { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Next" }).click();
  const question = page.getByRole("alertdialog", { name: /You have not answered this question/ });
  await expect(question).toBeVisible();
  await expect(page.getByRole("button", { name: "Stay on this question" })).toBeFocused();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Stay on this question" }).click();
  await expect(question).toHaveCount(0);
  await expect(page.getByText("Question 1 of 4", { exact: true })).toBeVisible();

  // Picking an answer ends the question; Next then moves on at once.
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("radio").first().check();
  await expect(question).toHaveCount(0);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Question 2 of 4", { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Move on without an answer" }).click();
  await expect(page.getByText("Question 3 of 4", { exact: true })).toBeVisible();
});

test("a save lost on the way stays on screen until it lands, and the server then holds the answer", async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(/ERR_CONNECTION_RESET|Failed to load resource/);
  const quiz = await ownQuiz({ title: "Lost save", questions: 3 });
  await page.clock.install();
  await openDriveRegistration(page, quiz);
  await fillRegistration(page, uniqueStudent());
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText("Question 1 of 3", { exact: true })).toBeVisible();

  // From here the page's clock moves only in the steps below: the question's 30 seconds on that clock must not
  // run out while lost requests come back in real time on a busy machine (the question would move on, carrying
  // the answer with Next, and the notice would never show).
  await pauseClockNow(page);

  // Every save of the pick is lost on the way, past all of the page's retries.
  let dropped = 0;
  let inFlight = 0;
  let settledAt = 0;
  await page.route("**/api/quiz/answers", async (route) => {
    dropped++;
    inFlight++;
    await route.abort("connectionreset");
    inFlight--;
    settledAt = Date.now();
  });
  const picked = page.getByRole("radio").last();
  await picked.check();
  const notice = page.getByRole("alert").filter({ hasText: "Your answer to question 1 could not be saved yet." });
  // Each retry waits on the page's clock: step it a quarter second at a time, and only while no save is on its way
  // and the page has had a moment to take in the last loss, until the page has given up for now.
  await expect(async () => {
    if (inFlight === 0 && Date.now() - settledAt > 100) await page.clock.runFor(250);
    await expect(notice).toBeVisible({ timeout: 100 });
  }).toPass({ intervals: [50] });
  expect(dropped).toBe(7);
  // axe runs on timers of its own, which the stepped clock would hold back.
  await page.clock.resume();
  await expectNoAxeViolations(page);

  // The connection returns: the page sends the answer again at once, and the notice goes only when it has landed.
  await page.unroute("**/api/quiz/answers");
  await page.evaluate(() => window.dispatchEvent(new Event("online")));
  await expect(notice).toHaveCount(0);
  await page.reload();
  await expect(page.getByText("Question 1 of 3", { exact: true })).toBeVisible();
  await expect(page.getByRole("radio").last()).toBeChecked();
});
