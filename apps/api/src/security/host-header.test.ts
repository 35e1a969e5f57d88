// robots.txt and sitemap.xml are cached publicly for an hour, so their absolute links come from the configured
// SITE_URL, XML-escaped, and never from the Host header, which any client sets (cache poisoning).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PUBLIC_PATHS } from "@trainwise/contract/site-paths";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";
import { adminToken, bearer } from "../test/fixtures.ts";
import { watchedLog } from "../test/log-watch.ts";

const webClientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../web/build/client");
const SOME_ID = "00000000-0000-4000-8000-000000000000";
const HOSTILE_HOSTS = ['evil.example"><script>alert(1)</script>', "evil.example", "evil.example:8080", "a&b<c"];

describe("the Host header never reaches a cached body", async () => {
  const { app } = await createTestApp({
    logStream: watchedLog(),
    webClientDir,
    siteUrl: "https://www.trainwise.example",
  });

  it.each(["/robots.txt", "/sitemap.xml"])("%s links to SITE_URL whatever Host says", async (url) => {
    const plain = await app.inject({ method: "GET", url });
    expect(plain.headers["cache-control"]).toBe("public, max-age=3600");
    expect(plain.body).toContain("https://www.trainwise.example/");
    for (const host of HOSTILE_HOSTS) {
      for (const headers of [{ host }, { "x-forwarded-host": host }, { forwarded: `host=${host}` }]) {
        const response = await app.inject({ method: "GET", url, headers });
        expect(response.statusCode).toBe(200);
        expect(response.body).toBe(plain.body);
        expect(response.body).not.toContain("evil");
      }
    }
  });

  it("lists every public page at SITE_URL in the sitemap", async () => {
    const sitemap = (await app.inject({ method: "GET", url: "/sitemap.xml", headers: { host: "evil.example" } })).body;
    for (const page of PUBLIC_PATHS.filter((candidate) => !candidate.startsWith("/admin/"))) {
      expect(sitemap).toContain(`<loc>https://www.trainwise.example${page}</loc>`);
    }
  });
});

describe("no answer echoes the Host header", async () => {
  const { app, database } = await createTestApp({ logStream: watchedLog(), webClientDir });
  const admin = bearer(await adminToken(app, database.db));
  const MARKER = "host-marker.invalid";

  it("in any page or any API route, for any caller", async () => {
    const urls = [
      ...PUBLIC_PATHS,
      "/robots.txt",
      "/sitemap.xml",
      "/no/such/page",
      "/api/no-such-route",
      "/api/docs/json",
      ...app.apiRoutes.filter((route) => route.method === "GET").map((route) => route.url.replace(":id", SOME_ID)),
    ];
    for (const url of urls) {
      for (const headers of [{ host: MARKER }, { "x-forwarded-host": MARKER }, { host: MARKER, ...admin }]) {
        const response = await app.inject({ method: "GET", url, headers });
        expect(response.body, url).not.toContain(MARKER);
        expect(JSON.stringify(response.headers), url).not.toContain(MARKER);
      }
    }
  });
});

describe("SITE_URL in the sitemap", async () => {
  const { app } = await createTestApp({ logStream: watchedLog(), webClientDir, siteUrl: "https://example.org/a&b's" });

  it("is XML-escaped", async () => {
    const sitemap = (await app.inject({ method: "GET", url: "/sitemap.xml" })).body;
    expect(sitemap).toContain("<loc>https://example.org/a&amp;b&apos;s/aboutus</loc>");
    expect(sitemap).not.toContain("a&b");
  });
});
