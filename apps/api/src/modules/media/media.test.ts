// Images for questions: upload, deduplication, serving with its headers, and every refusal with its status.
import { crc32, deflateSync } from "node:zlib";
import { MAX_MEDIA_BYTES } from "@trainwise/contract/media";
import type { QuestionRender } from "@trainwise/contract/questions";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, registerStudent } from "../../test/fixtures.ts";
import { createAdmin } from "../admins/repository.ts";

/** A real PNG of `width` × `height` grey pixels, with its checksums. */
function png(width: number, height: number, shade = 128): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.from([0, ...Array(width).fill(shade)])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A 1 × 1 transparent GIF. */
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

describe("media", async () => {
  const { app, database } = await createTestApp();
  const examiner = bearer(await adminToken(app, database.db));
  const upload = (bytes: Buffer | string, contentType: string, headers: Record<string, string> = examiner) =>
    app.inject({
      method: "POST",
      url: "/api/media",
      headers: { ...headers, "content-type": contentType },
      payload: bytes,
    });
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: "GET", url, headers });
  const stored = async () => Number((await database.pool.query("select count(*) from media")).rows[0].count);

  const image = png(3, 2);
  const first = await upload(image, "image/png");

  it("stores a PNG and answers its address, size and Markdown", async () => {
    expect(first.statusCode, first.body).toBe(201);
    const body = first.json();
    expect(body.url).toMatch(/^\/api\/media\/[0-9a-f]{64}\.png$/);
    expect(body).toEqual({ url: body.url, width: 3, height: 2, markdown: `![](${body.url})` });
    // Named by the bytes' SHA-256.
    const { createHash } = await import("node:crypto");
    expect(body.url).toBe(`/api/media/${createHash("sha256").update(image).digest("hex")}.png`);
  });

  it("stores the same bytes once", async () => {
    const before = await stored();
    const again = await upload(image, "image/png");
    expect(again.statusCode).toBe(201);
    expect(again.json().url).toBe(first.json().url);
    expect(await stored()).toBe(before);
  });

  it("serves the bytes with their type, for ever, inert, with an ETag", async () => {
    const served = await get(first.json().url);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(image)).toBe(true);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
    const etag = served.headers.etag as string;
    expect(etag).toBe(`"${first.json().url.slice("/api/media/".length, -".png".length)}"`);
    const revalidated = await get(first.json().url, { "if-none-match": etag });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe("");
  });

  it("takes a GIF too", async () => {
    const gif = await upload(GIF, "image/gif");
    expect(gif.statusCode, gif.body).toBe(201);
    expect(gif.json()).toMatchObject({ width: 1, height: 1 });
    expect(gif.json().url).toMatch(/\.gif$/);
    const served = await get(gif.json().url);
    expect(served.headers["content-type"]).toBe("image/gif");
  });

  it("refuses SVG and every other type with 415", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>';
    for (const type of ["image/svg+xml", "text/html", "application/json", "text/plain", "application/octet-stream"]) {
      const before = await stored();
      const refused = await upload(type === "application/json" ? JSON.stringify({ svg }) : svg, type);
      expect(refused.statusCode, type).toBe(415);
      expect(refused.json().message).toBe(
        "Upload a PNG, JPEG, WebP or GIF image (SVG and other types are not accepted).",
      );
      expect(await stored()).toBe(before);
    }
  });

  it("refuses bytes that are not of the declared type with 400", async () => {
    for (const [bytes, type, message] of [
      [GIF, "image/png", "The file is not a PNG image, as its type says."],
      [image, "image/jpeg", "The file is not a JPG image, as its type says."],
      [image, "image/webp", "The file is not a WEBP image, as its type says."],
      [Buffer.from("<svg onload=alert(1)>"), "image/gif", "The file is not a GIF image, as its type says."],
      [image.subarray(0, 12), "image/png", "The image cannot be read: the file is damaged or incomplete."],
    ] as const) {
      const refused = await upload(bytes, type);
      expect(refused.statusCode, message).toBe(400);
      expect(refused.json().message).toBe(message);
    }
    const empty = await upload(Buffer.alloc(0), "image/png");
    expect(empty.statusCode).toBe(400);
  });

  it("refuses an image over 2 MB with 413", async () => {
    const huge = Buffer.concat([image, Buffer.alloc(MAX_MEDIA_BYTES + 1 - image.length)]);
    expect(huge.length).toBe(MAX_MEDIA_BYTES + 1);
    const refused = await upload(huge, "image/png");
    expect(refused.statusCode).toBe(413);
    expect(refused.json().message).toBe("The image is too large: at most 2 MB.");
    // Exactly the limit is taken (here a PNG with trailing bytes, which image readers ignore).
    const limit = await upload(Buffer.concat([image, Buffer.alloc(MAX_MEDIA_BYTES - image.length)]), "image/png");
    expect(limit.statusCode, limit.body).toBe(201);
  });

  it("answers 404 for a name nobody uploaded and 400 for what is not a name, never 500", async () => {
    const unknown = await get(`/api/media/${"f".repeat(64)}.png`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe("Image not found.");
    expect(unknown.headers["cache-control"]).toBe("no-store");
    // Stored as PNG, asked for as JPEG.
    expect((await get(first.json().url.replace(/\.png$/, ".jpg"))).statusCode).toBe(404);
    for (const name of [
      "x.png",
      `${"A".repeat(64)}.png`,
      `${"a".repeat(64)}.svg`,
      "..%2F..%2Fetc%2Fpasswd",
      "%00.png",
    ]) {
      const refused = await get(`/api/media/${name}`);
      expect(refused.statusCode, name).toBe(400);
      expect(refused.json().message, name).toMatch(/^Not an image name/);
    }
  });

  it("takes uploads only from those who may edit questions", async () => {
    await createAdmin(database.db, "media-viewer", "viewer test password", "viewer");
    const login = await app.inject({
      method: "POST",
      url: "/api/auth/admin/login",
      payload: { username: "media-viewer", password: "viewer test password" },
    });
    const viewer = await upload(png(1, 1, 7), "image/png", bearer(login.json().token));
    expect(viewer.statusCode).toBe(403);
    const student = await upload(png(1, 1, 7), "image/png", bearer((await registerStudent(app)).token));
    expect(student.statusCode).toBe(403);
    expect((await upload(png(1, 1, 7), "image/png", {})).statusCode).toBe(401);
  });

  it("records an upload in the audit log", async () => {
    const { rows } = await database.pool.query("select entity, after from audit_log where action = 'media.upload'");
    expect(rows[0]?.entity).toBe("media");
    expect(rows[0]?.after).toMatchObject({ url: first.json().url, width: 3, height: 2 });
  });

  it("shows an uploaded image in a question, and nothing from elsewhere", async () => {
    const { url } = first.json();
    const response = await app.inject({
      method: "POST",
      url: "/api/questions/render",
      headers: examiner,
      payload: { text: `![A graph](${url}) ![tracker](https://evil.example/p.png)`, options: [`![](${url})`] },
    });
    const rendered = response.json() as QuestionRender;
    expect(rendered.html).toBe(`<p><img src="${url}" alt="A graph" loading="lazy" /> </p>`);
    expect(rendered.options).toEqual([`<img src="${url}" alt="" loading="lazy" />`]);
  });
});
