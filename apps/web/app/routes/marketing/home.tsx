import { brand } from "@trainwise/contract/brand";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { PageIntro } from "../../components/site/page-intro.tsx";
import { BannerPicture, IconTile } from "../../components/site/site-images.tsx";
import { ValueList } from "../../components/site/value-list.tsx";
import {
  advancementProgram,
  clients,
  internship,
  programTaglines,
  trainingServices,
  transformation,
  values,
} from "../../content/home.ts";
import { heroPicture } from "../../content/imagery.ts";
import { pageMeta } from "../../content/page-meta.ts";
import { pages } from "../../content/pages/home.ts";
import { programmes } from "../../content/programmes.ts";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = ({ location }) => [
  ...pageMeta(pages, location.pathname),
  {
    "script:ld+json": {
      "@context": "https://schema.org",
      "@type": "Organization",
      name: brand.legalName,
      email: brand.email,
      telephone: brand.phones[0],
      address: {
        "@type": "PostalAddress",
        streetAddress: brand.address.street,
        addressLocality: brand.address.city,
        addressRegion: brand.address.region,
        postalCode: brand.address.postalCode,
        addressCountry: brand.address.country,
      },
      sameAs: Object.values(brand.social).map((link) => link.href),
    },
  },
];

// The carousel's code (and its data) loads when the visitor scrolls towards it: it sits at the bottom of the page,
// and building it while the page becomes interactive kept a phone's main thread busy for nothing.
const FeedbackCarousel = lazy(() => import("../../components/site/feedback-carousel.tsx"));

/** How far ahead of the viewport the carousel starts loading, so it is ready by the time it scrolls into view. */
const CAROUSEL_LOAD_AHEAD = "800px 0px";

/** True once the element has come within CAROUSEL_LOAD_AHEAD of the viewport (at once where nothing can observe it). */
function useNearViewport(): [React.RefObject<HTMLDivElement | null>, boolean] {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === "undefined") return setNear(true);
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        setNear(true);
        observer.disconnect();
      },
      { rootMargin: CAROUSEL_LOAD_AHEAD },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, near];
}

function Section({ title, children, tinted }: { title: string; children: React.ReactNode; tinted?: boolean }) {
  const id = `section-${title.toLowerCase().replaceAll(/[^a-z]+/g, "-")}`;
  return (
    <section aria-labelledby={id} className={tinted ? "bg-brand-50" : ""}>
      <div className="mx-auto max-w-6xl px-4 py-10">
        <h2 id={id} className="text-2xl font-bold text-brand-900">
          {title}
        </h2>
        <div className="mt-5">{children}</div>
      </div>
    </section>
  );
}

export default function Home() {
  const [carouselSlot, carouselNear] = useNearViewport();
  return (
    <>
      <PageIntro pages={pages} art={<BannerPicture picture={heroPicture} />}>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link
            to="/student/register"
            className="rounded bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-900"
          >
            Take the assessment
          </Link>
          <Link
            to="/contactform"
            className="rounded border border-brand-700 px-5 py-3 font-semibold text-brand-700 hover:bg-white"
          >
            Talk to us
          </Link>
        </div>
      </PageIntro>

      <Section title="Why choose us">
        <p className="mb-4 text-slate-700">
          Five values shape every programme. Point at, tap or focus one to read what it means to us.
        </p>
        <ValueList values={values} />
      </Section>

      <Section title="Circle of Transformation" tinted>
        <p className="mb-4 text-slate-700">
          Seven kinds of career support, from the first conversation to the first offer.
        </p>
        <ol className="grid gap-4 sm:grid-cols-2 md:grid-cols-4">
          {transformation.map((step, index) => (
            <li key={step.title} className="rounded-lg bg-white p-4 shadow-sm">
              <span className="text-sm font-bold text-brand-700">{index + 1}</span>
              <h3 className="font-semibold">{step.title}</h3>
              <p className="mt-1 text-sm text-slate-700">{step.description}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section title={advancementProgram.title}>
        <p className="max-w-3xl text-slate-700">{advancementProgram.description}</p>
        <ul className="mt-4 grid list-disc gap-1 pl-6 sm:grid-cols-2">
          {advancementProgram.points.map((point) => (
            <li key={point}>{point}</li>
          ))}
        </ul>
      </Section>

      <Section title="Training services" tinted>
        <ul className="grid gap-4 sm:grid-cols-2 md:grid-cols-3">
          {trainingServices.map((service) => (
            <li key={service.title} className="rounded-lg bg-white p-4 shadow-sm">
              <IconTile name={service.icon} />
              <h3 className="font-semibold">{service.title}</h3>
              <p className="mt-1 text-sm text-slate-700">{service.description}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Training programs">
        <ul className="grid gap-4 sm:grid-cols-2 md:grid-cols-4">
          {programmes.map((tile, index) => (
            <li key={tile.to}>
              <Link
                to={tile.to}
                className="block h-full rounded-lg border border-slate-200 p-5 shadow-sm hover:border-brand-600 hover:bg-brand-50"
              >
                <h3 className="text-lg font-semibold text-brand-900">{tile.label}</h3>
                <p className="mt-1 text-slate-700">{programTaglines[index]}</p>
              </Link>
            </li>
          ))}
        </ul>
      </Section>

      <Section title={internship.title} tinted>
        <p className="max-w-3xl text-slate-700">{internship.description}</p>
        <p className="mt-3">
          To apply, send your resume to{" "}
          <a
            className="font-semibold text-brand-700 underline"
            href={`mailto:${brand.email}?subject=Internship%20application`}
          >
            {brand.email}
          </a>
          .
        </p>
      </Section>

      <Section title="Our clients">
        <ul className="grid gap-3 sm:grid-cols-2 md:grid-cols-3">
          {clients.map((client) => (
            <li
              key={client.name}
              className="flex items-center gap-3 rounded-lg border border-slate-200 px-4 py-3 font-medium"
              data-testid="client"
            >
              <img
                src={`/img/clients/${client.mark}.svg`}
                alt=""
                width={40}
                height={40}
                loading="lazy"
                decoding="async"
                className="shrink-0"
              />
              <span className="min-w-0">{client.name}</span>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="What our students say" tinted>
        {/* About a slide's height held before it loads, so a visitor jumping to the bottom does not see it push
            the footer down. */}
        <div ref={carouselSlot} className="min-h-64">
          {carouselNear ? (
            <Suspense fallback={<p role="status">Loading feedback…</p>}>
              <FeedbackCarousel />
            </Suspense>
          ) : (
            <p role="status">Loading feedback…</p>
          )}
        </div>
      </Section>
    </>
  );
}
