// The site's navigation, in the header's bar and in the drawer below 600px: the links and how each is drawn.
import { NavLink } from "react-router";

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

/** One list item with a link per entry; "/" matches only itself, not every page. */
export function NavItems({ items }: { items: readonly { to: string; label: string }[] }) {
  return items.map((item) => (
    <li key={item.to}>
      <NavLink to={item.to} className={linkClass} end={item.to === "/"}>
        {item.label}
      </NavLink>
    </li>
  ));
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded px-2 py-2 hover:bg-brand-50 ${isActive ? "font-semibold text-brand-700" : "text-slate-800"}`;
