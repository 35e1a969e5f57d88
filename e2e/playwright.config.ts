import { defineConfig, devices } from "@playwright/test";
import { chromiumFlags, chromiumPath } from "../scripts/local-tools.ts";

export default defineConfig({
  testDir: "tests",
  globalSetup: "./support/start-product.ts",
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: [["list"]],
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
