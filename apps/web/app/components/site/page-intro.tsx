import { useLocation } from "react-router";
import { copyOf, type PageCopy } from "../../content/page-meta.ts";

/**
 * The page's one h1 and its opening paragraph, from its route group's copy; with `art`, a picture beside them
 * (below them on a phone).
 */
export function PageIntro({
  pages,
  art,
  children,
}: {
  pages: Record<string, PageCopy>;
  art?: React.ReactNode;
  children?: React.ReactNode;
}) {
  const copy = copyOf(pages, useLocation().pathname);
  return (
    <section className="overflow-hidden bg-brand-50">
      <div className={`mx-auto max-w-6xl px-4 py-12 ${art ? "grid items-center gap-8 md:grid-cols-2" : ""}`}>
        <div>
          <h1 className="text-3xl font-bold text-brand-900 sm:text-4xl">{copy.heading}</h1>
          {copy.intro && <p className="mt-4 max-w-3xl text-lg text-slate-700">{copy.intro}</p>}
          {children}
        </div>
        {art}
      </div>
    </section>
  );
}
