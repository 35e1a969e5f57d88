import { PageIntro } from "../../components/page-intro.tsx";
import { pageMeta } from "../../content/page-meta.ts";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location.pathname);

export default function Page() {
  return <PageIntro />;
}
