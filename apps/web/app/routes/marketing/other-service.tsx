import { useLocation } from "react-router";
import { CardGrid, NextStep } from "../../components/site/card-grid.tsx";
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
      <NextStep heading="Have a project in mind?" to="/contactform" label="Tell us about your project">
        Tell us what it should do and by when: an engineer replies within one working day with questions, a rough plan
        and a fixed-price estimate for the first release.
      </NextStep>
    </>
  );
}
