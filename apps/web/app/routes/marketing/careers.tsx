import { Link } from "react-router";
import { PageIntro } from "../../components/site/page-intro.tsx";
import { Drawing, IconTile } from "../../components/site/site-images.tsx";
import { careerCards } from "../../content/careers.ts";
import { pageMeta } from "../../content/page-meta.ts";
import { pages } from "../../content/pages/careers.ts";
import type { Route } from "./+types/careers";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(pages, location.pathname);

export default function Careers() {
  return (
    <>
      <PageIntro pages={pages} art={<Drawing name="careers" />} />
      <ul className="mx-auto grid max-w-6xl gap-5 px-4 py-10 sm:grid-cols-2 md:grid-cols-4">
        {careerCards.map((card) => (
          <li
            key={card.id}
            id={card.id}
            className="group flex flex-col rounded-lg border border-slate-200 p-5 shadow-sm"
          >
            <IconTile name={card.icon} />
            <h2 className="text-xl font-semibold text-brand-900">{card.title}</h2>
            <p className="mt-1 flex-1 text-slate-700">{card.description}</p>
            {/* With a mouse it appears on hover and on keyboard focus; a touch screen shows it from the start. */}
            <Link
              to={card.link}
              className="mt-4 self-start rounded bg-brand-700 px-4 py-2 font-semibold text-white transition-opacity can-hover:opacity-0 group-hover:opacity-100 focus:opacity-100"
            >
              Learn More <span className="sr-only">about {card.title}</span>
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
