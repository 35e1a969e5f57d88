// A text file uploaded as a request body (a question bank, a roster): read as UTF-8 or refused, never guessed.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { HttpError } from "../http/http-error.ts";

const UTF8_NAMES = new Set(["utf-8", "utf8", "us-ascii"]);
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
const lenientUtf8 = new TextDecoder("utf-8");

/**
 * The body as text. A file that declares another character set, or holds bytes that are not UTF-8 (a sheet saved
 * as "CSV (Windows)", say), is refused with what to do: read as UTF-8 anyway, its accented names would be stored
 * as U+FFFD and look right nowhere.
 */
export function textOfUpload(request: FastifyRequest, body: Buffer): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(request.headers["content-type"] ?? "")?.[1]?.toLowerCase();
  if (charset && !UTF8_NAMES.has(charset)) {
    const named = /^[a-z0-9_.:-]{1,40}$/.test(charset) ? charset : "another character set";
    throw new HttpError(415, `The file is sent as ${named}; save it as UTF-8 and upload it again.`);
  }
  try {
    return strictUtf8.decode(body);
  } catch {
    const text = lenientUtf8.decode(body);
    const line = text.slice(0, text.indexOf("\uFFFD")).split("\n").length;
    throw new HttpError(
      400,
      `Line ${line} has bytes that are not UTF-8 text; save the file as UTF-8 (in Excel: "CSV UTF-8") and upload it again.`,
    );
  }
}

/** Takes bodies of these types, up to `bytes`, as UTF-8 text (over the limit: 413). */
export function acceptTextUploads(app: FastifyInstance, types: string[], bytes: number): void {
  app.addContentTypeParser(types, { parseAs: "buffer", bodyLimit: bytes }, (request, body, done) => {
    try {
      done(null, textOfUpload(request, body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
