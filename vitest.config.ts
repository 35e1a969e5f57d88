import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "api",
          include: ["apps/api/src/**/*.test.ts", "packages/contract/src/**/*.test.ts"],
          globalSetup: ["apps/api/src/test/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
