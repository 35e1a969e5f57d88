import { defineConfig } from "vitest/config";
import { endpointRoutes } from "./apps/web/endpoint-routes.ts";

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
      {
        // Web state machines and components in a simulated DOM; journeys through the real product are in e2e/.
        plugins: [endpointRoutes()],
        test: {
          name: "web",
          include: ["apps/web/app/**/*.test.{ts,tsx}"],
          environment: "jsdom",
        },
      },
    ],
  },
});
