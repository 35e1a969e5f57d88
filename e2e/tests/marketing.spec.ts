import AxeBuilder from "@axe-core/playwright";
import { PUBLIC_PATHS } from "@trainwise/contract/site-paths";
import { baseUrl, sharedAdminToken } from "../support/api.ts";
import { openHomeFeedback } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

const WIDTHS = [360, 768, 1280] as const;

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    for (const path of PUBLIC_PATHS) {
      test(`${path} loads without errors, overflow or accessibility violations`, async ({ page }) => {
        const response = await page.goto(path);
        expect(response?.status()).toBe(200);
        await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
        await expect(page.getByRole("contentinfo")).toContainText(`© ${new Date().getFullYear()}`);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, "horizontal overflow in px").toBeLessThanOrEqual(0);
        const results = await new AxeBuilder({ page }).analyze();
        expect(results.violations.map((violation) => `${violation.id} (${violation.nodes.length})`)).toEqual([]);
      });
    }
  });
}

test.describe("navigation below 600 px", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("a drawer with an expandable Other Services group, focus kept inside, Escape closes it", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    const opener = page.getByRole("button", { name: "Open menu" });
    await opener.click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole("link", { name: "Software Development" })).toBeHidden();
    await drawer.getByRole("button", { name: "Other Services" }).click();
    await expect(drawer.getByRole("button", { name: "Other Services" })).toHaveAttribute("aria-expanded", "true");
    await expect(drawer.getByRole("link", { name: "Software Development" })).toBeVisible();
    for (let step = 0; step < 15; step++) {
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest("dialog")))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await opener.click();
    await drawer.getByRole("link", { name: "Careers" }).click();
    await expect(page).toHaveURL(/\/careers$/);
    await expect(drawer).toBeHidden();
  });
});

test("the Other Services menu opens, lists the three services and closes with Escape", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  const button = page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Other Services" });
  await button.click();
  for (const name of ["Software Development", "Application Development", "Website Development"]) {
    await expect(page.getByRole("link", { name })).toBeVisible();
  }
  await page.keyboard.press("Escape");
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await expect(button).toBeFocused();
});

test("each value shows its description on hover and on keyboard focus", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  const excellence = page.getByRole("listitem").filter({ hasText: /^Excellence/ });
  const tooltip = page.getByRole("tooltip", { name: /high bar/ });
  await expect(tooltip).toHaveCSS("opacity", "0");
  await excellence.hover();
  await expect(tooltip).toHaveCSS("opacity", "1");
  await page.mouse.move(0, 0);
  await expect(tooltip).toHaveCSS("opacity", "0");
  await excellence.focus();
  await expect(tooltip).toHaveCSS("opacity", "1");
  await expect(excellence).toHaveAccessibleDescription(/We set a high bar/);
  for (const value of ["Excellence", "Customer Focus", "Innovation", "Integrity", "Collaboration"]) {
    await expect(page.getByRole("listitem").filter({ hasText: new RegExp(`^${value}`) })).toBeVisible();
  }
});

test("the feedback carousel's code and entries load only when a visitor scrolls towards it", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  const fetched: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname === "/api/feedback" || pathname.includes("feedback-carousel")) fetched.push(pathname);
  });
  await page.goto("/", { waitUntil: "networkidle" });
  await expect(page.getByRole("status").filter({ hasText: "Loading feedback…" })).toBeAttached();
  expect(fetched, "fetched before the visitor scrolled").toEqual([]);

  await page.getByRole("heading", { name: "What our students say" }).scrollIntoViewIfNeeded();
  await expect(page.getByTestId("feedback-slide").first()).toBeVisible();
  expect(fetched).toContain("/api/feedback");
  expect(
    fetched.some((pathname) => pathname.includes("feedback-carousel")),
    "the carousel's code",
  ).toBe(true);
});

for (const [width, perSlide, gap] of [
  [1280, 3, "20px"],
  [768, 2, "15px"],
  [360, 1, "0px"],
] as const) {
  test(`the feedback carousel shows ${perSlide} cards per slide at ${width} px and advances every 4 s`, async ({
    page,
  }) => {
    await page.clock.install();
    await page.setViewportSize({ width, height: 900 });
    await openHomeFeedback(page);
    const slides = page.getByTestId("feedback-slide");
    await expect(slides.first().getByTestId("feedback-card")).toHaveCount(perSlide);
    await expect(slides.first().getByRole("list")).toHaveCSS("gap", gap);
    // The dots show a window of at most five slides round the current one, so each is found by its slide.
    const dot = (slide: number) => page.getByRole("button", { name: `Show feedback slide ${slide}`, exact: true });
    await expect(dot(1)).toHaveAttribute("aria-current", "true");
    await page.clock.runFor(4_100);
    await expect(dot(2)).toHaveAttribute("aria-current", "true");
    // The dots select a slide; the last wraps round to the first. Previous from the first reaches the last.
    const count = await slides.count();
    await dot(1).click();
    await page.getByRole("button", { name: "Previous feedback slide" }).click();
    await expect(dot(count)).toHaveAttribute("aria-current", "true");
    await dot(count - 1).click();
    await expect(dot(count - 1)).toHaveAttribute("aria-current", "true");
    await dot(count).click();
    await page.mouse.move(0, 0);
    await page.getByRole("heading", { level: 1 }).click();
    await expect(dot(count)).toHaveAttribute("aria-current", "true");
    await page.clock.runFor(4_100);
    await expect(dot(1)).toHaveAttribute("aria-current", "true");
    // Pause stops it.
    await page.getByRole("button", { name: /^Pause/ }).click();
    await page.getByRole("heading", { level: 1 }).click();
    await page.clock.runFor(8_200);
    await expect(dot(1)).toHaveAttribute("aria-current", "true");
  });
}

test("careers cards show Learn More on hover and focus and link to each role", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/careers");
  const links = { Trainer: "/trainer", Operations: "/operations", Sales: "/sales", Internship: "/internship" };
  for (const [title, href] of Object.entries(links)) {
    const link = page.getByRole("link", { name: `Learn More about ${title}` });
    await expect(link).toHaveAttribute("href", href);
    await expect(link).toHaveCSS("opacity", "0");
    await page.getByRole("heading", { name: title, level: 2 }).hover();
    await expect(link).toHaveCSS("opacity", "1");
  }
  await page.mouse.move(0, 0);
  const trainer = page.getByRole("link", { name: "Learn More about Trainer" });
  await trainer.focus();
  await expect(trainer).toHaveCSS("opacity", "1");
  await trainer.press("Enter");
  await expect(page).toHaveURL(/\/trainer$/);
  await expect(page.getByRole("heading", { name: "Responsibilities" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Qualifications" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Apply for Trainer by e-mail" })).toHaveAttribute("href", /^mailto:/);
});

test("the contact form validates, Cancel resets it, and Submit stores the enquiry", async ({ page }) => {
  await page.goto("/contactform");
  await page.getByRole("button", { name: "Submit" }).click();
  for (const message of ["Name is required", "Email is required", "Subject is required", "Phone Number is required"]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await expect(page.getByLabel("Email")).toHaveAttribute("type", "email");
  await page.getByLabel("Name").fill("Anita Rao");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByLabel("Name")).toHaveValue("");
  await expect(page.getByText("Name is required")).toHaveCount(0);

  const subject = `Training for our final-year batch ${Date.now()}`;
  await page.getByLabel("Name").fill("Anita Rao");
  await page.getByLabel("Email").fill("anita@college.example");
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Phone Number").fill("+91 98450 11111");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Thank you. We have received your message" })).toBeVisible();
  await expect(page.getByLabel("Subject")).toHaveValue("");

  const token = await sharedAdminToken();
  const enquiries = (await (
    await fetch(`${baseUrl()}/api/contact`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as {
    subject: string;
    message: string;
  }[];
  expect(enquiries.find((enquiry) => enquiry.subject === subject)).toMatchObject({ message: "" });
  await expect(page.getByRole("button", { name: "Show the map" })).toBeVisible();
});
