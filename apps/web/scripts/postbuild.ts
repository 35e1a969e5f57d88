// After `react-router build`: writes brotli and gzip copies of every compressible file in build/client, so the
// server sends precompressed bytes without spending CPU per request, and prints the home page's initial
// JavaScript size (gzip), failing the build when it is over its 120 KB budget.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { MARKUP_END } from "../app/lib/first-paint.ts";

const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../build/client");
const compressible = /\.(html|js|css|svg|json|txt|xml|map)$/;

function* filesUnder(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else yield full;
  }
}

// Prerendered pages carry the site's stylesheet inline, so the first paint waits for no second request (the
// whole sheet is a few KB compressed, less than a round trip costs on a phone). The <link> stays, so the page
// the browser hydrates matches what React renders, but as `media="print"` it no longer blocks rendering.
// The Content-Security-Policy allows inline styles ('unsafe-inline' in style-src), so nothing else changes.
/**
 * The page's module bootstrap, rewritten to start once the pictures fetched first have loaded and a frame has
 * been painted: the prerendered HTML is already the page, so the banner and the text get the connection first
 * and the JavaScript (and its modulepreloads, moved here from <head>) follows. The same modules load in the same order; only the start moves.
 */
function startAfterFirstPaint(html: string): string {
  const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"\/>/g)].map((match) => match[1]);
  const bootstrap = /<script type="module" async="">([\s\S]*?)<\/script>/.exec(html);
  if (!bootstrap || preloads.length === 0) throw new Error("prerendered page without the expected module bootstrap");
  const code = bootstrap[1] as string;
  const staticImports = [...code.matchAll(/^import (?:\* as (\w+) from )?"([^"]+)";$/gm)];
  const routes = /window\.__reactRouterRouteModules = (\{[^}]*\});/.exec(code)?.[1];
  const entry = /^import\("([^"]+)"\);$/m.exec(code)?.[1];
  if (!routes || !entry || staticImports.length === 0) throw new Error("unexpected module bootstrap");
  const names = staticImports.map((match) => match[1] ?? "_");
  const deferred = [
    `let started=false;const start=()=>{if(started)return;started=true;`,
    `for(const href of ${JSON.stringify(preloads)}){const link=document.createElement("link");link.rel="modulepreload";link.href=href;document.head.append(link)}`,
    `Promise.all([${staticImports.map((match) => `import(${JSON.stringify(match[2])})`).join(",")}]).then(([${names.join(",")}])=>{`,
    `window.__reactRouterRouteModules=${routes};import(${JSON.stringify(entry)})})};`,
    // After the pictures fetched first (the banner, a page's illustration) and one frame; a hidden tab paints
    // no frame and a stalled picture never loads: start anyway after a second.
    `Promise.all([...document.querySelectorAll('img[fetchpriority="high"]')].map((image)=>image.complete||new Promise((done)=>{image.addEventListener("load",done);image.addEventListener("error",done)}))).then(()=>requestAnimationFrame(()=>setTimeout(start)));setTimeout(start,1000);`,
  ].join("");
  return html
    .replaceAll(/<link rel="modulepreload" href="[^"]+"\/>/g, "")
    .replace(bootstrap[0], `<script type="module" async="">${deferred}</script>`);
}

/**
 * A browser reading a page slowly paints what it has so far: the menu grew leftwards item by item, the
 * introduction's text stood higher until the banner beside it was read, About Us's circles widened as their text
 * arrived, and each then moved (layout shift). A render-blocking `<link rel="expect">` holds the first paint until
 * the layout's markup has been read, before the scripts that follow it; the page is one compressed response of
 * about 12 KB, so this waits for parsing, not for the network. Browsers without `rel="expect"` paint as before.
 */
function paintWholeMarkup(html: string): string {
  const charset = '<head><meta charSet="utf-8"/>';
  if (!html.includes(charset)) throw new Error("prerendered page without its charset first in <head>");
  return html.replace(charset, `${charset}<link rel="expect" href="#${MARKUP_END}" blocking="render"/>`);
}

let inlined = 0;
for (const file of filesUnder(clientDir)) {
  if (!file.endsWith(".html") || path.basename(file) === "__spa-fallback.html") continue;
  const html = paintWholeMarkup(startAfterFirstPaint(fs.readFileSync(file, "utf8")));
  const withStyles = html.replaceAll(
    /<link rel="stylesheet" href="(\/assets\/[^"]+\.css)"\/>/g,
    (link, href: string) => {
      const css = fs.readFileSync(path.join(clientDir, href), "utf8").replaceAll("</style", "<\\/style");
      return `<style>${css}</style>${link.replace("/>", ' media="print"/>')}`;
    },
  );
  if (withStyles !== html) {
    fs.writeFileSync(file, withStyles);
    inlined++;
  }
}

let written = 0;
for (const file of filesUnder(clientDir)) {
  if (!compressible.test(file)) continue;
  const body = fs.readFileSync(file);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
  fs.writeFileSync(
    `${file}.br`,
    zlib.brotliCompressSync(body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  );
  written++;
}

// Initial JavaScript of the home page: every script the prerendered HTML loads or preloads.
const homeHtml = fs.readFileSync(path.join(clientDir, "index.html"), "utf8");
const scriptPaths = new Set(
  [
    ...homeHtml.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g),
    ...homeHtml.matchAll(/import\("(\/assets\/[^"]+\.js)"\)/g),
    ...homeHtml.matchAll(/import "(\/assets\/[^"]+\.js)"/g),
    ...homeHtml.matchAll(/"(\/assets\/[^"]+\.js)"/g),
  ].map((match) => match[1] as string),
);
let gzipBytes = 0;
for (const script of scriptPaths) gzipBytes += fs.statSync(path.join(clientDir, `${script}.gz`)).size;
console.log(`inlined the stylesheet in ${inlined} prerendered pages`);
console.log(`precompressed ${written} files (br, gz) in ${path.relative(process.cwd(), clientDir)}`);
console.log(`home page initial JavaScript: ${scriptPaths.size} files, ${(gzipBytes / 1024).toFixed(1)} KB gzip`);
// A budget, not a measurement of speed: the bytes a phone must fetch and parse before the home page responds.
const HOME_JAVASCRIPT_BUDGET_KB = 120;
if (gzipBytes > HOME_JAVASCRIPT_BUDGET_KB * 1024) {
  console.error(`the home page's initial JavaScript is over its ${HOME_JAVASCRIPT_BUDGET_KB} KB gzip budget`);
  process.exit(1);
}
