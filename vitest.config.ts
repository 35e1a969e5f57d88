import { configDefaults, defineConfig } from "vitest/config";
import { endpointRoutes } from "./apps/web/endpoint-routes.ts";

/**
 * The API suites run a file per core at once (`--maxWorkers=100%` in `npm run test:api`; Vitest's own default leaves
 * a core idle, and a file spends most of its time waiting on PostgreSQL: 5.5 min instead of 7.7 on two cores).
 * The API suites that bound the CPU a request or a parse costs (test/cpu-time.ts) run after the others, one
 * file at a time: beside another suite and its database on a two-core machine, the same request measured up to
 * three times its CPU (the results export through a ticket: 18.5 ms alone, 51.9 ms in CI).
 */
const CPU_BOUND_SUITES = [
  "apps/api/src/security/cost.test.ts",
  "apps/api/src/security/csv-import-limits.test.ts",
  "apps/api/src/modules/questions/import.test.ts",
  "apps/api/src/modules/questions/rich-content.test.ts",
  "apps/api/src/modules/certificates/certificates.test.ts",
];

const API_TEST = {
  globalSetup: ["apps/api/src/test/global-setup.ts"],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "api",
          include: ["apps/api/src/**/*.test.ts", "packages/contract/src/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...CPU_BOUND_SUITES],
          ...API_TEST,
        },
      },
      {
        test: { name: "api-cpu", include: CPU_BOUND_SUITES, fileParallelism: false, ...API_TEST },
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
