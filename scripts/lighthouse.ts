// `npm run lighthouse`: audits every public page of the built product with Lighthouse (mobile, its default
// emulation and throttling) in the system Chromium, RUNS times each, and prints the median scores.
// Lighthouse is large (~180 MB), so it is installed on first use into node_modules/.cache, not with the project.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PUBLIC_PATHS } from "@trainwise/contract/site-paths";
import { chromiumFlags, chromiumPath } from "./local-tools.ts";
import { startProduct } from "./product-process.ts";

const LIGHTHOUSE_VERSION = "13.5.0";
const RUNS = Number(process.env.RUNS ?? 3);
const ROUTES = process.env.ROUTES ? process.env.ROUTES.split(",") : [...PUBLIC_PATHS];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const toolDir = path.resolve("node_modules/.cache/trainwise-lighthouse");

function ensureLighthouse(): void {
  const installed = path.join(toolDir, "node_modules/lighthouse/package.json");
  if (fs.existsSync(installed) && JSON.parse(fs.readFileSync(installed, "utf8")).version === LIGHTHOUSE_VERSION) return;
  console.log(`installing lighthouse@${LIGHTHOUSE_VERSION} into ${toolDir} (once)`);
  fs.mkdirSync(toolDir, { recursive: true });
  execFileSync("npm", ["install", "--prefix", toolDir, "--no-audit", "--no-fund", `lighthouse@${LIGHTHOUSE_VERSION}`], {
    stdio: "inherit",
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

ensureLighthouse();
const importFromTool = (specifier: string) => import(pathToFileURL(path.join(toolDir, "node_modules", specifier)).href);
const { default: lighthouse } = await importFromTool("lighthouse/core/index.js");
const chromeLauncher = await importFromTool("chrome-launcher/dist/index.js");

const product = await startProduct();
const chrome = await chromeLauncher.launch({
  chromePath: chromiumPath,
  chromeFlags: ["--headless=new", ...chromiumFlags],
});

const rows: { route: string; scores: number[] }[] = [];
try {
  for (const route of ROUTES) {
    const runs = Object.fromEntries(CATEGORIES.map((category) => [category, [] as number[]]));
    for (let run = 0; run < RUNS; run++) {
      const result = await lighthouse(`${product.baseUrl}${route}`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: [...CATEGORIES],
      });
      for (const category of CATEGORIES) {
        runs[category]?.push(Math.round((result?.lhr.categories[category]?.score ?? 0) * 100));
      }
    }
    const scores = CATEGORIES.map((category) => median(runs[category] ?? []));
    rows.push({ route, scores });
    console.log(`${route.padEnd(28)} ${scores.map((score) => String(score).padStart(5)).join(" ")}`);
  }
} finally {
  await chrome.kill();
  await product.stop();
}

console.log(`\nLighthouse ${LIGHTHOUSE_VERSION}, mobile, median of ${RUNS} runs`);
console.log(`| route | ${CATEGORIES.join(" | ")} |`);
console.log(`|---|${CATEGORIES.map(() => "---").join("|")}|`);
for (const row of rows) console.log(`| ${row.route} | ${row.scores.join(" | ")} |`);
const lowest = Math.min(...rows.flatMap((row) => row.scores));
console.log(`\nlowest score: ${lowest}`);
