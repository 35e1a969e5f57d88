import { brand } from "@trainwise/contract/brand";
import { Link } from "react-router";
import { PageIntro } from "../../components/site/page-intro.tsx";
import { Drawing } from "../../components/site/site-images.tsx";
import { aboutFacts, aboutItems, story, team } from "../../content/about.ts";
import { pageMeta } from "../../content/page-meta.ts";
import { pages } from "../../content/pages/about.ts";
import type { Route } from "./+types/about-us";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(pages, location.pathname);

export default function AboutUs() {
  return (
    <>
      <PageIntro pages={pages} art={<Drawing name="about" />} />
      {/* Circles that enlarge and turn on hover or focus; with a mouse their text shows on hover or focus, on a
          touch screen (no hover) it shows from the start. A stacked list below 600px. */}
      <p className="mx-auto hidden max-w-6xl px-4 pt-10 text-slate-700 sm:can-hover:block">
        Point at or focus a circle to read more.
      </p>
      <ul
        aria-label="Who we are, what we do, our mission and our vision"
        className="mx-auto grid max-w-6xl gap-6 px-4 py-10 sm:grid-cols-2 md:grid-cols-4"
      >
        {aboutItems.map((item) => (
          <li
            key={item.title}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users reveal the text by focusing the circle.
            tabIndex={0}
            className="group rounded-lg bg-brand-50 p-5 outline-offset-4 focus:outline-3 focus:outline-brand-700 sm:flex sm:aspect-square sm:items-center sm:justify-center sm:rounded-full sm:p-6 sm:text-center sm:transition-transform sm:duration-500 sm:hover:z-10 sm:hover:scale-110 sm:hover:rotate-6 sm:focus:z-10 sm:focus:scale-110 sm:focus:rotate-6 motion-reduce:transition-none"
          >
            <div>
              <h2 className="text-xl font-bold text-brand-900">{item.title}</h2>
              <p className="mt-2 text-slate-700 sm:text-sm sm:transition-all sm:duration-500 sm:can-hover:max-h-0 sm:can-hover:overflow-hidden sm:can-hover:opacity-0 sm:group-hover:max-h-48 sm:group-hover:opacity-100 sm:group-focus:max-h-48 sm:group-focus:opacity-100">
                {item.content}
              </p>
            </div>
          </li>
        ))}
      </ul>

      <section aria-labelledby="about-numbers" className="bg-brand-900 text-white">
        <div className="mx-auto max-w-6xl px-4 py-10">
          <h2 id="about-numbers" className="text-2xl font-bold">
            {brand.name} in numbers
          </h2>
          <dl className="mt-6 grid gap-6 sm:grid-cols-3 md:grid-cols-5">
            {aboutFacts.map((fact) => (
              <div key={fact.label} className="flex flex-col-reverse">
                <dt className="mt-1 text-sm text-brand-100">{fact.label}</dt>
                <dd className="text-3xl font-bold text-amber-300">{fact.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <section aria-labelledby="about-story" className="mx-auto max-w-6xl px-4 py-10">
        <h2 id="about-story" className="text-2xl font-bold text-brand-900">
          Our story
        </h2>
        <ol className="mt-6 space-y-5 border-l-4 border-brand-100 pl-6">
          {story.map((step) => (
            <li key={step.year}>
              <h3 className="font-bold text-brand-700">{step.year}</h3>
              <p className="mt-1 max-w-3xl text-slate-700">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="about-team" className="bg-brand-50">
        <div className="mx-auto max-w-6xl px-4 py-10">
          <h2 id="about-team" className="text-2xl font-bold text-brand-900">
            Our team
          </h2>
          <ul className="mt-6 grid gap-5 sm:grid-cols-2 md:grid-cols-3">
            {team.map((person) => (
              <li key={person.name} className="flex gap-4 rounded-lg bg-white p-5 shadow-sm">
                <img
                  src={`/img/team/${person.portrait}.svg`}
                  alt={`Portrait of ${person.name}`}
                  width={80}
                  height={80}
                  loading="lazy"
                  decoding="async"
                  className="h-20 w-20 shrink-0 rounded-full"
                />
                <div>
                  <h3 className="font-semibold text-brand-900">{person.name}</h3>
                  <p className="text-sm font-medium text-brand-700">{person.role}</p>
                  <p className="mt-2 text-sm text-slate-700">{person.bio}</p>
                </div>
              </li>
            ))}
          </ul>
          <p className="mt-8 flex flex-wrap gap-3">
            <Link
              to="/contactform"
              className="rounded bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-900"
            >
              Talk to us about training
            </Link>
            <Link
              to="/careers"
              className="rounded border border-brand-700 px-5 py-3 font-semibold text-brand-700 hover:bg-white"
            >
              Join the team
            </Link>
          </p>
        </div>
      </section>
    </>
  );
}
