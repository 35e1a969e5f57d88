import { PageIntro } from "../../components/site/page-intro.tsx";
import { Drawing } from "../../components/site/site-images.tsx";
import { aboutItems } from "../../content/about.ts";
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
      <ul className="mx-auto grid max-w-6xl gap-6 px-4 py-10 sm:grid-cols-2 md:grid-cols-4">
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
    </>
  );
}
