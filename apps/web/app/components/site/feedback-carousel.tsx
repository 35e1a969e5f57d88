// The home page's student feedback carousel (docs/product.md#feedback-carousel). Loaded after the page is
// interactive, so its code and data never delay the first paint.
import { CAROUSEL_INTERVAL_MS } from "@trainwise/contract/constants";
import type { PublicFeedback } from "@trainwise/contract/feedback";
import Autoplay from "embla-carousel-autoplay";
import useEmblaCarousel from "embla-carousel-react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { call } from "../../lib/api.ts";
import { ChevronDownIcon } from "./icons.tsx";

/** Ten pastel colours, cycling over the cards. */
const PASTELS = [
  "#fde2e4",
  "#e2ece9",
  "#dfe7fd",
  "#fff1c1",
  "#e8dff5",
  "#d7f9f1",
  "#fce1e4",
  "#ddedea",
  "#fbe7c6",
  "#e3f2fd",
] as const;

/** Up to two initials of a name, for the avatar on its card ("Asha Rao" -> "AR", "Ravi" -> "R"). */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const picked = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return picked.map((word) => Array.from(word as string)[0]?.toLocaleUpperCase() ?? "").join("");
}

/** Cards per slide and the gap between them: 3 and 20 px from 900 px, 2 and 15 px from 600 px, else 1. */
function layoutFor(width: number): { perSlide: number; gap: number } {
  if (width >= 900) return { perSlide: 3, gap: 20 };
  if (width >= 600) return { perSlide: 2, gap: 15 };
  return { perSlide: 1, gap: 0 };
}

function useViewportWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const update = () => setWidth(window.innerWidth);
    window.addEventListener("resize", update);
    return () => window.removeEventListener("resize", update);
  }, []);
  return width;
}

function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(() => window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  useEffect(() => {
    const query = window.matchMedia("(prefers-reduced-motion: reduce)");
    const update = () => setReduced(query.matches);
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return reduced;
}

/** At most this many dots show, a window round the current slide, so any number of entries fits a phone. */
const MAX_DOTS = 5;

/** The slides whose dots show: up to MAX_DOTS consecutive ones, the current one as near the middle as it can be. */
function dotWindow(count: number, selected: number): number[] {
  const size = Math.min(count, MAX_DOTS);
  const first = Math.min(Math.max(selected - Math.floor(size / 2), 0), count - size);
  return Array.from({ length: size }, (_, offset) => first + offset);
}

type Load = { state: "loading" } | { state: "failed" } | { state: "ready"; feedback: PublicFeedback[] };

export default function FeedbackCarousel() {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  useEffect(() => {
    call("publicFeedback", {}).then(
      (feedback) => setLoad({ state: "ready", feedback }),
      () => setLoad({ state: "failed" }),
    );
  }, []);

  if (load.state === "loading") return <p role="status">Loading feedback…</p>;
  if (load.state === "failed")
    return (
      <p role="alert" className="text-red-800">
        Failed to load feedbacks.
      </p>
    );
  if (load.feedback.length === 0) return <p>No feedback found.</p>;
  return <Slides feedback={load.feedback} />;
}

function Slides({ feedback }: { feedback: PublicFeedback[] }) {
  const { perSlide, gap } = layoutFor(useViewportWidth());
  const reducedMotion = usePrefersReducedMotion();
  const slides = useMemo(() => {
    const groups: { entry: PublicFeedback; colour: string }[][] = [];
    feedback.forEach((entry, index) => {
      const slide = Math.floor(index / perSlide);
      groups[slide] ??= [];
      groups[slide].push({ entry, colour: PASTELS[index % PASTELS.length] as string });
    });
    return groups;
  }, [feedback, perSlide]);

  const [paused, setPaused] = useState(false);
  const autoplay = useMemo(
    () => Autoplay({ delay: CAROUSEL_INTERVAL_MS, playOnInit: false, stopOnInteraction: false }),
    [],
  );
  const [viewportRef, embla] = useEmblaCarousel({ loop: true, duration: reducedMotion ? 1 : 25 }, [autoplay]);
  const [selected, setSelected] = useState(0);

  useEffect(() => {
    if (!embla) return;
    const onSelect = () => setSelected(embla.selectedScrollSnap());
    embla.on("select", onSelect).on("reInit", onSelect);
    embla.reInit();
    return () => {
      embla.off("select", onSelect).off("reInit", onSelect);
    };
  }, [embla, slides]);

  // Moves by itself unless the visitor paused it, is pointing at or focused in it, or asked for less motion.
  const [engaged, setEngaged] = useState(false);
  const playing = !paused && !engaged && !reducedMotion && slides.length > 1;
  useEffect(() => {
    if (!embla) return;
    if (playing) autoplay.play();
    else autoplay.stop();
  }, [embla, autoplay, playing]);

  const goTo = useCallback((index: number) => embla?.scrollTo(index), [embla]);

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Student feedback"
      onMouseEnter={() => setEngaged(true)}
      onMouseLeave={() => setEngaged(false)}
      onFocus={() => setEngaged(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setEngaged(false);
      }}
    >
      <div className="overflow-hidden" ref={viewportRef}>
        <div className="flex">
          {slides.map((cards, slideIndex) => (
            // biome-ignore lint/a11y/useSemanticElements: a slide is a group in the ARIA carousel pattern, not a fieldset.
            <div
              key={cards.map((card) => card.entry._id).join("-")}
              className="min-w-0 shrink-0 grow-0 basis-full"
              role="group"
              aria-roledescription="slide"
              aria-label={`${slideIndex + 1} of ${slides.length}`}
              aria-hidden={slideIndex !== selected}
              data-testid="feedback-slide"
            >
              <ul className="flex" style={{ gap: `${gap}px` }}>
                {cards.map(({ entry, colour }) => (
                  <li
                    key={entry._id}
                    className="min-w-0 flex-1 break-words rounded-lg p-5 text-slate-900 shadow-sm"
                    style={{ backgroundColor: colour }}
                    data-testid="feedback-card"
                  >
                    <blockquote>
                      <p>“{entry.feedback}”</p>
                      <footer className="mt-4 flex items-center gap-3 text-sm font-semibold">
                        <span
                          aria-hidden="true"
                          className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-700 text-sm font-bold tracking-wide text-white"
                          data-testid="feedback-initials"
                        >
                          {initialsOf(entry.name)}
                        </span>
                        <span className="min-w-0">
                          {entry.name}, batch {entry.batch}, section {entry.section}
                        </span>
                      </footer>
                    </blockquote>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </div>
      <div className="mt-4 flex flex-wrap items-center justify-center gap-x-6 gap-y-2">
        <div className="flex items-center gap-1">
          <button
            type="button"
            onClick={() => embla?.scrollPrev()}
            aria-label="Previous feedback slide"
            className="rounded-full p-2 text-brand-700 hover:bg-white"
          >
            <ChevronDownIcon className="h-5 w-5 rotate-90" />
          </button>
          {dotWindow(slides.length, selected).map((index, position, shown) => {
            // A smaller dot at an end of the window says that more slides lie beyond it.
            const more = (position === 0 && index > 0) || (position === shown.length - 1 && index < slides.length - 1);
            return (
              <button
                key={index}
                type="button"
                onClick={() => goTo(index)}
                aria-label={`Show feedback slide ${index + 1}`}
                aria-current={index === selected ? "true" : undefined}
                className="flex h-6 w-6 items-center justify-center rounded-full"
              >
                <span
                  className={`rounded-full border-2 border-brand-700 ${more ? "h-2.5 w-2.5" : "h-4 w-4"} ${index === selected ? "bg-brand-700" : "bg-white"}`}
                />
              </button>
            );
          })}
          <button
            type="button"
            onClick={() => embla?.scrollNext()}
            aria-label="Next feedback slide"
            className="rounded-full p-2 text-brand-700 hover:bg-white"
          >
            <ChevronDownIcon className="h-5 w-5 -rotate-90" />
          </button>
        </div>
        <div className="flex items-center gap-3">
          <button
            type="button"
            onClick={() => setPaused((value) => !value)}
            className="rounded border border-brand-700 px-3 py-1 text-sm font-semibold text-brand-700"
            disabled={reducedMotion}
          >
            {paused ? "Play" : "Pause"} <span className="sr-only">feedback carousel</span>
          </button>
          {/* Announced when the visitor moves the slides, silent while they move by themselves. */}
          <p className="text-sm text-slate-700 tabular-nums" aria-live={playing ? "off" : "polite"} aria-atomic="true">
            <span aria-hidden="true">
              {selected + 1} / {slides.length}
            </span>
            <span className="sr-only">
              Slide {selected + 1} of {slides.length}
            </span>
          </p>
        </div>
      </div>
    </section>
  );
}
