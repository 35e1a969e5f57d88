// Material for the rich-content journeys: a real PNG made here (no binary fixture in git), GIFT text escaping, and
// where the page shows question text.
import zlib from "node:zlib";
import type { Page } from "@playwright/test";

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG of one colour, `width` × `height` pixels. */
export function solidPng(width: number, height: number, [red, green, blue]: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bits per channel
  header.writeUInt8(2, 9); // RGB
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([red, green, blue], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Text as GIFT reads it back unchanged: its special characters (and the backslash itself) escaped. */
export function giftEscape(text: string): string {
  return text.replaceAll(/[\\~=#{}:]/g, "\\$&");
}

/** Every element showing server-rendered question or option text on the page. */
export const RICH_TEXT = ".rich-text, .rich-text-inline";

/** Whether every picture inside the page's question text has loaded and has pixels. */
export function imagesLoaded(page: Page, selector = `:is(${RICH_TEXT}) img`): Promise<boolean> {
  return page.evaluate(
    (imagesSelector) =>
      [...document.querySelectorAll<HTMLImageElement>(imagesSelector)].every(
        (image) => image.complete && image.naturalWidth > 0,
      ),
    selector,
  );
}
