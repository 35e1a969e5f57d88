// What an uploaded image is: its type read from its first bytes (never from what the client claims) and its
// size in pixels read from its header, by image-size, without decoding it.
import type { MediaType } from "@trainwise/contract/media";
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
