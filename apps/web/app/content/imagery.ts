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

/** The demo brand's fictional clients' marks: a monogram each, drawn by scripts/images.ts from this list. */
export interface ClientMark {
  initials: string;
  colour: string;
  shape: "circle" | "square" | "hexagon" | "shield" | "diamond" | "octagon";
}

/** Each demo client's mark, by the file name its logo has under `/img/clients/`. */
export const CLIENT_MARKS: Record<string, ClientMark> = {
  lakeview: { initials: "LI", colour: "#1f5fbf", shape: "shield" },
  northbridge: { initials: "NS", colour: "#0f766e", shape: "hexagon" },
  sunrise: { initials: "SE", colour: "#c2410c", shape: "circle" },
  meridian: { initials: "MR", colour: "#7c3aed", shape: "diamond" },
  kaveri: { initials: "KH", colour: "#15803d", shape: "octagon" },
  bluepeak: { initials: "BL", colour: "#0e7490", shape: "square" },
};
