import { useLocation } from "react-router";
import { copyOf, type PageCopy } from "../content/page-meta.ts";

/** The page's one h1 and its opening paragraph, from its route group's copy. */
export function PageIntro({ pages, children }: { pages: Record<string, PageCopy>; children?: React.ReactNode }) {
  const copy = copyOf(pages, useLocation().pathname);
  return (
    <section className="bg-brand-50">
      <div className="mx-auto max-w-6xl px-4 py-12">
        <h1 className="text-3xl font-bold text-brand-900 sm:text-4xl">{copy.heading}</h1>
        {copy.intro && <p className="mt-4 max-w-3xl text-lg text-slate-700">{copy.intro}</p>}
        {children}
      </div>
    </section>
  );
}
