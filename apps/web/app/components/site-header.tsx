import { Link, NavLink } from "react-router";
import { brand } from "../content/brand.ts";

export const mainNavigation = [
  { to: "/", label: "Home" },
  { to: "/aboutus", label: "About Us" },
  { to: "/services", label: "Services" },
  { to: "/contactform", label: "Contact Us" },
] as const;

export const otherServices = [
  { to: "/software-development", label: "Software Development" },
  { to: "/application-development", label: "Application Development" },
  { to: "/website-development", label: "Website Development" },
] as const;

export const trailingNavigation = [
  { to: "/careers", label: "Careers" },
  { to: "/admin/login", label: "Admin" },
  { to: "/student/register", label: "LMS Portal" },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded px-2 py-1 hover:bg-brand-50 ${isActive ? "font-semibold text-brand-700" : "text-slate-700"}`;

export function SiteHeader() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-3">
        <Link to="/" className="text-xl font-bold text-brand-700">
          {brand.name}
        </Link>
        <nav aria-label="Main">
          <ul className="flex flex-wrap items-center gap-1 text-sm">
            {mainNavigation.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className={linkClass} end>
                  {item.label}
                </NavLink>
              </li>
            ))}
            <li>
              <details className="relative">
                <summary className="cursor-pointer rounded px-2 py-1 text-slate-700 hover:bg-brand-50">
                  Other Services
                </summary>
                <ul className="absolute right-0 z-20 mt-1 w-56 rounded border border-slate-200 bg-white p-1 shadow">
                  {otherServices.map((item) => (
                    <li key={item.to}>
                      <NavLink to={item.to} className={linkClass}>
                        {item.label}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </details>
            </li>
            {trailingNavigation.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className={linkClass}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
