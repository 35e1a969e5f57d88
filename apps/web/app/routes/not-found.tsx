// Any path the site does not know: a page inside the site's layout (top bar, footer) that says so and offers a
// way on. The server answers such paths with status 404 and the SPA shell, which renders this.
import { brand } from "@trainwise/contract/brand";
import { Link } from "react-router";
import type { Route } from "./+types/not-found";

const TITLE = `Page not found | ${brand.name}`;

export const meta: Route.MetaFunction = () => [{ title: TITLE }, { name: "robots", content: "noindex" }];

const SUGGESTIONS = [
  { to: "/services", label: "Our training services" },
  { to: "/careers", label: "Careers" },
  { to: "/contactform", label: "Contact Us" },
] as const;

export default function NotFound() {
  return (
    <section className="bg-brand-50">
      <div className="mx-auto max-w-6xl px-4 py-16">
        <p className="text-sm font-semibold text-brand-700">Error 404</p>
        <h1 className="mt-2 text-3xl font-bold text-brand-900 sm:text-4xl">Page not found</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-700">
          The page you asked for does not exist. It may have moved, or the address may have a typo.
        </p>
        <Link
          to="/"
          className="mt-8 inline-block rounded bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-900"
        >
          Back to the home page
        </Link>
        <h2 className="mt-10 font-semibold text-brand-900">Or go on to</h2>
        <ul className="mt-2 space-y-1">
          {SUGGESTIONS.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="text-brand-700 underline">
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
