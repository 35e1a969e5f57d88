import { expect, test } from "../support/test.ts";

test("a visitor opens the home page of the started product", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Trainwise | Training and career development");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Learn the skills employers hire for");
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "LMS Portal" }),
  ).toHaveAttribute("href", "/student/register");
  await expect(page.getByRole("contentinfo")).toContainText(`© ${new Date().getFullYear()}`);
});

test("a protected page without a token goes to its login", async ({ page }) => {
  await page.goto("/admin/dashboard");
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Admin Login");
  await page.goto("/quiz");
  await expect(page).toHaveURL(/\/student\/register$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Student Registration");
});
