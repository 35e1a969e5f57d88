import { Outlet } from "react-router";
import { MARKUP_END } from "../../lib/first-paint.ts";
import { SkipLink } from "../ui/skip-link.tsx";
import { SiteFooter } from "./site-footer.tsx";
import { SiteHeader } from "./site-header.tsx";

export default function SiteLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <SiteHeader />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
      {/* The first paint waits until the browser has read this far (see lib/first-paint.ts). */}
      <span id={MARKUP_END} hidden />
    </div>
  );
}
