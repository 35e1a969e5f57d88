// Makes the site's image files under public/img (not committed: run by `npm run build` and `npm run dev`):
// - each raster picture of app/content/imagery.ts, from its drawing in art/, as AVIF and WebP at every width;
// - the drawings shown as SVG, copied without their comments;
// - the Lucide icons the content names, in the brand's colour (an <img> cannot inherit `currentColor`);
// - the demo clients' monogram marks.
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
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64"><g fill="${mark.colour}">${SHAPES[mark.shape]}</g><text x="32" y="33" fill="#fff" font-family="system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif" font-size="${mark.shape === "diamond" ? 17 : 21}" font-weight="700" text-anchor="middle" dominant-baseline="central" letter-spacing="1">${mark.initials}</text></svg>`,
  );
}

console.log(`images: ${path.relative(process.cwd(), outDir)} up to date`);
