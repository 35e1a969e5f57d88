import { defineConfig, devices } from "@playwright/test";
import { chromiumFlags, chromiumPath } from "../scripts/local-tools.ts";

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
  // Journeys run in any order and side by side: each one that needs a quiz of a certain shape makes its own
  // questions, test and drive (support/own-quiz.ts), and those on the open drive, whose test draws from the whole
  // bank, take whatever questions it holds.
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
