// Runs against the real web build (npm test builds it first).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { PUBLIC_PATHS } from "@trainwise/contract/site-paths";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";

const webClientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../web/build/client");

function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? "");
}

describe("serving the web app", async () => {
  const { app } = await createTestApp({ webClientDir, siteUrl: "http://trainwise.example" });

  it.each(PUBLIC_PATHS)("serves %s as prerendered HTML with its own h1", async (page) => {
    const response = await app.inject({ method: "GET", url: page });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.body.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(response.body).toMatch(/<title>[^<]+<\/title>/);
  });

  it("puts the home page's real text in the HTML", async () => {
    const response = await app.inject({ method: "GET", url: "/" });
    expect(response.body).toContain("Learn the skills employers hire for");
    expect(response.body).toContain('name="description"');
  });

  it("allows exactly the page's own inline scripts, and no 'unsafe-inline' script", async () => {
    const response = await app.inject({ method: "GET", url: "/" });
    const policy = String(response.headers["content-security-policy"]);
    const scriptSource = policy.split("; ").find((directive) => directive.startsWith("script-src ")) ?? "";
    expect(scriptSource).not.toContain("unsafe-inline");
    expect(policy).toContain("frame-ancestors 'none'");
    const scripts = inlineScripts(response.body);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(scriptSource).toContain(`'sha256-${createHash("sha256").update(script).digest("base64")}'`);
    }
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  });

  it.each([
    "/quiz",
    "/result/42",
    "/verify/ABCD-EFGH-JKLM",
    "/admin/dashboard",
    "/admin/questions",
    "/admin/students",
    "/admin/submit-feedback",
    "/admin/tests",
    "/admin/drives",
    "/admin/drives/42",
  ])("answers the client-only route %s with the SPA shell", async (page) => {
    const response = await app.inject({ method: "GET", url: page });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("window.__reactRouterContext");
    expect(response.body).toContain("Loading...");
  });

  it("answers an unknown page with the SPA shell and 404", async () => {
    const response = await app.inject({ method: "GET", url: "/no/such/page" });
    expect(response.statusCode).toBe(404);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.body).toContain("window.__reactRouterContext");
  });

  it("answers an unknown API path with JSON, not the shell", async () => {
    const response = await app.inject({ method: "GET", url: "/api/unknown/thing" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ statusCode: 404, error: "No API route GET /api/unknown/thing." });
  });

  it("sends precompressed bytes and honours the ETag", async () => {
    const brotli = await app.inject({ method: "GET", url: "/", headers: { "accept-encoding": "gzip, br" } });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toContain("Learn the skills employers hire for");
    const gzip = await app.inject({ method: "GET", url: "/", headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    const again = await app.inject({
      method: "GET",
      url: "/",
      headers: { "if-none-match": String(brotli.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it("caches hashed assets for a year", async () => {
    const home = await app.inject({ method: "GET", url: "/" });
    // The page names its modules in its start-up script (they are preloaded after the first paint, decision 015).
    const asset = home.body.match(/"(\/assets\/[^"]+\.js)"/)?.[1];
    expect(asset).toBeDefined();
    const response = await app.inject({ method: "GET", url: asset ?? "" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  describe("the styles and fonts of question text (KaTeX, highlight.js) load only where questions are shown", () => {
    const QUESTION_STYLES = /\.katex|\.hljs|KaTeX_|rich-text/;
    const manifestFile = fs
      .readdirSync(path.join(webClientDir, "assets"))
      .find((file) => /^manifest-.*\.js$/.test(file));
    const manifest = JSON.parse(
      fs
        .readFileSync(path.join(webClientDir, "assets", manifestFile ?? ""), "utf8")
        .replace(/^window\.__reactRouterManifest=/, "")
        .replace(/;\s*$/, ""),
    ) as { routes: Record<string, { css?: string[] }> };
    const textOf = async (url: string) => (await app.inject({ method: "GET", url })).body;

    it.each(["routes/portal/quiz", "routes/portal/result", "routes/admin/questions", "drive-analysis"])(
      "%s loads them",
      async (route) => {
        const css = await Promise.all((manifest.routes[route]?.css ?? []).map(textOf));
        expect(css.join("\n")).toContain(".katex");
        expect(css.join("\n")).toContain(".hljs-keyword");
        // Fonts as files: the pages' policy (font-src 'self') blocks fonts inlined as data: URLs.
        expect(css.join("\n")).toMatch(/url\(\/assets\/KaTeX_Main-Regular-[\w-]+\.woff2\)/);
        expect(css.join("\n")).not.toContain("data:font");
      },
    );

    it.each(PUBLIC_PATHS)("%s loads none of them: not inline, not linked, not in its scripts", async (page) => {
      const html = await textOf(page);
      expect(html).not.toMatch(QUESTION_STYLES);
      // The route manifest names every route's files, the question pages' too, without loading them.
      const assets = [
        ...new Set([...html.matchAll(/"(\/assets\/[^"]+\.(?:css|js))"/g)].map((match) => match[1] ?? "")),
      ];
      const loaded = assets.filter((asset) => !asset.includes("/manifest-"));
      expect(loaded.length).toBeGreaterThan(2);
      for (const asset of loaded) expect(await textOf(asset), asset).not.toMatch(QUESTION_STYLES);
    });
  });

  it("serves the favicon, robots.txt and a sitemap of every public page at SITE_URL", async () => {
    expect((await app.inject({ method: "GET", url: "/favicon.svg" })).headers["content-type"]).toBe("image/svg+xml");
    const robots = await app.inject({ method: "GET", url: "/robots.txt" });
    expect(robots.body).toContain("Sitemap: http://trainwise.example/sitemap.xml");
    expect(robots.body).toContain("Disallow: /admin/");
    expect(robots.body).toContain("Allow: /admin/login");
    const sitemap = await app.inject({ method: "GET", url: "/sitemap.xml" });
    expect(sitemap.headers["content-type"]).toContain("application/xml");
    for (const page of PUBLIC_PATHS.filter((candidate) => !candidate.startsWith("/admin/"))) {
      expect(sitemap.body).toContain(`<loc>http://trainwise.example${page}</loc>`);
    }
  });
});
