// The `test` every journey imports: any console error or uncaught page error fails the test, except those a
// test declares it expects (a 409 the page then explains, say) with `allowConsoleError`.
import { test as base, expect } from "@playwright/test";

export const test = base.extend<{ allowConsoleError: (pattern: RegExp) => void }>({
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
