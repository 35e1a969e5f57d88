// The site's face: a home banner, page illustrations, client marks, icons instead of emoji and initials on the
// feedback cards; every picture loads, says what it is (or is marked decorative), waits below the fold until it
// is needed, holds its space while it loads, and fits a 360 px phone.
import type { Page } from "@playwright/test";
import type { FeedbackInput } from "@trainwise/contract/feedback";
import { baseUrl, sharedAdminToken } from "../support/api.ts";
import { expectNoAxeViolations, openHomeFeedback } from "../support/pages.ts";
import { startSlowDocuments } from "../support/slow-documents.ts";
import { expect, test } from "../support/test.ts";

/** Every public page but the forms (contact, admin login, registration), which carry no pictures. */
const ILLUSTRATED = [
  "/",
  "/aboutus",
  "/services",
  "/careers",
  "/trainer",
  "/operations",
  "/sales",
  "/internship",
  "/institutional-training",
  "/corporate-training",
  "/skill-development",
  "/employment-readiness",
  "/software-development",
  "/application-development",
  "/website-development",
] as const;

const CLIENTS = [
  "Lakeview Institute of Technology",
  "Northbridge Software Services",
  "Sunrise Engineering College",
  "Meridian Retail Group",
  "Kaveri Health Systems",
  "Bluepeak Logistics",
];

/** Scrolls every picture into view, so lazy ones load, and waits until each has loaded. */
async function loadEveryImage(page: Page) {
  const images = page.locator("img");
  const count = await images.count();
  for (let index = 0; index < count; index++) {
    const image = images.nth(index);
    if (!(await image.isVisible())) continue;
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0), {
        message: `${await image.getAttribute("src")} loads`,
      })
      .toBe(true);
  }
  return count;
}

test.describe("pictures on every illustrated page", () => {
  for (const path of ILLUSTRATED) {
    test(`${path}: every picture loads and has alt text`, async ({ page }) => {
      await page.goto(path);
      const count = await loadEveryImage(page);
      expect(count, "pictures on the page").toBeGreaterThan(0);
      const report = await page
        .locator("img")
        .evaluateAll((images: HTMLImageElement[]) =>
          images.map((image) => ({ src: image.currentSrc || image.src, alt: image.getAttribute("alt") })),
        );
      for (const image of report) expect(image.alt, `alt of ${image.src}`).not.toBeNull();
    });
  }
});

test("the home banner is a responsive AVIF/WebP picture fetched first, and the page does not shift while it loads", async ({
  page,
}) => {
  // The banner arrives late, as on a slow phone: its space must be held before it comes.
  let releaseBanner = () => {};
  const bannerHeld = new Promise<void>((resolve) => (releaseBanner = resolve));
  await page.route(/\/img\/hero-\d+\.(avif|webp)$/, async (route) => {
    await bannerHeld;
    await route.continue();
  });
  await page.goto("/", { waitUntil: "domcontentloaded" });
  const banner = page.locator("picture img").first();
  await expect(banner).toHaveAttribute("fetchpriority", "high");
  expect(await banner.getAttribute("loading")).not.toBe("lazy");
  await expect(page.locator('picture source[type="image/avif"]')).toHaveAttribute("srcset", /480w.*800w.*1200w/);
  await expect(page.locator('picture source[type="image/webp"]')).toHaveAttribute("srcset", /480w.*800w.*1200w/);
  const held = await banner.boundingBox();
  expect(held?.height ?? 0, "the banner's space before it loads").toBeGreaterThan(100);
  await page.evaluate(() => {
    const state = window as unknown as { layoutShift: number };
    state.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!entry.hadRecentInput) state.layoutShift += entry.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
  releaseBanner();
  await expect
    .poll(() => banner.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
    .toBe(true);
  await expect(page.getByRole("heading", { name: "What our students say" })).toBeVisible();
  await page.waitForLoadState("load");
  expect((await banner.boundingBox())?.height).toBeCloseTo(held?.height ?? 0, 0);
  expect(await banner.evaluate((image: HTMLImageElement) => image.currentSrc)).toMatch(/\/img\/hero-\d+\.avif$/);
  expect(await page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift)).toBe(0);
});

// A page read in pieces can be painted before the browser has read all of it; nothing on screen may move when the
// rest arrives (on a slow machine the home page's text stood 63 px higher until the banner beside it was read, the
// menu grew leftwards item by item, and About Us's circles widened as their text came).
for (const width of [360, 1280]) {
  test(`at ${width} px a page delivered slowly, in pieces, does not move while it arrives`, async ({ page }) => {
    const slow = await startSlowDocuments();
    try {
      await page.setViewportSize({ width, height: 800 });
      await page.addInitScript(() => {
        const state = window as unknown as { shifts: string[] };
        state.shifts = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
            sources: { node?: Node }[];
          })[])
            if (!entry.hadRecentInput && entry.value > 0)
              state.shifts.push(
                `${entry.value.toFixed(4)} ${entry.sources.map((source) => source.node?.nodeName).join(",")}`,
              );
        }).observe({ type: "layout-shift", buffered: true });
      });
      for (const path of ["/", "/careers", "/aboutus", "/services"]) {
        await page.goto(`${slow.url}${path}`, { waitUntil: "load" });
        await expect(page.locator("h1")).toBeVisible();
        const shifts = await page.evaluate(() => (window as unknown as { shifts: string[] }).shifts);
        expect(shifts, `layout shifts on ${path}`).toEqual([]);
      }
    } finally {
      await slow.close();
    }
  });
}

for (const width of [360, 1280]) {
  test(`at ${width} px the pictures below the fold are lazy and those in view are not`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/");
    const images = await page.locator("img").evaluateAll((elements: HTMLImageElement[]) =>
      elements.map((image) => ({
        src: image.getAttribute("src"),
        top: image.getBoundingClientRect().top,
        loading: image.getAttribute("loading"),
        fold: window.innerHeight,
      })),
    );
    const below = images.filter((image) => image.top > image.fold);
    expect(below.length, "pictures below the fold").toBeGreaterThan(5);
    for (const image of below) expect(image.loading, `${image.src} below the fold`).toBe("lazy");
    const inView = images.filter((image) => image.top < 800 && image.src?.includes("/img/hero-"));
    for (const image of inView) expect(image.loading, `${image.src} in view`).not.toBe("lazy");
  });
}

test("the career cards show Lucide icons, not emoji", async ({ page }) => {
  await page.goto("/careers");
  for (const id of ["trainer", "operations", "sales", "internship"]) {
    const card = page.locator(`li#${id}`);
    expect(await card.innerText(), `text of the ${id} card`).not.toMatch(/\p{Extended_Pictographic}/u);
    const icon = card.locator('img[src^="/img/icons/"]');
    await expect(icon).toHaveAttribute("alt", "");
    await icon.scrollIntoViewIfNeeded();
    await expect
      .poll(() => icon.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
      .toBe(true);
  }
});

test("the client list shows each client's mark beside its name", async ({ page }) => {
  await page.goto("/");
  const list = page.getByRole("region", { name: "Our clients" }).getByTestId("client");
  await expect(list).toHaveText(CLIENTS);
  for (let index = 0; index < CLIENTS.length; index++) {
    const mark = list.nth(index).locator('img[src^="/img/clients/"]');
    await mark.scrollIntoViewIfNeeded();
    await expect
      .poll(() => mark.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
      .toBe(true);
    expect((await mark.boundingBox())?.width).toBeGreaterThanOrEqual(32);
  }
});

test("every feedback card shows its author's initials", async ({ page }) => {
  const entries: FeedbackInput[] = [
    ["Asha Rao", "AR"],
    ["Ravi", "R"],
    ["meera k nair", "MN"],
  ].map(([name], index) => ({
    name: name as string,
    usnNumber: `1TW24ID${String(index).padStart(3, "0")}`,
    emailId: `identity-${index}@example.com`,
    section: "A",
    batch: "2026",
    feedback: "The trainers made the mock drive feel like the real one.",
  }));
  const token = await sharedAdminToken();
  for (const entry of entries) {
    const response = await fetch(`${baseUrl()}/api/feedback`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(entry),
    });
    expect(response.status, await response.clone().text()).toBe(201);
  }
  await openHomeFeedback(page);
  const cards = await page.getByTestId("feedback-card").evaluateAll((elements) =>
    elements.map((card) => ({
      initials: card.querySelector('[data-testid="feedback-initials"]')?.textContent ?? null,
      name: card.querySelector("footer > span:last-child")?.textContent ?? "",
    })),
  );
  expect(cards.length).toBeGreaterThanOrEqual(entries.length);
  for (const card of cards) {
    const name = card.name.replace(/, batch .*$/, "");
    const words = name.trim().split(/\s+/);
    const expected = [words[0], words.length > 1 ? words[words.length - 1] : ""]
      .map((word) => (word ?? "").charAt(0).toUpperCase())
      .join("");
    expect(card.initials, `initials on the card of ${name}`).toBe(expected);
  }
  for (const [name, initials] of [
    ["Asha Rao", "AR"],
    ["Ravi", "R"],
    ["meera k nair", "MN"],
  ])
    expect(cards.some((card) => card.initials === initials && card.name.startsWith(`${name},`))).toBe(true);
});

test.describe("illustrated pages at 360 px", () => {
  test.use({ viewport: { width: 360, height: 740 } });
  for (const path of ["/", "/aboutus", "/services", "/careers", "/institutional-training", "/software-development"]) {
    test(`${path} shows its picture, passes axe and does not scroll sideways`, async ({ page }) => {
      await page.goto(path);
      const picture = page.locator("main img").first();
      await expect(picture).toBeVisible();
      await loadEveryImage(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, "sideways scroll in px").toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page);
    });
  }
});
