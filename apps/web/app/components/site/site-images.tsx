// The site's pictures as plain <img> and <picture> elements: files the browser fetches, not markup in the
// JavaScript bundle. Each has its width and height, so its space is reserved before it loads.
import {
  type DrawingName,
  type IconName,
  iconSrc,
  RASTER_WIDTHS,
  type RasterPicture,
  rasterSrcSet,
} from "../../content/imagery.ts";

/** A Lucide icon; decorative, the text beside it says what it stands for. Lazy: most sit below the fold. */
export function Icon({ name, className = "h-6 w-6" }: { name: IconName; className?: string }) {
  return (
    <img src={iconSrc(name)} alt="" width={24} height={24} loading="lazy" decoding="async" className={className} />
  );
}

/** An icon on a tinted tile, as the cards show it. */
export function IconTile({ name }: { name: IconName }) {
  return (
    <span className="mb-3 flex h-12 w-12 items-center justify-center rounded-xl bg-brand-100">
      <Icon name={name} className="h-7 w-7" />
    </span>
  );
}

/** A page's illustration beside its heading: above the fold and the largest thing in view, so it comes first. */
export function Drawing({ name }: { name: DrawingName }) {
  return (
    <img
      src={`/img/${name}.svg`}
      alt=""
      width={480}
      height={360}
      fetchPriority="high"
      className="mx-auto h-auto w-full max-w-sm md:max-w-md"
    />
  );
}

/** The home banner: AVIF or WebP at the width the screen needs, fetched first (it is the largest thing in view). */
export function BannerPicture({ picture }: { picture: RasterPicture }) {
  return (
    <picture className="mx-auto block w-full max-w-xl md:max-w-none">
      <source type="image/avif" srcSet={rasterSrcSet(picture, "avif")} sizes={picture.sizes} />
      <source type="image/webp" srcSet={rasterSrcSet(picture, "webp")} sizes={picture.sizes} />
      <img
        src={`/img/${picture.name}-${RASTER_WIDTHS[1]}.webp`}
        alt={picture.alt}
        width={picture.width}
        height={picture.height}
        fetchPriority="high"
        className="h-auto w-full rounded-3xl shadow-sm"
      />
    </picture>
  );
}
