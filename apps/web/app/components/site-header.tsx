import { useEffect, useId, useRef, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { brand } from "../content/brand.ts";
import { ChevronDownIcon, CloseIcon, MenuIcon } from "./icons.tsx";

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
  `block rounded px-3 py-2 hover:bg-brand-50 ${isActive ? "font-semibold text-brand-700" : "text-slate-800"}`;

/** A disclosure (button + list of links): the pattern for site navigation, closed by Escape or a click outside. */
function OtherServicesMenu() {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const wrapper = useRef<HTMLLIElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();

  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  return (
    <li
      ref={wrapper}
      className="relative"
      onKeyDown={(event) => {
        if (event.key === "Escape" && open) {
          setOpen(false);
          button.current?.focus();
        }
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
        className="flex items-center gap-1 rounded px-3 py-2 text-slate-800 hover:bg-brand-50"
      >
        Other Services <ChevronDownIcon className={`h-4 w-4 transition-transform ${open ? "rotate-180" : ""}`} />
      </button>
      <ul
        id={listId}
        hidden={!open}
        className="absolute right-0 z-30 mt-1 w-64 rounded border border-slate-200 bg-white p-1 shadow-lg"
      >
        {otherServices.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} className={linkClass}>
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </li>
  );
}

/**
 * Below 600px the bar becomes a side drawer: a native modal <dialog>, which traps focus, makes the page behind
 * it inert, and closes on Escape, with an expandable Other Services group.
 */
function MobileDrawer() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [servicesOpen, setServicesOpen] = useState(false);
  const groupId = useId();
  const { pathname } = useLocation();

  useEffect(() => {
    dialog.current?.close();
    setServicesOpen(false);
  }, [pathname]);

  return (
    <div className="sm:hidden">
      <button
        type="button"
        onClick={() => dialog.current?.showModal()}
        className="rounded p-2 text-brand-900 hover:bg-brand-50"
        aria-label="Open menu"
        aria-haspopup="dialog"
      >
        <MenuIcon className="h-7 w-7" />
      </button>
      <dialog
        ref={dialog}
        aria-label="Menu"
        className="m-0 ml-auto h-full max-h-none w-4/5 max-w-xs bg-white p-4 backdrop:bg-slate-900/50"
        onClick={(event) => {
          // A click on the backdrop (the dialog element itself, outside its content) closes the drawer.
          if (event.target === dialog.current) dialog.current.close();
        }}
      >
        <div className="flex items-center justify-between">
          <span className="text-lg font-bold text-brand-700">{brand.name}</span>
          <button type="button" onClick={() => dialog.current?.close()} className="rounded p-2" aria-label="Close menu">
            <CloseIcon className="h-6 w-6" />
          </button>
        </div>
        <nav aria-label="Main" className="mt-4">
          <ul className="space-y-1">
            {mainNavigation.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className={linkClass} end>
                  {item.label}
                </NavLink>
              </li>
            ))}
            <li>
              <button
                type="button"
                aria-expanded={servicesOpen}
                aria-controls={groupId}
                onClick={() => setServicesOpen((value) => !value)}
                className="flex w-full items-center justify-between rounded px-3 py-2 text-left text-slate-800 hover:bg-brand-50"
              >
                Other Services
                <ChevronDownIcon className={`h-4 w-4 transition-transform ${servicesOpen ? "rotate-180" : ""}`} />
              </button>
              <ul id={groupId} hidden={!servicesOpen} className="ml-4 space-y-1">
                {otherServices.map((item) => (
                  <li key={item.to}>
                    <NavLink to={item.to} className={linkClass}>
                      {item.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
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
      </dialog>
    </div>
  );
}

export function SiteHeader() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-3">
        <Link to="/" className="text-xl font-bold text-brand-700">
          {brand.name}
        </Link>
        <nav aria-label="Main" className="hidden sm:block">
          <ul className="flex flex-wrap items-center justify-end gap-x-1 text-sm md:text-base">
            {mainNavigation.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className={linkClass} end>
                  {item.label}
                </NavLink>
              </li>
            ))}
            <OtherServicesMenu />
            {trailingNavigation.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className={linkClass}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <MobileDrawer />
      </div>
    </header>
  );
}
