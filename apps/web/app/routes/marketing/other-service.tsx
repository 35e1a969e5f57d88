import { Link, useLocation } from "react-router";
import { CardGrid } from "../../components/site/card-grid.tsx";
import { PageIntro } from "../../components/site/page-intro.tsx";
import { Drawing } from "../../components/site/site-images.tsx";
import { cardGrids } from "../../content/card-grids.ts";
import { pageMeta } from "../../content/page-meta.ts";
import { pages } from "../../content/pages/other-services.ts";
import type { Route } from "./+types/other-service";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(pages, location.pathname);

export default function Page() {
  const { pathname } = useLocation();
  return (
    <>
      <PageIntro pages={pages} art={<Drawing name="development" />} />
      <CardGrid cards={cardGrids[pathname.replace(/\/+$/, "")] ?? []} />
      <section aria-labelledby="next-step" className="mx-auto max-w-6xl px-4 pb-10">
        <div className="rounded-lg bg-brand-50 p-6">
          <h2 id="next-step" className="text-xl font-bold text-brand-900">
            Have a project in mind?
          </h2>
          <p className="mt-2 max-w-3xl text-slate-700">
            Tell us what it should do and by when: an engineer replies within one working day with questions, a rough
            plan and a fixed-price estimate for the first release.
          </p>
          <Link
            to="/contactform"
            className="mt-4 inline-block rounded bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-900"
          >
            Tell us about your project
          </Link>
        </div>
      </section>
    </>
  );
}
