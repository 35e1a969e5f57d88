// Serves the built web app from memory: prerendered pages, the SPA shell for client-only routes, assets, and
// generated robots.txt and sitemap.xml. Every file and its brotli/gzip copies (written by the web build) are read
// once at start, so a page costs no disk or compression work per request. Each HTML page gets its own
// Content-Security-Policy listing the hashes of its inline scripts, so no 'unsafe-inline' is needed for scripts.
import { hash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { isClientOnlyPath, PUBLIC_PATHS } from "@trainwise/contract/site-paths";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { errorBody } from "../http/http-error.ts";

interface StaticFile {
  body: Buffer;
  br: Buffer | undefined;
  gzip: Buffer | undefined;
  contentType: string;
  etag: string;
  cacheControl: string;
  contentSecurityPolicy: string | undefined;
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml",
  ".woff2": "font/woff2",
  ".webmanifest": "application/manifest+json",
};

const SPA_SHELL = "/__spa-fallback.html";

/** The policy for one HTML page: scripts only from this origin or inline with one of the listed hashes. */
export function pagePolicy(html: string): string {
  const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((match) => match[1] ?? "")
    .filter((code) => code.length > 0)
    .map((code) => `'sha256-${hash("sha256", code, "base64")}'`);
  return [
    "default-src 'self'",
    `script-src 'self' ${[...new Set(hashes)].join(" ")}`,
    // React and carousel libraries set element styles; styles cannot run code, scripts stay strict.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src https://www.openstreetmap.org",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

function readIfExists(file: string): Buffer | undefined {
  return fs.existsSync(file) ? fs.readFileSync(file) : undefined;
}

function* filesUnder(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (!/\.(br|gz)$/.test(entry.name)) yield full;
  }
}

/** Maps URL paths to files: `aboutus/index.html` answers `/aboutus`. */
export function loadStaticFiles(clientDir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const file of filesUnder(clientDir)) {
    const relative = path.relative(clientDir, file).split(path.sep).join("/");
    const urlPath = relative === "index.html" ? "/" : `/${relative.replace(/\/index\.html$/, "")}`;
    const body = fs.readFileSync(file);
    const extension = path.extname(file);
    const isHtml = extension === ".html";
    files.set(urlPath, {
      body,
      br: readIfExists(`${file}.br`),
      gzip: readIfExists(`${file}.gz`),
      contentType: CONTENT_TYPES[extension] ?? "application/octet-stream",
      etag: `"${hash("sha1", body, "base64url")}"`,
      // Hashed asset names never change content; pages must be revalidated so a deploy shows at once.
      cacheControl: relative.startsWith("assets/")
        ? "public, max-age=31536000, immutable"
        : isHtml
          ? "public, no-cache"
          : "public, max-age=3600",
      contentSecurityPolicy: isHtml ? pagePolicy(body.toString("utf8")) : undefined,
    });
  }
  return files;
}

function sendFile(request: FastifyRequest, reply: FastifyReply, file: StaticFile, status = 200) {
  reply
    .header("content-type", file.contentType)
    .header("cache-control", file.cacheControl)
    .header("vary", "Accept-Encoding");
  reply.header("etag", file.etag);
  if (file.contentSecurityPolicy) reply.header("content-security-policy", file.contentSecurityPolicy);
  if (status === 200 && request.headers["if-none-match"] === file.etag) return reply.status(304).send();
  const accepted = String(request.headers["accept-encoding"] ?? "");
  if (file.br && /\bbr\b/.test(accepted)) return reply.status(status).header("content-encoding", "br").send(file.br);
  if (file.gzip && /\bgzip\b/.test(accepted)) {
    return reply.status(status).header("content-encoding", "gzip").send(file.gzip);
  }
  return reply.status(status).send(file.body);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const XML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

export function escapeXml(text: string): string {
  return text.replaceAll(/[&<>"']/g, (character) => XML_ENTITIES[character] ?? character);
}

export default fp(
  async function web(app: FastifyInstance, options: { clientDir: string }) {
    const files = loadStaticFiles(options.clientDir);
    const shell = files.get(SPA_SHELL);
    if (!shell) throw new Error(`The web build in ${options.clientDir} has no ${SPA_SHELL}; run npm run build.`);
    app.log.debug({ files: files.size }, "web build loaded");

    // Both are cached publicly for an hour, so they are built once from the configured SITE_URL: a Host header,
    // which any client sets, must never reach a body that a cache would then hand to everyone.
    const site = app.config.siteUrl;
    // The admin login is a public page; the rest of /admin, the quiz, results and the API are not for crawlers.
    const robots = `User-agent: *\nAllow: /\nAllow: /admin/login\nDisallow: /admin/\nDisallow: /quiz\nDisallow: /result/\nDisallow: /api/\n\nSitemap: ${site}/sitemap.xml\n`;
    const urls = PUBLIC_PATHS.filter((page) => !page.startsWith("/admin/"))
      .map((page) => `  <url><loc>${escapeXml(`${site}${page}`)}</loc></url>`)
      .join("\n");
    const sitemap = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;

    app.get("/robots.txt", { schema: { hide: true } }, async (_request, reply) =>
      reply.type("text/plain; charset=utf-8").header("cache-control", "public, max-age=3600").send(robots),
    );

    app.get("/sitemap.xml", { schema: { hide: true } }, async (_request, reply) =>
      reply.type("application/xml").header("cache-control", "public, max-age=3600").send(sitemap),
    );

    app.get("/*", { schema: { hide: true } }, async (request, reply) => {
      const pathname = safeDecode(request.url.split("?")[0] ?? "/");
      if (pathname === "/api" || pathname.startsWith("/api/")) {
        return reply.status(404).send(errorBody(404, `No API route ${request.method} ${pathname}.`));
      }
      const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
      const file = files.get(normalized);
      if (file && normalized !== SPA_SHELL) return sendFile(request, reply, file);
      // Client-only routes render in the browser from the shell; anything else is a 404 the shell explains.
      return sendFile(request, reply, shell, isClientOnlyPath(normalized) ? 200 : 404);
    });
  },
  { name: "web", dependencies: ["errors"] },
);
