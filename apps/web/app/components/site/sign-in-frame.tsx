// The frame of the admin area's doors (signing in, accepting an invitation): the brand, a way back to the public
// site and the copyright line, without the marketing menu, footer and chat link. An admin signing in has no use
// for them, and a visitor who came for the courses should not mistake this for one of their pages. The pages wrap
// themselves in it: a layout route would add an entry to the route manifest every public page loads.
import { brand } from "@trainwise/contract/brand";
import { Link } from "react-router";
import { MARKUP_END } from "../../lib/first-paint.ts";
import { SkipLink } from "../ui/skip-link.tsx";
import { SiteLogo } from "./site-header.tsx";

export function SignInFrame({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <SkipLink />
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
          <SiteLogo />
          <Link to="/" className="rounded px-2.5 py-2 text-slate-800 underline hover:bg-brand-50">
            Back to the website
          </Link>
        </div>
      </header>
      <main id="main" className="flex-1 px-4 py-10">
        <div className="mx-auto max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          {children}
        </div>
      </main>
      <footer className="py-6 text-center text-sm text-slate-700">
        © <span suppressHydrationWarning>{new Date().getFullYear()}</span> {brand.legalName} All rights reserved.
      </footer>
      {/* The first paint waits until the browser has read this far (see lib/first-paint.ts). */}
      <span id={MARKUP_END} hidden />
    </div>
  );
}
