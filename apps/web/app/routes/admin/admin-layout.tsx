// The frame of every signed-in admin page: its own header (no marketing menu or footer), the one admin
// navigation (only what the admin's role may use), and Logout. Signing in happens on /admin/login, in the frame of
// sign-in-layout.tsx. A page the role may not use shows "Not allowed" in the frame; the API refuses it anyway.
import { type AdminArea, type AdminRole, mayUse, ROLE_LABELS } from "@trainwise/contract/admin-roles";
import { useEffect, useRef, useState } from "react";
import {
  isRouteErrorResponse,
  Link,
  NavLink,
  Outlet,
  useLocation,
  useNavigate,
  useRouteLoaderData,
} from "react-router";
import { SkipLink } from "../../components/ui/skip-link.tsx";
import { currentAdmin } from "../../lib/admin-client.ts";
import { logOut } from "../../lib/admin-session.ts";
import { ApiError } from "../../lib/api.ts";
import type { Route } from "./+types/admin-layout";

export async function clientLoader() {
  return { session: await currentAdmin() };
}

// The session only needs reading when the admin area is entered; searches and page changes inside it do not.
export function shouldRevalidate() {
  return false;
}

const LINKS: { to: string; label: string; area: AdminArea }[] = [
  { to: "/admin/dashboard", label: "Dashboard", area: "results" },
  { to: "/admin/questions", label: "Manage Questions", area: "manage" },
  { to: "/admin/tests", label: "Tests", area: "manage" },
  { to: "/admin/drives", label: "Drives", area: "manage" },
  { to: "/admin/students", label: "View Students", area: "manage" },
  { to: "/admin/results", label: "View Results", area: "results" },
  { to: "/admin/submit-feedback", label: "Submit Feedback", area: "manage" },
  { to: "/admin/enquiries", label: "Enquiries", area: "manage" },
  { to: "/admin/admins", label: "Admins", area: "owners" },
  { to: "/admin/audit", label: "Audit Log", area: "owners" },
  { to: "/admin/account", label: "Account", area: "results" },
];

/**
 * Pages under another area's link that every admin may use: a drive's live board (decision 017), and the reports a
 * viewer reads read-only, a drive's page, its ranks and shortlists, and the item analysis of a drive or a test
 * (decision 027).
 */
const OPEN_TO_EVERY_ADMIN = [
  /^\/admin\/drives\/[^/]+\/?$/,
  /^\/admin\/drives\/[^/]+\/(live|analysis|ranking)\/?$/,
  /^\/admin\/tests\/[^/]+\/analysis\/?$/,
];

/** The area of an admin address: its link's, or its parent's (/admin/drives/:id is the drives'). */
function areaOf(pathname: string): AdminArea {
  if (OPEN_TO_EVERY_ADMIN.some((pattern) => pattern.test(pathname))) return "results";
  const link = LINKS.find(({ to }) => pathname === to || pathname.startsWith(`${to}/`));
  return link?.area ?? "owners";
}

function NotAllowed({ role, message }: { role: AdminRole | undefined; message?: string }) {
  return (
    <section aria-labelledby="not-allowed">
      <title>Not allowed | Trainwise</title>
      <h1 id="not-allowed" className="text-2xl font-bold text-brand-900 sm:text-3xl">
        Not allowed
      </h1>
      <p className="mt-4">
        {message ??
          `Your role${role ? ` (${ROLE_LABELS[role]})` : ""} does not allow this page. Ask an owner if you need it.`}
      </p>
      <Link to="/admin/dashboard" className="mt-4 inline-block text-brand-700 underline">
        Back to the dashboard
      </Link>
    </section>
  );
}

function AdminFrame({ role, children }: { role: AdminRole | undefined; children: React.ReactNode }) {
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  const links = LINKS.filter((link) => (role ? mayUse(role, link.area) : link.area === "results"));
  const nav = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // On a phone the row scrolls sideways: the current page's link is brought into it (a newcomer's walk found
  // "Drives" cut off at the right edge) after each navigation, moving the row only, never the page.
  useEffect(() => {
    const row = nav.current;
    const current = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!row || !current) return;
    const [shown, link] = [row.getBoundingClientRect(), current.getBoundingClientRect()];
    if (link.left < shown.left || link.right > shown.right) row.scrollLeft += link.left - shown.left - 16;
  }, [pathname]);
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3">
          <Link to="/admin/dashboard" className="font-bold text-brand-700">
            Admin area
          </Link>
          <button
            type="button"
            disabled={leaving}
            onClick={async () => {
              setLeaving(true);
              const token = localStorage.getItem("adminToken");
              if (token) await logOut(token);
              navigate("/admin/login");
            }}
            className="rounded border border-brand-700 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60"
          >
            Logout
          </button>
        </div>
        {/* One row that scrolls sideways on a phone instead of filling the first screen; on a wide screen every
            link shows, on a second line when an owner's eleven do not fit one. */}
        <nav ref={nav} aria-label="Admin" className="mx-auto max-w-6xl overflow-x-auto px-4 pb-2">
          <ul className="flex gap-1 whitespace-nowrap lg:flex-wrap">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  className={({ isActive }) =>
                    `inline-block rounded px-3 py-2 text-sm font-semibold ${isActive ? "bg-brand-700 text-white" : "text-brand-900 hover:bg-brand-50"}`
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl min-w-0 flex-1 px-4 py-6">
        {children}
      </main>
    </div>
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { role } = loaderData.session;
  const { pathname } = useLocation();
  return (
    <AdminFrame role={role}>{mayUse(role, areaOf(pathname)) ? <Outlet /> : <NotAllowed role={role} />}</AdminFrame>
  );
}

/** A screen's failure inside the frame: "Not allowed" for a 403 from the API, else a plain apology. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const role = useRouteLoaderData<typeof clientLoader>("routes/admin/admin-layout")?.session.role;
  const forbidden =
    (error instanceof ApiError && error.status === 403) || (isRouteErrorResponse(error) && error.status === 403);
  return (
    <AdminFrame role={role}>
      {forbidden ? (
        <NotAllowed role={role} />
      ) : (
        <section>
          <title>Something went wrong | Trainwise</title>
          <h1 className="text-2xl font-bold text-brand-900 sm:text-3xl">Something went wrong</h1>
          <p className="mt-4">Please reload the page or try again later.</p>
        </section>
      )}
    </AdminFrame>
  );
}
