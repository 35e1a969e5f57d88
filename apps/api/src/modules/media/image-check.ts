// What an uploaded image is: its type read from its first bytes (never from what the client claims) and its
// size in pixels read from its header, without decoding it: by image-size, except for a JPEG, whose markers are
// walked here as the standard has them (see jpegSizeOf). An image larger than a browser should decode for a
// question is refused, however few bytes it takes.
import { hash } from "node:crypto";
import {
  MAX_IMAGE_PIXELS,
  MAX_IMAGE_SIDE,
  MAX_MEDIA_BYTES,
  MEDIA_PATH_PREFIX,
  MEDIA_TYPES,
  type MediaType,
} from "@trainwise/contract/media";
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

interface PixelSize {
  width: number;
  height: number;
}

/** The size in pixels a browser would decode the bytes to, read from the headers; undefined when unreadable. */
function pixelSizeOf(bytes: Buffer, type: MediaType): PixelSize | undefined {
  if (type === "image/jpeg") return jpegSizeOf(bytes);
  try {
    // A copy of exactly these bytes: image-size reads through a DataView over the input's whole ArrayBuffer, so on a
    // slice of Node's shared pool a file cut short was read on into other requests' memory, and those bytes came
    // back as its size (a six-byte "GIF89a" answered 11,617 × 26,164, part of someone's id; found by an outside
    // review). Past the end of a buffer of its own, the reader throws, and the file cannot be read.
    const size = imageSize(new Uint8Array(bytes));
    if (size.type !== SIZE_TYPES[type] || !size.width || !size.height) return undefined;
    return type === "image/gif" ? gifCanvasOf(bytes, size) : { width: size.width, height: size.height };
  } catch {
    return undefined;
  }
}

/**
 * A JPEG's size, from its first frame header (SOFn), found by walking its markers as ITU T.81 (B.1.1.2) has them
 * and as libjpeg, which browsers decode with, reads them: any number of 0xFF fill bytes may come before a marker
 * code; TEM (0x01) and RST0–RST7 stand alone; every other marker is followed by a two-byte length that counts
 * itself. image-size does not skip fill bytes, so `FF FF C0` took it to read `C0 00` as a length and find a
 * decoy 1 × 1 frame inside a later segment while a browser decoded the real 20000 × 20000 one. A stream that ends
 * early, holds anything but a marker where one is due, or reaches a scan or its end before a frame header, is
 * unreadable (undefined), so refused.
 */
function jpegSizeOf(bytes: Buffer): PixelSize | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined; // not a marker where one must be
    while (bytes[offset] === 0xff) offset++; // the marker's 0xFF and any fill bytes before its code
    const marker = bytes[offset];
    offset++;
    if (marker === undefined) return undefined; // truncated
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // TEM, RSTn: no length
    // 0x00 is no marker outside entropy-coded data; a second SOI, an EOI or a scan before any frame header has
    // no size to read.
    if (marker === 0x00 || marker === 0xd8 || marker === 0xd9 || marker === 0xda) return undefined;
    if (offset + 2 > bytes.length) return undefined;
    const length = bytes.readUInt16BE(offset);
    if (length < 2 || offset + length > bytes.length) return undefined;
    // SOF0–SOF15, less DHT (C4), JPG (C8) and DAC (CC): length, precision, height, width, components.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (length < 8) return undefined;
      const height = bytes.readUInt16BE(offset + 3);
      const width = bytes.readUInt16BE(offset + 5);
      // A height of 0 is given later by a DNL marker; not read here, so refused as unreadable.
      return width && height ? { width, height } : undefined;
    }
    offset += length;
  }
  return undefined;
}

/**
 * A GIF's canvas: image-size reads only the screen size at its start, but a browser may enlarge a screen smaller
 * than its first frame to that frame (Firefox does), so a 1 × 1 screen can carry a 65535 × 65535 frame. The canvas here spans the screen and every frame. Reading stops where the blocks stop
 * making sense, as a browser's decoding does.
 */
function gifCanvasOf(bytes: Buffer, screen: PixelSize): PixelSize {
  let { width, height } = screen;
  const colourTableBytes = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
  /** The offset after a run of data sub-blocks (each a length byte and that many bytes, ended by a zero). */
  const afterSubBlocks = (from: number) => {
    let offset = from;
    while (offset < bytes.length && bytes[offset] !== 0) offset += (bytes[offset] ?? 0) + 1;
    return offset + 1;
  };
  let offset = 13 + colourTableBytes(bytes[10] ?? 0);
  while (offset < bytes.length) {
    const block = bytes[offset];
    if (block === 0x21) {
      offset = afterSubBlocks(offset + 2); // extension introducer and label
    } else if (block === 0x2c && offset + 10 <= bytes.length) {
      const left = bytes.readUInt16LE(offset + 1);
      const top = bytes.readUInt16LE(offset + 3);
      width = Math.max(width, left + bytes.readUInt16LE(offset + 5));
      height = Math.max(height, top + bytes.readUInt16LE(offset + 7));
      // The descriptor, its local colour table, the LZW code size, then the image data.
      offset = afterSubBlocks(offset + 10 + colourTableBytes(bytes[offset + 9] ?? 0) + 1);
    } else {
      break; // the trailer (0x3b), or bytes that are not a block
    }
  }
  return { width, height };
}

/** Why an image of this size is refused ("is too large: …"), or undefined when a browser may decode it. */
function oversize({ width, height }: PixelSize): string | undefined {
  if (width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE && width * height <= MAX_IMAGE_PIXELS) return undefined;
  return (
    `is too large: ${width} × ${height} pixels, at most ${MAX_IMAGE_SIDE} pixels a side and ` +
    `${MAX_IMAGE_PIXELS / 1_000_000} megapixels (such as ${MAX_IMAGE_SIDE} × ${MAX_IMAGE_PIXELS / MAX_IMAGE_SIDE}); ` +
    "make it smaller and upload it again"
  );
}

/** Whether the bytes are an image of the declared type that a browser may decode, and its width and height. */
export function checkImage(bytes: Buffer, declared: MediaType): ImageCheck {
  if (!SIGNATURES[declared](bytes)) {
    return { ok: false, message: `The file is not a ${SIZE_TYPES[declared].toUpperCase()} image, as its type says.` };
  }
  const size = pixelSizeOf(bytes, declared);
  if (!size) return { ok: false, message: "The image cannot be read: the file is damaged or incomplete." };
  const tooLarge = oversize(size);
  if (tooLarge) return { ok: false, message: `The image ${tooLarge}.` };
  return { ok: true, ...size };
}

/** An image whose type nobody declared (one embedded in a question file), as the media module would store it. */
export type EmbeddedImage =
  | { ok: true; sha256: string; contentType: MediaType; bytes: Buffer; width: number; height: number }
  | { ok: false; message: string };

/**
 * The checks of an upload, for bytes that come without a Content-Type: the type from the magic number (PNG,
 * JPEG, WebP or GIF; anything else, SVG included, is refused), at most MAX_MEDIA_BYTES, a readable size within
 * MAX_IMAGE_SIDE and MAX_IMAGE_PIXELS.
 */
export function checkEmbeddedImage(bytes: Buffer): EmbeddedImage {
  if (bytes.length > MAX_MEDIA_BYTES) {
    return { ok: false, message: `is too large: at most ${MAX_MEDIA_BYTES / 1024 / 1024} MB` };
  }
  const contentType = (Object.keys(SIGNATURES) as MediaType[]).find((type) => SIGNATURES[type](bytes));
  if (!contentType) {
    return { ok: false, message: "is not a PNG, JPEG, WebP or GIF image (SVG and other types are not accepted)" };
  }
  const size = pixelSizeOf(bytes, contentType);
  if (!size) return { ok: false, message: "cannot be read: the image is damaged or incomplete" };
  const tooLarge = oversize(size);
  if (tooLarge) return { ok: false, message: tooLarge };
  const sha256 = hash("sha256", bytes);
  return { ok: true, sha256, contentType, bytes, ...size };
}

/** Where a stored image is served. */
export function mediaUrl(image: { sha256: string; contentType: MediaType }): string {
  return `${MEDIA_PATH_PREFIX}${image.sha256}.${MEDIA_TYPES[image.contentType]}`;
}
