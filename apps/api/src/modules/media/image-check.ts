// What an uploaded image is: its type read from its first bytes (never from what the client claims) and its
// size in pixels read from its header, by image-size, without decoding it.
import { createHash } from "node:crypto";
import { MAX_MEDIA_BYTES, MEDIA_PATH_PREFIX, MEDIA_TYPES, type MediaType } from "@trainwise/contract/media";
import { imageSize } from "image-size";

const SIGNATURES: Record<MediaType, (bytes: Buffer) => boolean> = {
  "image/png": (bytes) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  "image/jpeg": (bytes) => bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  "image/gif": (bytes) => ["GIF87a", "GIF89a"].includes(bytes.subarray(0, 6).toString("latin1")),
  "image/webp": (bytes) =>
    bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP",
};

/** What image-size calls each type. */
const SIZE_TYPES: Record<MediaType, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};

export type ImageCheck = { ok: true; width: number; height: number } | { ok: false; message: string };

/** Whether the bytes are an image of the declared type, and its width and height. */
export function checkImage(bytes: Buffer, declared: MediaType): ImageCheck {
  if (!SIGNATURES[declared](bytes)) {
    return { ok: false, message: `The file is not a ${SIZE_TYPES[declared].toUpperCase()} image, as its type says.` };
  }
  try {
    const size = imageSize(bytes);
    if (size.type !== SIZE_TYPES[declared] || !size.width || !size.height) throw new Error("no size");
    return { ok: true, width: size.width, height: size.height };
  } catch {
    return { ok: false, message: "The image cannot be read: the file is damaged or incomplete." };
  }
}

/** An image whose type nobody declared (one embedded in a question file), as the media module would store it. */
export type EmbeddedImage =
  | { ok: true; sha256: string; contentType: MediaType; bytes: Buffer; width: number; height: number }
  | { ok: false; message: string };

/**
 * The checks of an upload, for bytes that come without a Content-Type: the type from the magic number (PNG,
 * JPEG, WebP or GIF; anything else, SVG included, is refused), at most MAX_MEDIA_BYTES, a readable size.
 */
export function checkEmbeddedImage(bytes: Buffer): EmbeddedImage {
  if (bytes.length > MAX_MEDIA_BYTES) {
    return { ok: false, message: `is too large: at most ${MAX_MEDIA_BYTES / 1024 / 1024} MB` };
  }
  const contentType = (Object.keys(SIGNATURES) as MediaType[]).find((type) => SIGNATURES[type](bytes));
  if (!contentType) {
    return { ok: false, message: "is not a PNG, JPEG, WebP or GIF image (SVG and other types are not accepted)" };
  }
  const checked = checkImage(bytes, contentType);
  if (!checked.ok) return { ok: false, message: "cannot be read: the image is damaged or incomplete" };
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return { ok: true, sha256, contentType, bytes, width: checked.width, height: checked.height };
}

/** Where a stored image is served. */
export function mediaUrl(image: { sha256: string; contentType: MediaType }): string {
  return `${MEDIA_PATH_PREFIX}${image.sha256}.${MEDIA_TYPES[image.contentType]}`;
}
