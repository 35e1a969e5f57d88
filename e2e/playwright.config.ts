import { defineConfig, devices } from "@playwright/test";
import { chromiumFlags, chromiumPath } from "../scripts/local-tools.ts";

const MULTIPLE_ANSWER_JOURNEYS = ["**/question-import.spec.ts", "**/rich-content.spec.ts"];

export default defineConfig({
  testDir: "tests",
  globalSetup: "./support/start-product.ts",
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // A journey's whole budget, not a speed goal (nothing here asserts how fast the product is): the long journeys
  // (a 25-question quiz on a stepped clock, a drive from planning to its CSV, with an accessibility audit at each
  // step) take 25–35 s on a busy 2-core machine, where axe alone can take seconds per page.
  timeout: 90_000,
  reporter: [["list"]],
  // The default drive's quiz draws from the whole bank, and its journeys answer with radio buttons and Tab. The
  // journeys that add multiple-answer questions (checkboxes) or code blocks (a scroll box in the tab order) to the
  // bank run after every other journey, so no quiz of the default drive can draw one of them in the meantime.
  projects: [
    { name: "journeys", testIgnore: MULTIPLE_ANSWER_JOURNEYS },
    { name: "multiple-answer journeys", testMatch: MULTIPLE_ANSWER_JOURNEYS, dependencies: ["journeys"] },
  ],
  use: {
    // Set by the global setup once the product runs; the workers read the config after it.
    baseURL: process.env.E2E_BASE_URL,
    trace: "retain-on-failure",
    ...devices["Desktop Chrome"],
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumFlags,
    },
  },
});
