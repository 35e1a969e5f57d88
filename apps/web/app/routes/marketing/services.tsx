import { useLocation } from "react-router";
import { CardGrid } from "../../components/site/card-grid.tsx";
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
    </>
  );
}
