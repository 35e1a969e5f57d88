// /api/media: images for questions. POST (whoever may edit questions) stores one; GET serves it to anyone, for
// ever, under the hash of its bytes (docs/decisions/021).
import { hash } from "node:crypto";
import {
  imageMarkdown,
  MAX_MEDIA_BYTES,
  MEDIA_FILE_PATTERN,
  MEDIA_TYPES,
  type MediaType,
} from "@trainwise/contract/media";
import type { FastifyError, FastifyPluginAsync } from "fastify";
import { LRUCache } from "lru-cache";
import { HttpError } from "../../http/http-error.ts";
import { serve } from "../../http/serve-endpoint.ts";
import { adminOf } from "../../plugins/auth.ts";
import { checkImage, mediaUrl } from "./image-check.ts";
import { findMedia, saveMedia } from "./repository.ts";

const ACCEPTED = Object.keys(MEDIA_TYPES) as MediaType[];
const LIMIT_MB = MAX_MEDIA_BYTES / 1024 / 1024;
const UNSUPPORTED = "Upload a PNG, JPEG, WebP or GIF image (SVG and other types are not accepted).";
const TOO_LARGE = `The image is too large: at most ${LIMIT_MB} MB.`;
const TOO_MANY_PIXELS = "Image not shown: it has more pixels than a question's image may have.";

/** Nothing in an image may load or run anything, even opened on its own. */
const IMAGE_POLICY = "default-src 'none'; sandbox";
const FOR_EVER = "public, max-age=31536000, immutable";

const mediaRoutes: FastifyPluginAsync = async (app) => {
  // Only the image types are read, as bytes, up to the limit; any other body is refused unread.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(ACCEPTED, { parseAs: "buffer", bodyLimit: MAX_MEDIA_BYTES }, (_request, body, done) =>
    done(null, body),
  );
  app.addContentTypeParser("*", (_request, _payload, done) => done(new HttpError(415, UNSUPPORTED)));
  app.setErrorHandler((error: FastifyError) => {
    // The parent's handler answers everything; only the framework's own refusals get the image's wording here.
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") throw new HttpError(413, TOO_LARGE);
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") throw new HttpError(415, UNSUPPORTED);
    throw error;
  });

  /** Served images, so a question shown to a whole drive reads each image from PostgreSQL once per instance. */
  const served = new LRUCache<string, { contentType: MediaType; bytes: Buffer }>({
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (image) => image.bytes.length + 100,
  });

  serve(app, "uploadMedia", async (request) => {
    const contentType = request.headers["content-type"]?.split(";")[0]?.trim().toLowerCase() as MediaType;
    const bytes: unknown = request.body;
    if (!ACCEPTED.includes(contentType)) throw new HttpError(415, UNSUPPORTED);
    if (!Buffer.isBuffer(bytes) || bytes.length === 0) throw new HttpError(400, "The image is empty.");
    const checked = checkImage(bytes, contentType);
    if (!checked.ok) throw new HttpError(400, checked.message);
    const sha256 = hash("sha256", bytes);
    await saveMedia(app.db, {
      sha256,
      contentType,
      bytes,
      width: checked.width,
      height: checked.height,
      uploadedBy: adminOf(request).id,
    });
    const url = mediaUrl({ sha256, contentType });
    return { url, width: checked.width, height: checked.height, markdown: imageMarkdown(url) };
  });

  serve(app, "media", async (request, reply) => {
    const match = MEDIA_FILE_PATTERN.exec(request.params.file);
    const notFound = new HttpError(404, "Image not found.");
    if (!match) throw notFound;
    const [, sha256 = "", extension] = match;
    let image = served.get(sha256);
    if (!image) {
      image = await findMedia(app.db, sha256);
      if (!image) throw notFound;
      // Images are never deleted, so one stored before the limit on pixels is held to it here, once per instance.
      if (!checkImage(image.bytes, image.contentType).ok) throw new HttpError(404, TOO_MANY_PIXELS);
      served.set(sha256, image);
    }
    if (MEDIA_TYPES[image.contentType] !== extension) throw notFound;
    const etag = `"${sha256}"`;
    reply
      .header("cache-control", FOR_EVER)
      .header("etag", etag)
      .header("content-security-policy", IMAGE_POLICY)
      .header("x-content-type-options", "nosniff")
      .header("content-disposition", `inline; filename="${request.params.file}"`);
    if (request.headers["if-none-match"] === etag) return reply.status(304).send(null);
    return reply.type(image.contentType).send(image.bytes);
  });
};

export default mediaRoutes;
