import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";

// The machines cannot download Playwright's browser: use the system Chromium when present.
const systemChromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((candidate) => fs.existsSync(candidate));
const executablePath = process.env.CHROMIUM_PATH ?? systemChromium;

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
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        "--disable-quic",
      ],
    },
  },
});
