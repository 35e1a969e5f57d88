// Makes the site's image files under public/img (not committed: run by `npm run build` and `npm run dev`):
// - each raster picture of app/content/imagery.ts, from its drawing in art/, as AVIF and WebP at every width;
// - the drawings shown as SVG, copied without their comments;
// - the Lucide icons the content names, in the brand's colour (an <img> cannot inherit `currentColor`);
// - the demo clients' marks and the team's portraits.
// Files are written only when their content changes, so a rebuild leaves their dates alone.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import {
  CLIENT_MARKS,
  type ClientMark,
  DRAWINGS,
  heroPicture,
  ICONS,
  PORTRAITS,
  type Portrait,
  RASTER_FORMATS,
  RASTER_WIDTHS,
} from "../app/content/imagery.ts";

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const artDir = path.join(webDir, "art");
const outDir = path.join(webDir, "public/img");
const lucideDir = path.join(path.dirname(fileURLToPath(import.meta.resolve("lucide-static/package.json"))), "icons");
const ICON_COLOUR = "#174a96";

function write(file: string, body: Buffer | string) {
  const target = path.join(outDir, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  if (fs.existsSync(target) && fs.readFileSync(target).equals(bytes)) return;
  fs.writeFileSync(target, bytes);
}

const withoutComments = (svg: string) =>
  svg
    .replaceAll(/<!--[\s\S]*?-->/g, "")
    .replaceAll(/\n\s*/g, " ")
    .replaceAll(/>\s+</g, "><")
    .trim();

for (const picture of [heroPicture]) {
  const source = fs.readFileSync(path.join(artDir, `${picture.name}.svg`));
  for (const width of RASTER_WIDTHS) {
    // Rendered at the target width from the vector, not scaled down from one large bitmap: crisp at every size.
    const image = sharp(source, { density: (72 * width) / picture.width }).resize(width);
    for (const format of RASTER_FORMATS) {
      const encoded =
        format === "avif"
          ? await image.clone().avif({ quality: 55, effort: 4 }).toBuffer()
          : await image.clone().webp({ quality: 80, effort: 6 }).toBuffer();
      write(`${picture.name}-${width}.${format}`, encoded);
    }
  }
}

for (const name of DRAWINGS)
  write(`${name}.svg`, withoutComments(fs.readFileSync(path.join(artDir, `${name}.svg`), "utf8")));

for (const name of ICONS) {
  const svg = fs.readFileSync(path.join(lucideDir, `${name}.svg`), "utf8");
  // The licence comment stays (ISC asks for it); only the class and the colour change.
  write(
    `icons/${name}.svg`,
    svg
      .replace(/\s*class="[^"]*"/, "")
      .replace('stroke="currentColor"', `stroke="${ICON_COLOUR}"`)
      .replaceAll(/\n\s*/g, " ")
      .replaceAll(/>\s+</g, "><")
      .trim(),
  );
}

const SHAPES: Record<ClientMark["shape"], string> = {
  circle: '<circle cx="32" cy="32" r="30"/>',
  square: '<rect x="3" y="3" width="58" height="58" rx="14"/>',
  hexagon: '<path d="M32 2 58 17v30L32 62 6 47V17Z"/>',
  shield: '<path d="M32 2 58 10v20c0 16-11 27-26 32C17 57 6 46 6 30V10Z"/>',
  diamond: '<rect x="10" y="10" width="44" height="44" rx="8" transform="rotate(45 32 32)"/>',
  octagon: '<path d="M20 2h24l18 18v24L44 62H20L2 44V20Z"/>',
};

for (const [file, mark] of Object.entries(CLIENT_MARKS)) {
  write(
    `clients/${file}.svg`,
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64"><g fill="${mark.colour}">${SHAPES[mark.shape]}</g><path d="${mark.symbol}" fill="none" stroke="#fff" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/></svg>`,
  );
}

/** A head-and-shoulders drawing on a 96 × 96 canvas, from a portrait's colours and hair style. */
function portraitSvg(portrait: Portrait): string {
  const { background, skin, hair, style, shirt } = portrait;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96" width="96" height="96">',
    `<rect width="96" height="96" fill="${background}"/>`,
    style === "long" ? `<path d="M27 44c-2-18 6-28 21-28s23 10 21 28l4 28H23Z" fill="${hair}"/>` : "",
    style === "bun" ? `<circle cx="48" cy="17" r="9" fill="${hair}"/>` : "",
    `<path d="M12 96c2-19 16-28 36-28s34 9 36 28Z" fill="${shirt}"/>`,
    `<path d="M40 68l8 9 8-9" fill="none" stroke="#fff" stroke-width="2.5" stroke-linejoin="round"/>`,
    `<rect x="41" y="54" width="14" height="15" rx="5" fill="${skin}"/>`,
    `<ellipse cx="48" cy="42" rx="16" ry="19" fill="${skin}"/>`,
    `<path d="M31 40c0-14 7-21 17-21s17 7 17 21c-4-7-10-10-17-10s-13 3-17 10Z" fill="${hair}"/>`,
    style === "beard" ? `<path d="M32 45c2 13 8 17 16 17s14-4 16-17c-4 5-9 7-16 7s-12-2-16-7Z" fill="${hair}"/>` : "",
    '<circle cx="42" cy="43" r="1.9" fill="#1f1410"/><circle cx="54" cy="43" r="1.9" fill="#1f1410"/>',
    `<path d="M43 51q5 4 10 0" fill="none" stroke="${style === "beard" ? "#f5e6dc" : "#5b2f22"}" stroke-width="1.8" stroke-linecap="round"/>`,
    portrait.glasses
      ? '<g fill="none" stroke="#1f2937" stroke-width="1.6"><circle cx="42" cy="43" r="5"/><circle cx="54" cy="43" r="5"/><path d="M47 43h2"/></g>'
      : "",
    "</svg>",
  ].join("");
}

for (const [file, portrait] of Object.entries(PORTRAITS)) write(`team/${file}.svg`, portraitSvg(portrait));

console.log(`images: ${path.relative(process.cwd(), outDir)} up to date`);
