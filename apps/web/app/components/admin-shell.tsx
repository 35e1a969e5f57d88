import { NavLink, useNavigate } from "react-router";
import { logOut } from "../lib/admin-session.ts";

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

/** The frame of every admin page: its title, the admin navigation and Logout. */
export function AdminShell({ title, token, children }: { title: string; token: string; children: React.ReactNode }) {
  const navigate = useNavigate();
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-brand-900">{title}</h1>
        <button
          type="button"
          onClick={async () => {
            await logOut(token);
            navigate("/admin/login");
          }}
          className="rounded border border-brand-700 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50"
        >
          Logout
        </button>
      </div>
      <nav aria-label="Admin" className="mt-4">
        <ul className="flex flex-wrap gap-2">
          {LINKS.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                className={({ isActive }) =>
                  `inline-block rounded px-3 py-2 text-sm font-semibold ${isActive ? "bg-brand-700 text-white" : "bg-brand-50 text-brand-900 hover:bg-brand-100"}`
                }
              >
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-8">{children}</div>
    </div>
  );
}
