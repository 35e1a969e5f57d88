import { useLocation } from "react-router";
import { CardGrid } from "../../components/site/card-grid.tsx";
import { EnquiryForm } from "../../components/site/enquiry-form.tsx";
import { PageIntro } from "../../components/site/page-intro.tsx";
import { Drawing } from "../../components/site/site-images.tsx";
import { cardGrids } from "../../content/card-grids.ts";
import { pageMeta } from "../../content/page-meta.ts";
import { pages } from "../../content/pages/programs.ts";
import { programmes } from "../../content/programmes.ts";
import type { Route } from "./+types/training-program";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(pages, location.pathname);

export default function Page() {
  const { pathname } = useLocation();
  const path = pathname.replace(/\/+$/, "");
  const programme = programmes.find((entry) => entry.to === path);
  return (
    <>
      <PageIntro pages={pages} art={<Drawing name="programmes" />}>
        {programme && (
          <a
            href="#enquire"
            className="mt-6 inline-block rounded bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-900"
          >
            Enquire about {programme.label}
          </a>
        )}
      </PageIntro>
      <CardGrid cards={cardGrids[path] ?? []} />
      {programme && (
        // The page's next step: an enquiry filed under this programme, which admins see under Enquiries.
        <section id="enquire" aria-labelledby="enquire-heading" className="scroll-mt-4 bg-brand-50">
          <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 md:grid-cols-2">
            <div>
              <h2 id="enquire-heading" className="text-2xl font-bold text-brand-900">
                Enquire about {programme.label}
              </h2>
              <p className="mt-3 text-slate-700">
                Tell us about your group (how many learners, when, and what they should be able to do afterwards) and a
                programme lead will call you within one working day with a plan and a quote.
              </p>
            </div>
            <EnquiryForm programme={programme.label} submitLabel="Send enquiry" />
          </div>
        </section>
      )}
    </>
  );
}
