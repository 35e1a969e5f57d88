// The frame of every signed-in admin page: its own header (no marketing menu or footer), the one admin
// navigation, and Logout. Signing in happens on /admin/login, which keeps the site's layout.
import { useState } from "react";
import { Link, NavLink, Outlet, useNavigate } from "react-router";
import { adminTokenOrLogin } from "../../lib/admin-client.ts";
import { logOut } from "../../lib/admin-session.ts";

export function clientLoader() {
  return { token: adminTokenOrLogin() };
}

// The token only needs reading when the admin area is entered; searches and page changes inside it do not.
export function shouldRevalidate() {
  return false;
}

const LINKS = [
  { to: "/admin/dashboard", label: "Dashboard" },
  { to: "/admin/questions", label: "Manage Questions" },
  { to: "/admin/tests", label: "Tests" },
  { to: "/admin/drives", label: "Drives" },
  { to: "/admin/students", label: "View Students" },
  { to: "/admin/results", label: "View Results" },
  { to: "/admin/submit-feedback", label: "Submit Feedback" },
  { to: "/admin/enquiries", label: "Enquiries" },
  { to: "/admin/account", label: "Account" },
] as const;

export default function AdminLayout() {
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
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
        {/* One row that scrolls sideways on a phone instead of filling the first screen. */}
        <nav aria-label="Admin" className="mx-auto max-w-6xl overflow-x-auto px-4 pb-2">
          <ul className="flex gap-1 whitespace-nowrap">
            {LINKS.map((link) => (
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
        <Outlet />
      </main>
    </div>
  );
}
