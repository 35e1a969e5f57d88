import { brand } from "@trainwise/contract/brand";
import { PageIntro } from "../../components/site/page-intro.tsx";
import { Drawing } from "../../components/site/site-images.tsx";
import { applyByEmail } from "../../content/careers.ts";
import { pageMeta } from "../../content/page-meta.ts";
import { pages } from "../../content/pages/careers.ts";
import type { Route } from "./+types/internship";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(pages, location.pathname);

const TRACKS = [
  { title: "Training delivery", description: "Assist trainers, prepare exercises and run practice sessions." },
  { title: "Operations", description: "Help plan batches, assessment days and campus drives." },
  { title: "Sales", description: "Research institutions and companies and join client meetings." },
];

export default function Internship() {
  const apply = applyByEmail("Internship");
  return (
    <>
      <PageIntro pages={pages} art={<Drawing name="careers" />} />
      <div className="mx-auto max-w-6xl px-4 py-10">
        <h2 className="text-xl font-bold text-brand-900">Tracks</h2>
        <ul className="mt-4 grid gap-5 md:grid-cols-3">
          {TRACKS.map((track) => (
            <li key={track.title} className="rounded-lg border border-slate-200 p-5">
              <h3 className="font-semibold">{track.title}</h3>
              <p className="mt-1 text-slate-700">{track.description}</p>
            </li>
          ))}
        </ul>
        <p className="mt-8">
          Send your resume to <strong>{brand.email}</strong> with the track you prefer.
        </p>
        <p className="mt-4">
          <a
            href={apply.href}
            className="inline-block rounded bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-900"
          >
            {apply.label}
          </a>
        </p>
      </div>
    </>
  );
}
