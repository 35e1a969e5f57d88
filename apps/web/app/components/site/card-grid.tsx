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
