// The admin area at campus-drive scale: a stale answer never shows, the view lives in the address, phones do not
// scroll sideways, a double click creates one question, and a refused session on any screen goes to login.
import type { Page, Route } from "@playwright/test";
import { adminLogin, baseUrl, uniqueStudent } from "../support/api.ts";
import { expectNoAxeViolations } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

// Admin logins are limited per address: these journeys share one session, made once through the API.
test.describe.configure({ mode: "serial" });
let adminToken = "";

async function signIn(page: Page) {
  adminToken ||= await adminLogin();
  await page.goto("/admin/login");
  await page.evaluate((token) => localStorage.setItem("adminToken", token), adminToken);
}

async function adminApi<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${baseUrl()}/api${path}`, {
    ...init,
    headers: { "content-type": "application/json", authorization: `Bearer ${adminToken}`, ...init.headers },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A student with this name who registered and submitted an empty quiz, through the API. */
async function submittedStudentNamed(name: string) {
  const student = { ...uniqueStudent(), name };
  const registered = await fetch(`${baseUrl()}/api/auth/student/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(student),
  });
  const { token } = (await registered.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}` };
  await fetch(`${baseUrl()}/api/quiz/questions?limit=25`, { headers: auth });
  await fetch(`${baseUrl()}/api/quiz/submit`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ answers: [] }),
  });
  return student;
}

/**
 * Holds back the server's answer to the requests whose `search` is `slow` until `release` is called, so that an
 * answer to an older search arrives after the newer one's. Resolves `answered` once the held answer is delivered.
 */
function holdBackSearch(page: Page, urlPart: string, slow: string) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let answered: Promise<void> = Promise.resolve();
  void page.route(
    (url) => url.pathname.startsWith(urlPart) && url.searchParams.get("search") === slow,
    (route: Route) => {
      answered = (async () => {
        await released;
        // The page may have cancelled the request meanwhile (as it should): then there is nothing to deliver.
        await route.continue().catch(() => {});
      })();
      return answered;
    },
  );
  return { release, answered: () => answered };
}

test("search typed fast shows only the last query's rows, however late an older answer arrives", async ({ page }) => {
  const stamp = Date.now();
  await submittedStudentNamed(`Zara ${stamp} Stale`);
  await submittedStudentNamed(`Zara ${stamp} Fresh`);
  await signIn(page);

  // Results: the answer for "Zara <stamp>" (both students) is held back until "Zara <stamp> Fresh" has shown.
  await page.goto("/admin/results");
  const results = holdBackSearch(page, "/api/students/results", `Zara ${stamp}`);
  const search = page.getByLabel("Search results");
  const asked = page.waitForRequest((request) => new URL(request.url()).searchParams.get("search") === `Zara ${stamp}`);
  await search.fill(`Zara ${stamp}`);
  await asked;
  await search.fill(`Zara ${stamp} Fresh`);
  const table = page.getByRole("region", { name: "Submitted quizzes" });
  await expect(table.getByRole("row").filter({ hasText: `Zara ${stamp} Fresh` })).toHaveCount(1);
  results.release();
  await results.answered();
  // Give a late answer every chance to be drawn: it must not be.
  await page.waitForTimeout(500);
  await expect(table.getByRole("row").filter({ hasText: `Zara ${stamp}` })).toHaveCount(1);
  await expect(search).toHaveValue(`Zara ${stamp} Fresh`);

  // Questions: the same with the question bank's search.
  await adminApi("/questions", {
    method: "POST",
    body: JSON.stringify({
      text: `Quick ${stamp} old?`,
      category: "Race",
      options: [
        { text: "a", isCorrect: true },
        { text: "b", isCorrect: false },
      ],
    }),
  });
  await adminApi("/questions", {
    method: "POST",
    body: JSON.stringify({
      text: `Quick ${stamp} new?`,
      category: "Race",
      options: [
        { text: "a", isCorrect: true },
        { text: "b", isCorrect: false },
      ],
    }),
  });
  await page.goto("/admin/questions");
  const questions = holdBackSearch(page, "/api/questions", `Quick ${stamp}`);
  const questionSearch = page.getByLabel("Search questions");
  const askedQuestions = page.waitForRequest(
    (request) => new URL(request.url()).searchParams.get("search") === `Quick ${stamp}`,
  );
  await questionSearch.fill(`Quick ${stamp}`);
  await askedQuestions;
  await questionSearch.fill(`Quick ${stamp} new`);
  const listed = page.getByRole("region", { name: "All Questions" }).getByRole("heading", { level: 3 });
  await expect(listed).toHaveText([`Quick ${stamp} new?`]);
  questions.release();
  await questions.answered();
  await page.waitForTimeout(500);
  await expect(listed).toHaveText([`Quick ${stamp} new?`]);
});

test("sort and filter are in the address and survive a reload", async ({ page }) => {
  const stamp = Date.now();
  await submittedStudentNamed(`Omar ${stamp} Reload`);
  await submittedStudentNamed(`Asha ${stamp} Reload`);
  await signIn(page);

  await page.goto("/admin/students");
  // Picked while the search is still being typed (and then while it loads): each change keeps the others.
  await page.getByLabel("Search students").fill(`${stamp} Reload`);
  await page.getByLabel("Sort by").selectOption({ label: "Name A–Z" });
  await page.getByLabel("Drive", { exact: true }).selectOption({ label: "Open registration" });
  const rows = page.getByRole("region", { name: "Registered students" }).getByRole("row");
  await expect(page).toHaveURL(/sort=name/);
  await expect(page).toHaveURL(/search=/);
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText(`Asha ${stamp} Reload`);
  await expect(rows.nth(2)).toContainText(`Omar ${stamp} Reload`);
  await page.reload();
  await expect(page.getByLabel("Sort by")).toHaveValue("name:asc");
  await expect(page.getByLabel("Search students")).toHaveValue(`${stamp} Reload`);
  await expect(page.getByLabel("Drive", { exact: true })).not.toHaveValue("");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText(`Asha ${stamp} Reload`);

  await page.getByLabel("Sort by").selectOption({ label: "Name Z–A" });
  await expect(rows.nth(1)).toContainText(`Omar ${stamp} Reload`);
  await page.reload();
  await expect(page.getByLabel("Sort by")).toHaveValue("name:desc");
  await expect(rows.nth(1)).toContainText(`Omar ${stamp} Reload`);

  await page.goto("/admin/results");
  await page.getByLabel("Search results").fill(`${stamp} Reload`);
  await page.getByLabel("Sort by").selectOption({ label: "Name Z–A" });
  const resultRows = page.getByRole("region", { name: "Submitted quizzes" }).getByRole("row");
  await expect(page).toHaveURL(/search=/);
  await expect(resultRows).toHaveCount(3);
  await expect(resultRows.nth(1)).toContainText(`Omar ${stamp} Reload`);
  await page.reload();
  await expect(page.getByLabel("Sort by")).toHaveValue("name:desc");
  await expect(resultRows).toHaveCount(3);
  await expect(resultRows.nth(1)).toContainText(`Omar ${stamp} Reload`);
  await expect(resultRows.nth(1)).toContainText(/0\/\d+ \(0%\)/);
});

test("at 390 px no admin page scrolls sideways, and each is accessible", async ({ page }) => {
  // Ten pages, each checked by axe: more than the default 30 s on a busy machine.
  test.setTimeout(120_000);
  await submittedStudentNamed("Phone Width Student With A Rather Long Name");
  await signIn(page);
  const drives = await adminApi<{ _id: string }[]>("/drives");
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of [
    "/admin/dashboard",
    "/admin/questions",
    "/admin/tests",
    "/admin/drives",
    `/admin/drives/${drives[0]?._id}`,
    "/admin/students",
    "/admin/results",
    "/admin/submit-feedback",
    "/admin/enquiries",
    "/admin/account",
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: /^Loading/ })).toHaveCount(0);
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
    }));
    expect(widths.scroll, `${path} is ${widths.scroll} px wide`).toBeLessThanOrEqual(widths.inner);
    await expectNoAxeViolations(page);
  }
  // The admin header has its own navigation, and no marketing menu or footer.
  await expect(page.getByRole("navigation", { name: "Admin" })).toBeVisible();
  await expect(page.getByRole("link", { name: "About Us" })).toHaveCount(0);
  await expect(page.getByRole("contentinfo")).toHaveCount(0);
});

test("a double click on Create Question creates one question", async ({ page }) => {
  await signIn(page);
  await page.goto("/admin/questions");
  const text = `Double click ${Date.now()}?`;
  await page.getByLabel("Question", { exact: true }).fill(text);
  await page.getByLabel("Category", { exact: true }).fill("Clicks");
  for (const option of ["One", "Two"]) {
    await page.getByLabel("Option", { exact: true }).fill(option);
    await page.getByRole("button", { name: "Add Option" }).click();
  }
  // A slow server, so the second click lands while the first is still on its way.
  await page.route(
    (url) => url.pathname === "/api/questions",
    async (route) => {
      if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    },
  );
  await page.getByRole("button", { name: "Create Question" }).dblclick();
  await expect(page.getByRole("status").filter({ hasText: "Question created." })).toBeVisible();
  await page.waitForTimeout(1000);
  const stored = await adminApi<{ text: string }[]>(`/questions?search=${encodeURIComponent(text)}`);
  expect(stored.map((question) => question.text)).toEqual([text]);
});

test("a double click on Create Test creates one test, and the list shows it without a reload", async ({ page }) => {
  await signIn(page);
  await page.goto("/admin/tests");
  const name = `Double click test ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.route(
    (url) => url.pathname === "/api/tests",
    async (route) => {
      if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    },
  );
  await page.getByRole("button", { name: "Create Test" }).dblclick();
  await expect(page.getByRole("status").filter({ hasText: "Test created." })).toBeVisible();
  await expect(page.getByRole("region", { name: "Tests table" }).getByText(name, { exact: true })).toBeVisible();
  await page.waitForTimeout(1000);
  const stored = await adminApi<{ name: string }[]>("/tests");
  expect(stored.filter((test) => test.name === name)).toHaveLength(1);
});

test("an expired or forged session on any admin screen lands on the login page, which says why", async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(/status of 401/);
  test.setTimeout(120_000);
  await signIn(page);
  const drives = await adminApi<{ _id: string }[]>("/drives");
  for (const path of [
    "/admin/dashboard",
    "/admin/questions",
    "/admin/tests",
    "/admin/drives",
    `/admin/drives/${drives[0]?._id}`,
    "/admin/students",
    "/admin/results",
    "/admin/submit-feedback",
    "/admin/enquiries",
    "/admin/account",
  ]) {
    await page.goto("/admin/login");
    await page.evaluate(() => localStorage.setItem("adminToken", "expired.or.forged"));
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/admin\/login$/);
    await expect(page.getByRole("alert")).toHaveText("Unauthorized or session expired");
    expect(await page.evaluate(() => localStorage.getItem("adminToken")), path).toBeNull();
  }
});
