import { defineConfig } from "vitest/config";
import { endpointRoutes } from "./apps/web/endpoint-routes.ts";

/** The suite that bounds each route's CPU time (apps/api/src/security/cost.test.ts). */
const COST_SUITE = "apps/api/src/security/cost.test.ts";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "api",
          include: ["apps/api/src/**/*.test.ts", "packages/contract/src/**/*.test.ts"],
          exclude: [COST_SUITE],
          globalSetup: ["apps/api/src/test/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The cost of every route, in CPU time of the test's own thread, runs after the rest and alone: beside
        // another file's work the same route measured up to 60 % more (the two share the machine's two cores and
        // their caches), and a budget then failed that no change had crossed.
        test: {
          name: "api-cost",
          include: [COST_SUITE],
          globalSetup: ["apps/api/src/test/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // Web state machines and components in a simulated DOM; journeys through the real product are in e2e/.
        plugins: [endpointRoutes()],
        test: {
          name: "web",
          include: ["apps/web/app/**/*.test.{ts,tsx}"],
          sequence: { groupOrder: 0 },
          environment: "jsdom",
        },
      },
    ],
  },
});
