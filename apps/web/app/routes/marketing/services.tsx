import { useLocation } from "react-router";
import { CardGrid, NextStep } from "../../components/site/card-grid.tsx";
import { PageIntro } from "../../components/site/page-intro.tsx";
import { Drawing } from "../../components/site/site-images.tsx";
import { cardGrids } from "../../content/card-grids.ts";
import { pageMeta } from "../../content/page-meta.ts";
import { pages } from "../../content/pages/services.ts";
import type { Route } from "./+types/services";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(pages, location.pathname);

export default function Page() {
  const path = useLocation().pathname.replace(/\/+$/, "");
  return (
    <>
      <PageIntro pages={pages} art={<Drawing name="services" />} />
      <CardGrid cards={cardGrids[path] ?? []} />
      <NextStep heading="Training for your college or company?" to="/contactform" label="Talk to us about training">
        Tell us who the learners are and what they should be able to do afterwards: we reply within one working day with
        a programme outline and a quote. Or see our four training programmes from the Programs menu.
      </NextStep>
    </>
  );
}
