import { useLocation } from "react-router";
import { CardGrid } from "../../components/site/card-grid.tsx";
import { PageIntro } from "../../components/site/page-intro.tsx";
import { cardGrids } from "../../content/card-grids.ts";
import { pageMeta } from "../../content/page-meta.ts";
import { pages } from "../../content/pages/other-services.ts";
import type { Route } from "./+types/other-service";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(pages, location.pathname);

export default function Page() {
  const { pathname } = useLocation();
  return (
    <>
      <PageIntro pages={pages} />
      <CardGrid cards={cardGrids[pathname.replace(/\/+$/, "")] ?? []} />
    </>
  );
}
