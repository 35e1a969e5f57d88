// The site as a real company's (issue 22, item 10): a logo, client marks that are drawings, About Us with the
// company's facts, an enquiry form on every training programme's page that admins read under Enquiries with its
// programme, the programmes in the menu, the contact form's phone rule in words, and Admin Login outside the
// marketing frame. Each at a phone's width (390 px, the menu in the drawer) and a desktop's (1280 px).
import type { Page } from "@playwright/test";
import { brand } from "@trainwise/contract/brand";
import { baseUrl, sharedAdminToken } from "../support/api.ts";
import { expectNoAxeViolations } from "../support/pages.ts";
import { expect, test } from "../support/test.ts";

const PROGRAMMES = [
  { path: "/institutional-training", name: "Institutional Training" },
  { path: "/corporate-training", name: "Corporate Training" },
  { path: "/skill-development", name: "Skill Development" },
  { path: "/employment-readiness", name: "Employment Readiness" },
] as const;

const CLIENT_MARKS = ["lakeview", "northbridge", "sunrise", "meridian", "kaveri", "bluepeak"];

const PHONE_LENGTH_RULE = "Phone Number must have 10 to 15 digits (e.g. 98450 12345 or +91 98450 12345)";

/** Opens the site's menu at this width: the drawer on a phone, the top bar's Main navigation on a desktop. */
async function openMenu(page: Page, width: number) {
  if (width < 900) {
    await page.getByRole("banner").getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    await expect(drawer).toBeVisible();
    return drawer;
  }
  return page.getByRole("banner").getByRole("navigation", { name: "Main" });
}

for (const width of [390, 1280] as const) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test("every public page's bar shows the logo, a drawn mark with a name, linking home", async ({ page }) => {
      for (const path of ["/", "/aboutus", "/corporate-training", "/contactform"]) {
        await page.goto(path);
        const bar = page.getByRole("banner");
        const home = bar.getByRole("link", { name: `${brand.name} home page` });
        await expect(home).toHaveAttribute("href", "/");
        const logo = home.getByRole("img", { name: `${brand.name} logo` });
        await expect(logo).toBeVisible();
        // Drawn in the page (an inline SVG with shapes), not a picture of text or a plain word.
        expect(await logo.evaluate((element) => element.tagName.toLowerCase())).toBe("svg");
        expect(await logo.locator("path, rect, circle").count()).toBeGreaterThan(1);
        expect((await logo.boundingBox())?.width).toBeGreaterThanOrEqual(28);
      }
    });

    test("the clients' logos are drawn marks, not letters", async ({ page, request }) => {
      await page.goto("/");
      const clients = page.getByRole("region", { name: "Our clients" }).getByTestId("client");
      await expect(clients).toHaveCount(CLIENT_MARKS.length);
      for (let index = 0; index < CLIENT_MARKS.length; index++) {
        const mark = clients.nth(index).locator("img");
        await expect(mark).toHaveAttribute("src", `/img/clients/${CLIENT_MARKS[index]}.svg`);
        await mark.scrollIntoViewIfNeeded();
        await expect
          .poll(() => mark.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
          .toBe(true);
        const svg = await (await request.get(`${baseUrl()}/img/clients/${CLIENT_MARKS[index]}.svg`)).text();
        expect(svg, `${CLIENT_MARKS[index]}'s mark`).toContain("<path");
        expect(svg, `${CLIENT_MARKS[index]}'s mark has no lettering`).not.toMatch(/<text\b/);
      }
    });

    test("About Us tells the company's numbers, story and team", async ({ page }) => {
      await page.goto("/aboutus");
      // The four items stay.
      for (const item of ["Who We Are", "What We Do", "Our Mission", "Our Vision"]) {
        await expect(page.getByRole("heading", { name: item, level: 2 })).toBeVisible();
      }
      const numbers = page.getByRole("region", { name: `${brand.name} in numbers` });
      await expect(numbers.getByRole("definition")).toHaveCount(5);
      await expect(numbers.getByRole("term").filter({ hasText: "learners trained" })).toBeVisible();
      await expect(numbers.getByRole("definition").filter({ hasText: "38,000+" })).toBeVisible();
      const story = page.getByRole("region", { name: "Our story" });
      await expect(story.getByRole("listitem")).toHaveCount(5);
      await expect(story.getByRole("heading", { name: "2014" })).toBeVisible();
      const team = page.getByRole("region", { name: "Our team" });
      await expect(team.getByRole("listitem")).toHaveCount(5);
      await expect(team.getByRole("heading", { name: "Meera Krishnan" })).toBeVisible();
      await expect(team.getByText("Founder and Chief Executive")).toBeVisible();
      const portrait = team.getByRole("img", { name: "Portrait of Meera Krishnan" });
      await portrait.scrollIntoViewIfNeeded();
      await expect
        .poll(() => portrait.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
        .toBe(true);
      await expectNoAxeViolations(page);
    });

    test("the menu reaches each training programme", async ({ page }) => {
      await page.goto("/");
      for (const programme of PROGRAMMES) {
        const menu = await openMenu(page, width);
        const group = menu.getByRole("button", { name: "Programs" });
        await group.click();
        await expect(group).toHaveAttribute("aria-expanded", "true");
        await menu.getByRole("link", { name: programme.name }).click();
        await expect(page).toHaveURL(new RegExp(`${programme.path}$`));
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(new RegExp(programme.name, "i"));
      }
      // The top bar's destinations the site has always had are still there.
      const menu = await openMenu(page, width);
      for (const name of ["Home", "About Us", "Services", "Contact Us", "Careers", "Admin", "LMS Portal"]) {
        await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
      }
      await expect(menu.getByRole("button", { name: "Other Services" })).toBeVisible();
    });

    test("the contact form states the phone number's length rule", async ({ page }) => {
      await page.goto("/contactform");
      await page.getByLabel("Name").fill("Anita Rao");
      await page.getByLabel("Email").fill("anita@college.example");
      await page.getByLabel("Subject").fill("Training for our batch");
      await page.getByLabel("Phone Number").fill("98450");
      await page.getByRole("button", { name: "Submit" }).click();
      await expect(page.getByText(PHONE_LENGTH_RULE, { exact: true })).toBeVisible();
      await expect(page.getByLabel("Phone Number")).toHaveAccessibleDescription(PHONE_LENGTH_RULE);
      await expect(page.getByText(/must contain only digits/)).toHaveCount(0);
      // Letters are a different mistake, and say so.
      await page.getByLabel("Phone Number").fill("98450 call me");
      await expect(
        page.getByText("Phone Number may contain only digits, spaces, +, - or brackets", { exact: true }),
      ).toBeVisible();
      // Enough digits, written with spaces, pass.
      await page.getByLabel("Phone Number").fill("98450 12345");
      await expect(page.getByText(PHONE_LENGTH_RULE)).toHaveCount(0);
      await expect(page.getByLabel("Phone Number")).not.toHaveAttribute("aria-invalid", "true");
      await page.getByRole("button", { name: "Cancel" }).click();
      await expect(page.getByLabel("Phone Number")).toHaveValue("");
    });

    test("service and career pages end with a next step", async ({ page }) => {
      for (const [path, link] of [
        ["/services", "Talk to us about training"],
        ["/software-development", "Tell us about your project"],
        ["/website-development", "Tell us about your project"],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole("main").getByRole("link", { name: link })).toHaveAttribute("href", "/contactform");
      }
      await page.goto("/trainer");
      // The spec's apply-by-e-mail link stays; the page says what follows it.
      await expect(page.getByRole("link", { name: "Apply for Trainer by e-mail" })).toHaveAttribute("href", /^mailto:/);
      const steps = page.getByRole("region", { name: "What happens after you apply" });
      await expect(steps.getByRole("listitem")).toHaveCount(4);
    });

    test("Admin Login stands outside the marketing frame", async ({ page }) => {
      await page.goto("/admin/login");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Admin Login");
      const bar = page.getByRole("banner");
      await expect(bar.getByRole("img", { name: `${brand.name} logo` })).toBeVisible();
      await expect(bar.getByRole("link", { name: "Back to the website" })).toHaveAttribute("href", "/");
      // No marketing menu (bar or drawer), no marketing footer, no chat link.
      await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Open menu" })).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Careers" })).toHaveCount(0);
      await expect(page.getByRole("link", { name: brand.chat.label })).toHaveCount(0);
      const footer = page.getByRole("contentinfo");
      await expect(footer).toContainText(`© ${new Date().getFullYear()} ${brand.legalName}`);
      await expect(footer.getByRole("heading")).toHaveCount(0);
      await expect(footer.getByRole("link")).toHaveCount(0);
      await expect(page.getByLabel("Username")).toBeVisible();
      await expect(page.getByLabel("Password")).toBeVisible();
      await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
      await expectNoAxeViolations(page);
    });
  });
}

// The API takes five enquiries per address in ten minutes, and every journey's browser has the same address: the
// contact form's journeys (marketing, and the phone's in student-experience) send two, so this journey sends two,
// one at each width, and leaves one spare. Every programme page's form is checked at both widths.
for (const [width, submitted] of [
  [390, ["/institutional-training"]],
  [1280, ["/skill-development"]],
] as const) {
  test(`at ${width} px every programme page ends with an enquiry form naming it, and an enquiry reaches the admins with its programme`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const sent: { name: string; programme: string }[] = [];
    for (const programme of PROGRAMMES) {
      await page.goto(programme.path);
      // The page's opening offers the enquiry; the form is the page's last section.
      const cta = page.getByRole("link", { name: `Enquire about ${programme.name}` });
      await expect(cta).toHaveAttribute("href", "#enquire");
      await cta.click();
      const form = page.getByRole("region", { name: `Enquire about ${programme.name}` });
      await expect(form).toBeInViewport();
      await expect(form.getByLabel("Name")).toBeVisible();
      await expect(form.getByLabel("Phone Number")).toBeVisible();
      if (!(submitted as readonly string[]).includes(programme.path)) continue;

      await form.getByRole("button", { name: "Send enquiry" }).click();
      await expect(form.getByText("Name is required", { exact: true })).toBeVisible();
      const name = `Programme Visitor ${width} ${Date.now()}`;
      await form.getByLabel("Name").fill(name);
      await form.getByLabel("Email").fill("placements@college.example");
      await form.getByLabel("Phone Number").fill("+91 98450 22222");
      await form.getByLabel("Message (optional)").fill("About 60 final-year students, in January.");
      await form.getByRole("button", { name: "Send enquiry" }).click();
      await expect(
        form.getByRole("status").filter({ hasText: "Thank you. We have received your message" }),
      ).toBeVisible();
      await expect(form.getByLabel("Name")).toHaveValue("");
      sent.push({ name, programme: programme.name });
      await expectNoAxeViolations(page);
    }

    // An admin finds each enquiry under Enquiries, with the programme it was sent from.
    const token = await sharedAdminToken();
    await page.evaluate((value) => localStorage.setItem("adminToken", value), token);
    for (const enquiry of sent) {
      await page.goto(`/admin/enquiries?search=${encodeURIComponent(enquiry.name)}`);
      const table = page.getByRole("table", { name: "Contact enquiries" });
      await expect(table.getByRole("columnheader", { name: "Programme", exact: true })).toBeVisible();
      const programmeColumn = await table
        .getByRole("columnheader")
        .evaluateAll((headers) => headers.findIndex((header) => header.textContent === "Programme"));
      expect(programmeColumn, "the Programme column").toBeGreaterThanOrEqual(0);
      const row = table.getByRole("row").filter({ hasText: enquiry.name });
      await expect(row).toHaveCount(1);
      await expect(row.getByRole("cell").nth(programmeColumn)).toHaveText(enquiry.programme);
      await expect(row).toContainText(`${enquiry.programme} enquiry`);
    }
  });
}
