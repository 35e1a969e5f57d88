// The `test` every journey imports: any console error or uncaught page error fails the test, except those a
// test declares it expects (a 409 the page then explains, say) with `allowConsoleError`; and a page reached by
// `goto` or `reload` is ready for a person's input when the call returns.
import { test as base, expect, type Page } from "@playwright/test";

/**
 * Waits, after a navigation that loaded a page, until React runs it (the root layout marks `<html>`): a prerendered
 * page's buttons show before hydration and do nothing until then, so a press that early was lost (seen in CI as a
 * menu that did not open and a login that did not leave its page). A navigation that names its own `waitUntil`
 * (a journey that blocks the scripts, or reads a page as it arrives) opts out.
 */
function waitForHydration(page: Page) {
  for (const method of ["goto", "reload"] as const) {
    const navigate = page[method].bind(page) as (...args: unknown[]) => ReturnType<Page["reload"]>;
    page[method] = (async (...args: unknown[]) => {
      const response = await navigate(...args);
      const options = args.find((arg): arg is { waitUntil?: string } => typeof arg === "object" && arg !== null);
      const html = response?.headers()["content-type"]?.startsWith("text/html");
      if (html && !options?.waitUntil) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      return response;
    }) as never;
  }
}

export const test = base.extend<{ allowConsoleError: (pattern: RegExp) => void }>({
  page: async ({ page }, use) => {
    waitForHydration(page);
    await use(page);
  },
  allowConsoleError: [
    async ({ page }, use) => {
      const allowed: RegExp[] = [];
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await use((pattern) => allowed.push(pattern));
      const unexpected = errors.filter((error) => !allowed.some((pattern) => pattern.test(error)));
      expect(unexpected, "console errors and page errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
