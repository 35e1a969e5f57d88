// The visitor's experience on phones, tablets and desktops: every hover reveal has a touch and keyboard
// equivalent, nothing scrolls sideways with any amount of feedback, tooltips stay on screen, the chat link covers
// nothing, the top bar is one line, and an unknown address gets a real page.
import type { Locator, Page } from "@playwright/test";
import { brand } from "@trainwise/contract/brand";
import type { FeedbackInput } from "@trainwise/contract/feedback";
import { PUBLIC_PATHS } from "@trainwise/contract/site-paths";
import { baseUrl, sharedAdminToken, uniqueStudent } from "../support/api.ts";
import { expectNoAxeViolations, fillRegistration, openHomeFeedback } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

const WIDTHS = [360, 768, 1280] as const;
const FEEDBACK_ENTRIES = 50;
/** The About Us circles' list (the page goes on with the company's facts, story and team). */
const CIRCLES = "Who we are, what we do, our mission and our vision";
const VALUES = ["Excellence", "Customer Focus", "Innovation", "Integrity", "Collaboration"];

/** One entry of made-up feedback; the first carries a long unbroken address, as pasted text sometimes does. */
function feedbackEntry(index: number): FeedbackInput {
  const words = index === 0 ? "https://example.com/placement-drive/mock-interview-recording-of-the-final-round" : "";
  return {
    name: `Phone Journey ${index}`,
    usnNumber: `1TW24PH${String(index).padStart(3, "0")}`,
    emailId: `phone-journey-${index}@example.com`,
    section: "B",
    batch: "2027",
    feedback: `${"The mock interviews were close to the real thing. ".repeat(1 + (index % 4))}${words}`.trim(),
  };
}

/** At least FEEDBACK_ENTRIES visible feedback entries, created through the API as an admin. */
async function ensureFeedback() {
  const visible = (await (await fetch(`${baseUrl()}/api/feedback`)).json()) as unknown[];
  if (visible.length >= FEEDBACK_ENTRIES) return;
  const token = await sharedAdminToken();
  for (let index = visible.length; index < FEEDBACK_ENTRIES; index++) {
    const response = await fetch(`${baseUrl()}/api/feedback`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(feedbackEntry(index)),
    });
    expect(response.status, await response.clone().text()).toBe(201);
  }
}

test.beforeAll(ensureFeedback);

/** The home page with its carousel loaded, holding every feedback entry. */
async function openHomeWithFeedback(page: Page) {
  await openHomeFeedback(page);
  expect(await page.getByTestId("feedback-card").count()).toBeGreaterThanOrEqual(FEEDBACK_ENTRIES);
}

async function expectNoSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${what} scrolls sideways by this many px`).toBeLessThanOrEqual(0);
}

/** The element's box on screen; it must have one. */
async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`no box for ${locator}`);
  return box;
}

/** Whether a shown chat link overlaps the element, or for text its words (a hidden link covers nothing). */
async function chatLinkCovers(target: Locator): Promise<boolean> {
  return target.evaluate((element, href) => {
    const words = document.createRange();
    words.selectNodeContents(element);
    const box = element.matches("input, textarea, select")
      ? element.getBoundingClientRect()
      : words.getBoundingClientRect();
    return [...document.querySelectorAll<HTMLAnchorElement>(`a[href="${href}"]`)].some((link) => {
      if (!link.checkVisibility({ visibilityProperty: true })) return false;
      const chat = link.getBoundingClientRect();
      return chat.left < box.right && box.left < chat.right && chat.top < box.bottom && box.top < chat.bottom;
    });
  }, brand.chat.href);
}

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 740 } });

    test(`no public page and no unknown address scrolls sideways with ${FEEDBACK_ENTRIES} feedback entries`, async ({
      page,
      allowConsoleError,
    }) => {
      // The browser logs the unknown address's 404 status; that status is what it should get.
      allowConsoleError(/status of 404 \(Not Found\)/);
      for (const path of [...PUBLIC_PATHS, "/no-such-page"]) {
        if (path === "/") await openHomeWithFeedback(page);
        else await page.goto(path);
        await expect(page.getByRole("contentinfo")).toBeVisible();
        await expectNoSidewaysScroll(page, path);
      }
      // No card is wider than its slide, even with a long unbroken address in it.
      await openHomeWithFeedback(page);
      const clipped = await page
        .getByTestId("feedback-card")
        .evaluateAll((cards) => cards.filter((card) => card.scrollWidth > card.clientWidth).length);
      expect(clipped, "feedback cards whose text is wider than the card").toBe(0);
    });

    test(`the feedback carousel pages through ${FEEDBACK_ENTRIES} entries with a few dots, Previous, Next and a counter`, async ({
      page,
    }) => {
      await page.clock.install();
      await openHomeWithFeedback(page);
      const carousel = page.getByRole("region", { name: "Student feedback" });
      const slides = await carousel.getByTestId("feedback-slide").count();
      const dots = carousel.getByRole("button", { name: /^Show feedback slide \d+$/ });
      const dot = (slide: number) =>
        carousel.getByRole("button", { name: `Show feedback slide ${slide}`, exact: true });
      const counter = carousel.getByText(`of ${slides}`);

      await expect(dots).toHaveCount(5);
      await expect(dot(1)).toHaveAttribute("aria-current", "true");
      await carousel.getByRole("button", { name: "Next feedback slide" }).click();
      await expect(dot(2)).toHaveAttribute("aria-current", "true");
      await expect(counter).toHaveText(`Slide 2 of ${slides}`);
      // Moved by the visitor, so the change is announced politely.
      await expect(carousel.locator("[aria-live=polite]")).toContainText(`Slide 2 of ${slides}`);
      // The dots follow the current slide; far from the start the first slides' dots give way.
      await dot(4).click();
      await dot(5).click();
      await expect(dot(5)).toHaveAttribute("aria-current", "true");
      await expect(dot(1)).toHaveCount(0);
      await expect(dot(7)).toBeVisible();
      // Previous from the first slide goes round to the last.
      await dot(3).click();
      for (let step = 0; step < 3; step++)
        await carousel.getByRole("button", { name: "Previous feedback slide" }).click();
      await expect(dot(slides)).toHaveAttribute("aria-current", "true");
      await expect(counter).toHaveText(`Slide ${slides} of ${slides}`);
      await carousel.getByRole("button", { name: "Next feedback slide" }).click();
      await expect(dot(1)).toHaveAttribute("aria-current", "true");

      // Every control is on screen, a usable size, and the page does not scroll sideways.
      for (const control of await carousel.getByRole("button").all()) {
        const box = await boxOf(control);
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(24);
      }
      await expectNoSidewaysScroll(page, "the home page");
      await expectNoAxeViolations(page);
    });

    test("each value's tooltip opens on keyboard focus inside the viewport, and Escape dismisses it", async ({
      page,
    }) => {
      await page.goto("/");
      for (const name of VALUES) {
        const value = page.getByRole("listitem").filter({ hasText: new RegExp(`^${name}`) });
        const tooltip = value.getByRole("tooltip");
        await value.focus();
        await expect(tooltip).toHaveCSS("opacity", "1");
        await expect(value).toHaveAccessibleDescription((await tooltip.textContent()) ?? "");
        const box = await boxOf(tooltip);
        expect(box.x, `${name}'s tooltip starts inside the viewport`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${name}'s tooltip ends inside the viewport`).toBeLessThanOrEqual(width);
        if (name === "Excellence") await expectNoAxeViolations(page);
        await page.keyboard.press("Escape");
        await expect(tooltip).toBeHidden();
      }
      await expectNoSidewaysScroll(page, "the home page with a tooltip open");
    });

    test("the chat link stays reachable and covers no form field and no footer text", async ({ page }) => {
      await page.goto("/student/register");
      const chat = page.getByRole("link", { name: brand.chat.label });
      await expect(chat).toHaveCount(1);
      await expect(chat).toHaveAttribute("href", brand.chat.href);
      await expect(chat).toBeInViewport();
      const fields = page.getByRole("main").getByRole("textbox");
      expect(await fields.count()).toBeGreaterThanOrEqual(8);
      // As the page opens, and while each field is being filled in.
      for (const field of await fields.all()) {
        expect(await chatLinkCovers(field), `the chat link covers ${await field.getAttribute("name")}`).toBe(false);
      }
      for (const field of await fields.all()) {
        await field.focus();
        expect(await chatLinkCovers(field), `the chat link covers ${await field.getAttribute("name")}`).toBe(false);
      }
      await expectNoAxeViolations(page);

      // At the end of every page the footer's text is clear of it.
      for (const path of ["/", "/student/register", "/careers", "/aboutus"]) {
        if (path === "/") await openHomeWithFeedback(page);
        else await page.goto(path);
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const footer = page.getByRole("contentinfo");
        for (const text of [
          footer.getByText(`${brand.legalName} All rights reserved.`),
          ...(await footer.getByRole("link").filter({ hasNotText: brand.chat.label }).all()),
        ]) {
          if (await text.isVisible()) expect(await chatLinkCovers(text), `${path}: covers ${text}`).toBe(false);
        }
      }

      // Reachable from anywhere: beside the menu button in the top bar, or floating from 900px.
      await page.goto("/");
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
      if (width < 900) {
        await expect(page.getByRole("banner").getByRole("link", { name: brand.chat.label })).toBeVisible();
      } else {
        await expect(page.getByRole("link", { name: brand.chat.label })).toBeInViewport();
      }
    });

    test("an unknown address shows Page not found inside the site layout, with a way home", async ({
      page,
      allowConsoleError,
    }) => {
      allowConsoleError(/status of 404 \(Not Found\)/);
      const response = await page.goto("/no-such-page");
      expect(response?.status()).toBe(404);
      await expect(page).toHaveTitle(`Page not found | ${brand.name}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
      await expect(page.getByRole("banner").getByRole("link", { name: brand.name })).toBeVisible();
      await expect(page.getByRole("contentinfo")).toContainText(`© ${new Date().getFullYear()}`);
      await expectNoAxeViolations(page);
      await page.getByRole("link", { name: "Back to the home page" }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Learn the skills employers hire for");
    });
  });
}

/** Where each link of the top bar goes, the Programs and Other Services menus included. */
const DESTINATIONS = [
  "/",
  "/aboutus",
  "/services",
  "/contactform",
  "/institutional-training",
  "/corporate-training",
  "/skill-development",
  "/employment-readiness",
  "/software-development",
  "/application-development",
  "/website-development",
  "/careers",
  "/admin/login",
  "/student/register",
].sort();

for (const width of [360, 768, 900, 1024, 1280]) {
  test(`at ${width} px the top bar is one line and loses no destination`, async ({ page }) => {
    await page.setViewportSize({ width, height: 740 });
    await page.goto("/careers");
    const bar = page.getByRole("banner");
    const centres = await bar.locator("a, button").evaluateAll((controls) =>
      controls
        .filter((control) => control.checkVisibility())
        .map((control) => control.getBoundingClientRect())
        .map((box) => box.top + box.height / 2),
    );
    expect(Math.max(...centres) - Math.min(...centres), "spread of the top bar's rows in px").toBeLessThanOrEqual(4);

    const main = page.getByRole("navigation", { name: "Main" });
    const hrefs = async (scope: Locator) =>
      (
        await scope.getByRole("link").evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""))
      ).sort();
    if (await page.getByRole("button", { name: "Open menu" }).isVisible()) {
      await expect(main).toBeHidden();
      await page.getByRole("button", { name: "Open menu" }).click();
      const drawer = page.getByRole("dialog", { name: "Menu" });
      await drawer.getByRole("button", { name: "Programs" }).click();
      await drawer.getByRole("button", { name: "Other Services" }).click();
      expect(await hrefs(drawer)).toEqual(DESTINATIONS);
      await expectNoAxeViolations(page);
      await page.keyboard.press("Escape");
    } else {
      // One menu open at a time: each closes when the focus leaves it, so their links are read one menu at a time.
      await main.getByRole("button", { name: "Programs" }).click();
      const programmes = await hrefs(main);
      await main.getByRole("button", { name: "Other Services" }).click();
      expect([...new Set([...programmes, ...(await hrefs(main))])].sort()).toEqual(DESTINATIONS);
    }
  });
}

test.describe("on a touch screen (no hover)", () => {
  test.use({ hasTouch: true });

  for (const width of WIDTHS) {
    test(`at ${width} px Careers shows Learn More without hover, and a tap opens the role`, async ({ page }) => {
      await page.setViewportSize({ width, height: 740 });
      await page.goto("/careers");
      for (const [title, href] of Object.entries({
        Trainer: "/trainer",
        Operations: "/operations",
        Sales: "/sales",
        Internship: "/internship",
      })) {
        const link = page.getByRole("link", { name: `Learn More about ${title}` });
        await expect(link).toHaveAttribute("href", href);
        await expect(link).toHaveCSS("opacity", "1");
      }
      await expectNoAxeViolations(page);
      await page.getByRole("link", { name: "Learn More about Operations" }).tap();
      await expect(page).toHaveURL(/\/operations$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Operations");
    });

    test(`at ${width} px a tap on a value opens its tooltip inside the viewport`, async ({ page }) => {
      await page.setViewportSize({ width, height: 740 });
      await page.goto("/");
      for (const name of VALUES) {
        const value = page.getByRole("listitem").filter({ hasText: new RegExp(`^${name}`) });
        await value.tap();
        const tooltip = value.getByRole("tooltip");
        await expect(tooltip).toHaveCSS("opacity", "1");
        const box = await boxOf(tooltip);
        expect(box.x, `${name}'s tooltip starts inside the viewport`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${name}'s tooltip ends inside the viewport`).toBeLessThanOrEqual(width);
      }
    });
  }
});

for (const width of WIDTHS) {
  test(`at ${width} px About Us circle text shows on keyboard focus, and on a touch screen from the start`, async ({
    page,
    browser,
  }) => {
    // With a mouse: each circle's text shows when the circle has the keyboard focus.
    await page.setViewportSize({ width, height: 740 });
    await page.goto("/aboutus");
    for (const circle of await page.getByRole("list", { name: CIRCLES }).getByRole("listitem").all()) {
      await circle.focus();
      await expect(circle.getByRole("paragraph")).toHaveCSS("opacity", "1");
    }
    await expectNoAxeViolations(page);

    // On a touch screen, nothing waits for a hover: every circle shows its whole text.
    const touch = await browser.newContext({ viewport: { width, height: 740 }, hasTouch: true });
    const phone = await touch.newPage();
    const errors: string[] = [];
    phone.on("pageerror", (error) => errors.push(error.message));
    phone.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await phone.goto(`${baseUrl()}/aboutus`);
    for (const circle of await phone.getByRole("list", { name: CIRCLES }).getByRole("listitem").all()) {
      const text = circle.getByRole("paragraph");
      await expect(text).toBeVisible();
      await expect(text).toHaveCSS("opacity", "1");
      const [outer, inner] = [await boxOf(circle), await boxOf(text)];
      expect(inner.height, "the text has room").toBeGreaterThan(20);
      expect(inner.y + inner.height, "the text stays inside its circle").toBeLessThanOrEqual(outer.y + outer.height);
    }
    await expectNoAxeViolations(phone);
    await touch.close();
    expect(errors, "console errors and page errors").toEqual([]);
  });
}

// The exam screen on a phone and a tablet: nothing leaves it in one tap, the bar with the question number, the
// progress and the time stays in view when the student scrolls, nothing scrolls sideways, and the result that
// follows can be read and kept on screen.
for (const width of [360, 768] as const) {
  test(`at ${width} px the quiz is a focused exam screen and its result fits the screen`, async ({ page }) => {
    await page.setViewportSize({ width, height: 640 });
    await page.goto("/student/register");
    await fillRegistration(page, uniqueStudent());
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByText("Question 1 of 25", { exact: true })).toBeVisible();
    await expect(page.getByRole("link")).toHaveCount(0);
    await expect(page.getByRole("contentinfo")).toHaveCount(0);
    await expect(page.getByRole("banner").getByRole("navigation")).toHaveCount(0);
    await expectNoSidewaysScroll(page, "the quiz");
    await expectNoAxeViolations(page);

    for (let position = 1; position <= 25; position++) {
      await expect(page.getByText(`Question ${position} of 25`, { exact: true })).toBeVisible();
      // Scrolled to the end of the page, the timer and the progress bar are still on screen.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      for (const bar of [page.getByRole("timer"), page.getByRole("progressbar")]) {
        const box = await boxOf(bar);
        expect(box.y, `the ${await bar.getAttribute("role")} at question ${position}`).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height).toBeLessThanOrEqual(640);
      }
      // The first option, of whatever type: the open drive draws from the whole bank, which other journeys add
      // multiple-answer questions (checkboxes) to.
      await page.getByRole("radio").or(page.getByRole("checkbox")).first().check();
      await page.getByRole("button", { name: position === 25 ? "Submit" : "Next" }).click();
    }

    await expect(page.getByRole("heading", { name: "Quiz Result" })).toBeVisible();
    await page.getByRole("button", { name: "Stay on this page" }).click();
    await expect(page.getByText("You are staying on this page.")).toBeVisible();
    await expect(page.getByRole("main").getByRole("listitem")).toHaveCount(25);
    await expectNoSidewaysScroll(page, "the result");
    await expectNoAxeViolations(page);
  });
}
