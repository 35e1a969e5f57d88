// Admin roles in the browser: an owner invites a viewer by link (and replaces a link that went astray), the
// viewer sets a password and finds question editing out of reach; an owner disables an admin whose open session
// then ends; the audit log shows both.
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

async function signIn(page: Page, username: string, password: string) {
  await page.goto("/admin/login");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

const signInAsOwner = (page: Page) =>
  signIn(page, process.env.E2E_ADMIN_USERNAME ?? "", process.env.E2E_ADMIN_PASSWORD ?? "");

async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
  }));
  expect(widths.scroll, `${page.url()} is ${widths.scroll} px wide`).toBeLessThanOrEqual(widths.inner);
}

test("an owner invites a viewer by link; the viewer sets a password and cannot edit questions", async ({
  page,
  browser,
  allowConsoleError,
}) => {
  test.setTimeout(90_000);
  const username = `viewer-${Date.now()}`;
  await signInAsOwner(page);
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Admins" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Admins" })).toBeVisible();
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Role", { exact: true }).selectOption("viewer");
  await page.getByLabel("A one-time link where they set their password").check();
  await page.getByRole("button", { name: "Invite admin" }).click();
  const astray = (await page.getByTestId("invite-link").textContent()) ?? "";
  expect(astray).toMatch(/\/admin\/invite\/[A-Za-z0-9_-]{43}$/);
  const row = page.getByRole("row").filter({ hasText: username });
  await expect(row).toContainText("Invited (link not used yet)");
  await expect(row.getByLabel(`Role of ${username}`)).toHaveValue("viewer");
  // The first link went astray: a new one replaces it, and the first stops working at once.
  await row.getByRole("button", { name: `New invitation link for ${username}` }).click();
  await expect(page.getByText(`${username}'s earlier invitation links no longer work.`)).toBeVisible();
  // The renewed link is shown at the top, with the page's messages; the first stays in the invitation form.
  const link = (await page.getByTestId("invite-link").first().textContent()) ?? "";
  expect(link).toMatch(/\/admin\/invite\/[A-Za-z0-9_-]{43}$/);
  expect(link).not.toBe(astray);

  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await viewer.setViewportSize({ width: 390, height: 844 });
  await viewer.goto(new URL(astray).pathname);
  await expect(viewer.getByRole("alert")).toHaveText(
    "This invitation link has expired or has already been used. Ask an owner for a new one.",
  );
  await viewer.goto(new URL(link).pathname);
  await expect(viewer.getByRole("heading", { name: "Set your admin password" })).toBeVisible();
  await expect(viewer.getByText(`You are invited as ${username} (Viewer).`)).toBeVisible();
  await expectNoSidewaysScroll(viewer);
  await expectNoAxeViolations(viewer);
  await viewer.getByLabel("New password").fill("too short");
  await viewer.getByRole("button", { name: "Set password" }).click();
  await expect(viewer.getByText("Password must be at least 12 characters")).toBeVisible();
  await viewer.getByLabel("New password").fill("the viewer's own password");
  await viewer.getByRole("button", { name: "Set password" }).click();
  await expect(viewer.getByText(`Your password is set. Log in as ${username}.`)).toBeVisible();
  // The link works once.
  await viewer.reload();
  await expect(viewer.getByRole("alert")).toHaveText(
    "This invitation link has expired or has already been used. Ask an owner for a new one.",
  );

  await signIn(viewer, username, "the viewer's own password");
  const nav = viewer.getByRole("navigation", { name: "Admin" });
  await expect(nav.getByRole("link", { name: "View Results" })).toBeVisible();
  for (const hidden of ["Manage Questions", "Tests", "Drives", "View Students", "Admins", "Audit Log"]) {
    await expect(nav.getByRole("link", { name: hidden, exact: true })).toHaveCount(0);
  }
  await expect(viewer.getByRole("heading", { name: "Recent Questions" })).toHaveCount(0);
  await expect(viewer.getByRole("heading", { name: "Student Results" })).toBeVisible();

  // Straight to the question editor's address: a clear refusal, no editing controls.
  await viewer.goto("/admin/questions");
  await expect(viewer.getByRole("heading", { level: 1, name: "Not allowed" })).toBeVisible();
  await expect(viewer.getByText(/Your role \(Viewer\) does not allow this/)).toBeVisible();
  await expect(viewer.getByRole("button", { name: "Create Question" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: /^Edit/ })).toHaveCount(0);
  await expectNoSidewaysScroll(viewer);
  await expectNoAxeViolations(viewer);
  await viewer.goto("/admin/tests");
  await expect(viewer.getByRole("heading", { level: 1, name: "Not allowed" })).toBeVisible();

  // And the API itself refuses.
  const refused = await viewer.evaluate(async () => {
    const response = await fetch("/api/questions", {
      method: "POST",
      headers: { authorization: `Bearer ${localStorage.getItem("adminToken")}`, "content-type": "application/json" },
      body: JSON.stringify({ text: "Sneaky?", category: "X", options: [] }),
    });
    return { status: response.status, body: await response.json() };
  });
  expect(refused.status).toBe(403);
  expect(refused.body.message).toBe("Your role (Viewer) does not allow this. It needs: Owner or Examiner.");

  await viewer.goto("/admin/results");
  await expect(viewer.getByRole("heading", { level: 1, name: "Results" })).toBeVisible();
  await expect(viewer.getByRole("button", { name: /Export/ })).toBeVisible();
  await viewerContext.close();
  allowConsoleError(/status of 403/);
});

test("an owner disables an admin, whose open session ends at the next action; the audit log shows it", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const username = `examiner-${Date.now()}`;
  await signInAsOwner(page);
  await page.goto("/admin/admins");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Role", { exact: true }).selectOption("examiner");
  await page.getByLabel("A generated password I pass on").check();
  await page.getByRole("button", { name: "Invite admin" }).click();
  const password = ((await page.getByTestId("generated-password").textContent()) ?? "").trim();
  expect(password.length).toBeGreaterThanOrEqual(20);

  const examinerContext = await browser.newContext();
  const examiner = await examinerContext.newPage();
  await signIn(examiner, username, password);
  await examiner.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Manage Questions" }).click();
  await expect(examiner.getByRole("button", { name: "Create Question" })).toBeVisible();
  await expect(examiner.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Admins" })).toHaveCount(
    0,
  );

  await page.reload();
  const row = page.getByRole("row").filter({ hasText: username });
  await row.getByRole("button", { name: `Disable ${username}` }).click();
  await expect(page.getByText(`${username} is disabled and signed out.`)).toBeVisible();
  await expect(row).toContainText("Disabled");
  await expect(row.getByRole("button", { name: `Enable ${username}` })).toBeVisible();

  // The examiner's tab is still open; the next thing they do sends them to sign in.
  await examiner.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "View Students" }).click();
  await expect(examiner).toHaveURL(/\/admin\/login$/);
  await expect(examiner.getByRole("alert")).toHaveText("Unauthorized or session expired");
  await examinerContext.close();

  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Audit Log" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit Log" })).toBeVisible();
  await page.getByLabel("Action").selectOption("admin.invite");
  await expect(page).toHaveURL(/action=admin\.invite/);
  const invited = page.getByRole("row").filter({ hasText: username });
  await expect(invited).toContainText(process.env.E2E_ADMIN_USERNAME ?? "");
  await expect(invited).not.toContainText(password);
  await page.getByLabel("Action").selectOption("admin.disable");
  await expect(page).toHaveURL(/action=admin\.disable/);
  await expect(page.getByRole("row").filter({ hasText: "admin.disable" }).first()).toContainText("disabled_at");

  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ["/admin/admins", "/admin/audit"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  }
});
