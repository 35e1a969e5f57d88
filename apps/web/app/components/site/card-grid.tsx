import { Link } from "react-router";
import type { Card } from "../../content/card-grids.ts";
import { IconTile } from "./site-images.tsx";

export function CardGrid({ cards, heading = "What we offer" }: { cards: readonly Card[]; heading?: string }) {
  return (
    <section className="mx-auto max-w-6xl px-4 py-10" aria-labelledby="card-grid-heading">
      <h2 id="card-grid-heading" className="mb-6 text-2xl font-bold text-brand-900">
        {heading}
      </h2>
      <ul className="grid gap-5 sm:grid-cols-2 md:grid-cols-3">
        {cards.map((card) => (
          <li key={card.title} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
            <IconTile name={card.icon} />
            <h3 className="text-lg font-semibold text-brand-900">{card.title}</h3>
            <p className="mt-2 text-slate-700">{card.description}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The block a card-grid page ends with when its next step is a conversation: a heading, a sentence and one link.
 * Here, beside the grid those pages already load, rather than in a file of its own: every new file is one more
 * entry in the route manifest the home page loads.
 */
export function NextStep({
  heading,
  children,
  to,
  label,
}: {
  heading: string;
  children: React.ReactNode;
  to: string;
  label: string;
}) {
  return (
    <section aria-labelledby="next-step" className="mx-auto max-w-6xl px-4 pb-10">
      <div className="rounded-lg bg-brand-50 p-6">
        <h2 id="next-step" className="text-xl font-bold text-brand-900">
          {heading}
        </h2>
        <p className="mt-2 max-w-3xl text-slate-700">{children}</p>
        <Link
          to={to}
          className="mt-4 inline-block rounded bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-900"
        >
          {label}
        </Link>
      </div>
    </section>
  );
}
