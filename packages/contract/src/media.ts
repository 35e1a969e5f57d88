// POST /api/media (an image for a question, uploaded by an admin who may edit questions) and GET /api/media/:file
// (public). Images are stored in PostgreSQL by the SHA-256 of their bytes and served under that name for ever
// (docs/decisions/021).
import { z } from "zod";

/** The image types a question may show, with the extension their name carries. SVG is not one: it can run script. */
export const MEDIA_TYPES = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
} as const;
export type MediaType = keyof typeof MEDIA_TYPES;
export type MediaExtension = (typeof MEDIA_TYPES)[MediaType];

/** Largest image accepted, in bytes. */
export const MAX_MEDIA_BYTES = 2 * 1024 * 1024;

/**
 * Largest image accepted, in pixels. A browser decodes an image to 4 bytes a pixel whatever its file size, and a
 * 2 MB file can claim billions of pixels, so a few kilobytes could freeze the page of every student shown them.
 * 6000 pixels a side takes a 5K screenshot (5120 × 2880) and a 24-megapixel camera's photo (6000 × 4000); 24
 * megapixels (96 MB decoded) is the most one picture in a question may cost a phone. The area bounds a square
 * (6000 × 6000 would be 144 MB), the side a strip a page cannot lay out.
 */
export const MAX_IMAGE_SIDE = 6000;
export const MAX_IMAGE_PIXELS = 24_000_000;

/** Where an uploaded image is served: `/api/media/<sha256 hex>.<ext>`. The renderer shows images from here only. */
export const MEDIA_PATH_PREFIX = "/api/media/";
export const MEDIA_FILE_PATTERN = /^([0-9a-f]{64})\.(png|jpg|webp|gif)$/;

/** The answer to an upload: where the image is, its size in pixels, and the Markdown that shows it. */
export const mediaUploadSchema = z.object({
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** `![](<url>)` (`imageMarkdown` without a description), to paste into a question or option. */
  markdown: z.string(),
});
export type MediaUpload = z.infer<typeof mediaUploadSchema>;

/**
 * The Markdown that shows an image with its description (alt text) for students who cannot see it; an empty one
 * marks a decorative picture, which screen readers pass over. Markdown's own characters in the description are
 * escaped so it reads as typed, and line breaks become spaces (alt text is one line).
 */
export function imageMarkdown(url: string, description = ""): string {
  const alt = description
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\\[\]*_`$<>&~!]/g, (character) => `\\${character}`);
  return `![${alt}](${url})`;
}

/** An image's name: anything else is not one (400), a name nobody uploaded is not found (404). */
export const mediaFileParamsSchema = z.object({
  file: z
    .string()
    .max(80, { error: "Not an image name" })
    .regex(MEDIA_FILE_PATTERN, { error: "Not an image name: expected <sha256>.png, .jpg, .webp or .gif" }),
});
