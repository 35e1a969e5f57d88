import { useLocation } from "react-router";
import { PageIntro } from "../../components/site/page-intro.tsx";
import { Drawing } from "../../components/site/site-images.tsx";
import { applyByEmail, hiringSteps, roles } from "../../content/careers.ts";
import { pageMeta } from "../../content/page-meta.ts";
import { pages } from "../../content/pages/careers.ts";
import type { Route } from "./+types/career-role";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(pages, location.pathname);

export default function CareerRole() {
  const { pathname } = useLocation();
  const role = roles[pathname.replace(/\/+$/, "") as keyof typeof roles];
  const apply = applyByEmail(role.title);
  return (
    <>
      <PageIntro pages={pages} art={<Drawing name="careers" />} />
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 md:grid-cols-2">
        <p className="text-lg text-slate-700 md:col-span-2">{role.description}</p>
        <section aria-labelledby="responsibilities">
          <h2 id="responsibilities" className="text-xl font-bold text-brand-900">
            Responsibilities
          </h2>
          <ul className="mt-3 list-disc space-y-1 pl-6">
            {role.responsibilities.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="qualifications">
          <h2 id="qualifications" className="text-xl font-bold text-brand-900">
            Qualifications
          </h2>
          <ul className="mt-3 list-disc space-y-1 pl-6">
            {role.qualifications.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
        <p className="md:col-span-2">
          <a
            href={apply.href}
            className="inline-block rounded bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-900"
          >
            {apply.label}
          </a>
        </p>
        <section aria-labelledby="hiring-steps" className="rounded-lg bg-brand-50 p-6 md:col-span-2">
          <h2 id="hiring-steps" className="text-xl font-bold text-brand-900">
            What happens after you apply
          </h2>
          <ol className="mt-3 list-decimal space-y-1 pl-6">
            {hiringSteps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </section>
      </div>
    </>
  );
}
