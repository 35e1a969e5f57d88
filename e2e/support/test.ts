// The `test` every journey imports: any console error or uncaught page error fails the test.
import { test as base, expect } from "@playwright/test";

export const test = base.extend<{ failOnConsoleErrors: undefined }>({
  failOnConsoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await use(undefined);
      expect(errors, "console errors and page errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
