// The site's pictures: the home banner, page illustrations, client marks and icons. A company swaps its own in
// by replacing the drawings in `art/` (or pointing `src` at its own files in `public/`) and editing this file;
// `scripts/images.ts` turns the drawings into the files under `/img/` at build time. The demo brand's pictures
// are drawn for it: no stock images, no real company's logo.

/** Widths the build renders each raster picture at, for `srcset`. */
export const RASTER_WIDTHS = [480, 800, 1200] as const;
export const RASTER_FORMATS = ["avif", "webp"] as const;

/** A picture rendered from `art/<name>.svg` to AVIF and WebP at each of RASTER_WIDTHS. */
export interface RasterPicture {
  name: string;
  alt: string;
  /** The drawing's own size: the largest rendering, and the aspect ratio that reserves its space. */
  width: number;
  height: number;
  sizes: string;
}

export const heroPicture: RasterPicture = {
  name: "hero",
  alt: "A trainer points at a rising results chart while two learners work on laptops",
  width: 1200,
  height: 900,
  sizes: "(min-width: 900px) 560px, min(576px, calc(100vw - 2rem))",
};

/** The files of one format of a raster picture, as a `srcset`. */
export const rasterSrcSet = (picture: RasterPicture, format: (typeof RASTER_FORMATS)[number]) =>
  RASTER_WIDTHS.map((width) => `/img/${picture.name}-${width}.${format} ${width}w`).join(", ");

/**
 * Drawings shown as they are (copied from `art/` to `/img/<name>.svg`), each on a 480 × 360 canvas; a page names
 * the one beside its heading. Decorative: the heading says it all.
 */
export const DRAWINGS = ["services", "programmes", "careers", "about", "development"] as const;
export type DrawingName = (typeof DRAWINGS)[number];

/**
 * Icons from Lucide (`lucide-static`), copied in the brand's colour to `/img/icons/<name>.svg` by the build.
 * The list is the set the build copies; a name not listed here does not typecheck.
 */
export const ICONS = [
  "presentation",
  "calendar-check",
  "handshake",
  "sprout",
  "code-xml",
  "message-circle",
  "trending-up",
  "crown",
  "shield-check",
  "cog",
  "graduation-cap",
  "users",
  "award",
  "clipboard-check",
  "briefcase-business",
  "rocket",
  "laptop",
  "database",
  "mic",
  "file-text",
  "calculator",
  "search",
  "building-2",
  "plug",
  "wrench",
  "lightbulb",
  "smartphone",
  "globe",
  "layout-dashboard",
  "mouse-pointer-click",
  "school",
  "store",
  "gauge",
  "accessibility",
  "compass",
  "target",
] as const;
export type IconName = (typeof ICONS)[number];

export const iconSrc = (name: IconName) => `/img/icons/${name}.svg`;

/**
 * The demo brand's fictional clients' marks, drawn by scripts/images.ts from this list: a symbol of what each
 * client is (a lake, a bridge, a sunrise, a globe, a drop, a peak) in white on its own shape and colour. No letters:
 * a monogram reads as a placeholder, not a logo.
 */
export interface ClientMark {
  colour: string;
  shape: "circle" | "square" | "hexagon" | "shield" | "diamond" | "octagon";
  /** SVG path data on a 64 × 64 canvas, stroked in white. */
  symbol: string;
}

/** Each demo client's mark, by the file name its logo has under `/img/clients/`. */
export const CLIENT_MARKS: Record<string, ClientMark> = {
  lakeview: {
    colour: "#1f5fbf",
    shape: "shield",
    // A lake's waves under a roof: an institute by the water.
    symbol: "M18 26 32 17l14 9M16 36q4-4 8 0t8 0 8 0 8 0M16 44q4-4 8 0t8 0 8 0 8 0",
  },
  northbridge: {
    colour: "#0f766e",
    shape: "hexagon",
    // A bridge: its deck, arch and hangers.
    symbol: "M10 40h44M14 40q18-22 36 0M23 33v7M32 29v11M41 33v7",
  },
  sunrise: {
    colour: "#c2410c",
    shape: "circle",
    // The sun rising over the horizon.
    symbol: "M12 42h40M21 42a11 11 0 0 1 22 0M32 19v6M17.5 27.5l4 4M46.5 27.5l-4 4",
  },
  meridian: {
    colour: "#7c3aed",
    shape: "diamond",
    // A globe with its meridian and equator.
    symbol: "M32 19a13 13 0 1 0 0 26 13 13 0 1 0 0-26M32 19c-5 4-5 22 0 26M32 19c5 4 5 22 0 26M19 32h26",
  },
  kaveri: {
    colour: "#15803d",
    shape: "octagon",
    // A drop of the river with a cross: care.
    symbol: "M32 14c7 9 11 15 11 22a11 11 0 0 1-22 0c0-7 4-13 11-22ZM32 31v10M27 36h10",
  },
  bluepeak: {
    colour: "#0e7490",
    shape: "square",
    // Two peaks and the road that crosses them.
    symbol: "M10 44 24 24l8 11 6-8 16 17M20 50h24",
  },
};

/**
 * The team's portraits on About Us, drawn by scripts/images.ts as `/img/team/<file>.svg`: head and shoulders in
 * flat colour. Drawings, not photographs: the demo company's people are fictional.
 */
export interface Portrait {
  background: string;
  skin: string;
  hair: string;
  /** Short hair, long hair, hair in a bun, or a short cut with a beard. */
  style: "short" | "long" | "bun" | "beard";
  shirt: string;
  glasses?: boolean;
}

export const PORTRAITS: Record<string, Portrait> = {
  meera: { background: "#d9eaff", skin: "#a86b4c", hair: "#1f1410", style: "long", shirt: "#174a96" },
  arjun: { background: "#fde7c8", skin: "#8d5a3c", hair: "#15100c", style: "beard", shirt: "#0f766e", glasses: true },
  farah: { background: "#e9dcff", skin: "#c18b69", hair: "#2b1a12", style: "bun", shirt: "#7c3aed" },
  vikram: { background: "#d5f5e3", skin: "#70452c", hair: "#0f0b08", style: "short", shirt: "#c2410c" },
  lakshmi: { background: "#ffe0e6", skin: "#9a6244", hair: "#1a1210", style: "bun", shirt: "#0e7490", glasses: true },
};
