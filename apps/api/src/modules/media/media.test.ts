// Images for questions: upload, deduplication, serving with its headers, and every refusal with its status.
import { MAX_MEDIA_BYTES } from "@trainwise/contract/media";
import type { QuestionRender } from "@trainwise/contract/questions";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, registerStudent } from "../../test/fixtures.ts";
import { png, pngChunk, pngHeader } from "../../test/images.ts";
import { createAdmin } from "../admins/repository.ts";
import { checkEmbeddedImage } from "./image-check.ts";

/**
 * Images whose headers claim `width` × `height` pixels, a few bytes each: what the size check reads, and all an
 * attacker needs to send (a browser would try to decode that many pixels from them).
 */
const claiming = {
  "image/png": (width: number, height: number) =>
    Buffer.concat([pngHeader(width, height), pngChunk("IEND", Buffer.alloc(0))]),
  "image/jpeg": (width: number, height: number) => {
    const frame = Buffer.from([0xff, 0xc0, 0, 11, 8, 0, 0, 0, 0, 1, 1, 0x11, 0]); // baseline, one component
    frame.writeUInt16BE(height, 5);
    frame.writeUInt16BE(width, 7);
    const jfif = Buffer.from([0xff, 0xe0, 0, 16, ...Buffer.from("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
    return Buffer.concat([Buffer.from([0xff, 0xd8]), jfif, frame, Buffer.from([0xff, 0xd9])]);
  },
  "image/webp": (width: number, height: number) => {
    const extended = Buffer.alloc(10); // VP8X: flags, then the canvas's width and height less one, 24 bits each
    extended.writeUIntLE(width - 1, 4, 3);
    extended.writeUIntLE(height - 1, 7, 3);
    const chunk = Buffer.concat([Buffer.from("VP8X"), Buffer.from([10, 0, 0, 0]), extended]);
    const riffSize = Buffer.alloc(4);
    riffSize.writeUInt32LE(4 + chunk.length);
    return Buffer.concat([Buffer.from("RIFF"), riffSize, Buffer.from("WEBP"), chunk]);
  },
  "image/gif": (width: number, height: number) => gif({ width, height }),
} as const;

/** A GIF with that screen and, optionally, one empty frame of its own size. */
function gif(screen: { width: number; height: number }, frame?: { width: number; height: number }): Buffer {
  const start = Buffer.from("GIF89a\0\0\0\0\0\0\0", "latin1");
  start.writeUInt16LE(screen.width, 6);
  start.writeUInt16LE(screen.height, 8);
  const image = frame ? Buffer.alloc(13) : Buffer.alloc(0);
  if (frame) {
    image[0] = 0x2c; // image descriptor at 0, 0
    image.writeUInt16LE(frame.width, 5);
    image.writeUInt16LE(frame.height, 7);
    image.set([2, 1, 0], 10); // LZW code size, one data byte (left 0 here), end of data
  }
  return Buffer.concat([start, image, Buffer.from([0x3b])]);
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

  it("refuses an image with more pixels than a browser should decode, in every type, whatever its bytes", async () => {
    for (const [type, make] of Object.entries(claiming)) {
      for (const [width, height] of [
        [6001, 1],
        [1, 6001],
        [5000, 5000], // each side within the limit, 25 megapixels in all
        type === "image/gif" || type === "image/jpeg" ? [65535, 65535] : [20000, 20000],
      ] as const) {
        const before = await stored();
        const refused = await upload(make(width, height), type);
        expect(refused.statusCode, `${type} ${width} × ${height}`).toBe(400);
        expect(refused.json().message, type).toBe(
          `The image is too large: ${width} × ${height} pixels, at most 6000 pixels a side and 24 megapixels ` +
            "(such as 6000 × 4000); make it smaller and upload it again.",
        );
        expect(await stored()).toBe(before);
      }
      // The limits themselves are taken.
      for (const [width, height] of [
        [6000, 4000],
        [4000, 6000],
        [6000, 1],
      ] as const) {
        const taken = await upload(make(width, height), type);
        expect(taken.statusCode, `${type} ${width} × ${height}: ${taken.body}`).toBe(201);
        expect(taken.json()).toMatchObject({ width, height });
      }
    }
    // What the attack sent: a PNG claiming 2147483647 × 2147483647 pixels.
    const bomb = await upload(claiming["image/png"](2147483647, 2147483647), "image/png");
    expect(bomb.statusCode).toBe(400);
    expect(bomb.json().message).toMatch(/^The image is too large: 2147483647 × 2147483647 pixels/);
  });

  it("counts a GIF's frames too, which a browser may draw past the screen its header claims", async () => {
    const refused = await upload(gif({ width: 1, height: 1 }, { width: 65535, height: 65535 }), "image/gif");
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/^The image is too large: 65535 × 65535 pixels/);
    const taken = await upload(gif({ width: 100, height: 50 }, { width: 80, height: 40 }), "image/gif");
    expect(taken.statusCode, taken.body).toBe(201);
    expect(taken.json()).toMatchObject({ width: 100, height: 50 });
  });

  it("reads a JPEG's size past fill bytes before a marker, as a browser does", async () => {
    // SOI, APP0, then `FF FF C0`: a fill byte before the SOF0 of a 20000 × 20000 frame (ITU T.81 B.1.1.2). A reader
    // that does not skip the fill byte takes `C0 00` for a segment length of 0xC000 and lands inside the APP1
    // segment that follows, on a decoy SOF0 of 1 × 1.
    const jpeg = claiming["image/jpeg"](1, 1);
    const soiAndApp0 = jpeg.subarray(0, 2 + 2 + 16);
    const frame = (width: number, height: number) => {
      const segment = Buffer.from([0xc0, 0, 11, 8, 0, 0, 0, 0, 1, 1, 0x11, 0]); // baseline, one component
      segment.writeUInt16BE(height, 4);
      segment.writeUInt16BE(width, 6);
      return segment;
    };
    const real = Buffer.concat([Buffer.from([0xff, 0xff]), frame(20000, 20000)]);
    const app1Data = Buffer.alloc(0xc000 + 16);
    // The decoy's offset from the `C0` of the real frame is 0xC000; the APP1 data starts 16 bytes after that `C0`
    // (its 12 bytes of frame, then FF E1 and the length).
    Buffer.concat([Buffer.from([0xff]), frame(1, 1)]).copy(app1Data, 0xc000 - 16);
    const app1Length = Buffer.alloc(2);
    app1Length.writeUInt16BE(app1Data.length + 2);
    const crafted = Buffer.concat([
      soiAndApp0,
      real,
      Buffer.from([0xff, 0xe1]),
      app1Length,
      app1Data,
      Buffer.from([0xff, 0xd9]),
    ]);
    const before = await stored();
    const refused = await upload(crafted, "image/jpeg");
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toMatch(/^The image is too large: 20000 × 20000 pixels/);
    expect(await stored()).toBe(before);

    // The same fill bytes before a frame within the limits are read, as is a plain small JPEG.
    const filled = Buffer.concat([
      soiAndApp0,
      Buffer.from([0xff, 0xff, 0xff]),
      frame(640, 480),
      Buffer.from([0xff, 0xd9]),
    ]);
    const taken = await upload(filled, "image/jpeg");
    expect(taken.statusCode, taken.body).toBe(201);
    expect(taken.json()).toMatchObject({ width: 640, height: 480 });
    const small = await upload(claiming["image/jpeg"](32, 24), "image/jpeg");
    expect(small.statusCode, small.body).toBe(201);
    expect(small.json()).toMatchObject({ width: 32, height: 24 });
  });

  it("refuses a JPEG cut short or with bytes where a marker is due", async () => {
    const jpeg = claiming["image/jpeg"](32, 24);
    for (const bytes of [
      jpeg.subarray(0, 2 + 2 + 16 + 6), // cut inside the frame header
      Buffer.concat([jpeg.subarray(0, 20), Buffer.from([0x00]), jpeg.subarray(20)]), // a stray byte
      Buffer.from([0xff, 0xd8, 0xff, 0xd9]), // no frame
    ]) {
      const refused = await upload(bytes, "image/jpeg");
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().message).toBe("The image cannot be read: the file is damaged or incomplete.");
    }
  });

  it("reads a file cut short as unreadable, never whatever lies past its bytes in the server's memory", async () => {
    // Each header alone, with other requests' bytes around it in Node's shared buffer pool.
    const headers: [Buffer, string][] = [
      [Buffer.from("GIF89a"), "image/gif"],
      [Buffer.from("GIF87a\x10"), "image/gif"],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), "image/png"],
      [Buffer.from("RIFF\0\0\0\0WEBPVP8 "), "image/webp"],
    ];
    for (const [header, type] of headers) {
      for (let round = 0; round < 20; round++) {
        // Fill the pool with something that reads as a huge size, then cut the file from a slice of it.
        Buffer.from("\xff".repeat(200), "latin1");
        const pooled = Buffer.from(header);
        expect(pooled.buffer.byteLength, "a slice of the shared pool").toBeGreaterThan(pooled.length);
        expect(checkEmbeddedImage(pooled)).toEqual({
          ok: false,
          message: "cannot be read: the image is damaged or incomplete",
        });
        const refused = await upload(pooled, type);
        expect(refused.statusCode).toBe(400);
        expect(refused.json().message).toBe("The image cannot be read: the file is damaged or incomplete.");
      }
    }
  });

  it("refuses such an image embedded in an imported file", () => {
    const refused = checkEmbeddedImage(claiming["image/webp"](20000, 20000));
    expect(refused).toEqual({
      ok: false,
      message:
        "is too large: 20000 × 20000 pixels, at most 6000 pixels a side and 24 megapixels (such as 6000 × 4000); " +
        "make it smaller and upload it again",
    });
    expect(checkEmbeddedImage(png(2, 2))).toMatchObject({ ok: true, width: 2, height: 2 });
  });

  it("no longer serves such an image stored before the limit", async () => {
    const bytes = claiming["image/png"](2147483647, 2147483647);
    const { createHash } = await import("node:crypto");
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    await database.pool.query(
      "insert into media (sha256, content_type, bytes, width, height) values ($1, 'image/png', $2, 2147483647, 2147483647)",
      [sha256, bytes],
    );
    const served = await get(`/api/media/${sha256}.png`);
    expect(served.statusCode).toBe(404);
    expect(served.json().message).toBe("Image not shown: it has more pixels than a question's image may have.");
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
