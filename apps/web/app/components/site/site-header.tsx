import { brand } from "@trainwise/contract/brand";
import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { programmes } from "../../content/programmes.ts";
import { ChatIcon, ChevronDownIcon, LogoMark, MenuIcon } from "./icons.tsx";
import { mainNavigation, NavItems, otherServices, trailingNavigation } from "./site-navigation.tsx";

/** A disclosure (button + list of links): the pattern for site navigation, closed by Escape or a click outside. */
function DisclosureMenu({ label, items }: { label: string; items: readonly { to: string; label: string }[] }) {
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
        className="flex items-center gap-1 rounded px-2 py-2 text-slate-800 hover:bg-brand-50"
      >
        {label} <ChevronDownIcon className={`h-4 w-4 transition-transform ${open ? "rotate-180" : ""}`} />
      </button>
      <ul
        id={listId}
        hidden={!open}
        className="absolute right-0 z-30 mt-1 w-64 rounded border border-slate-200 bg-white p-1 shadow-lg"
      >
        <NavItems items={items} />
      </ul>
    </li>
  );
}

// The drawer's code (and its focus trap) loads on the first tap of the menu button, not with every page.
const DrawerPanel = lazy(() => import("./drawer-panel.tsx"));

/** Below 900px the bar becomes a button that opens the side drawer: its links need more than one line there. */
function MobileDrawer() {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);

  return (
    <>
      <button
        ref={opener}
        type="button"
        onClick={() => setOpen(true)}
        className="rounded p-2 text-brand-900 hover:bg-brand-50"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
      >
        <MenuIcon className="h-7 w-7" />
      </button>
      {open && (
        <Suspense fallback={null}>
          <DrawerPanel
            onClose={() => {
              setOpen(false);
              opener.current?.focus();
            }}
          />
        </Suspense>
      )}
    </>
  );
}

/** The brand's mark and name, linking home: the first thing in every public page's bar. */
export function SiteLogo() {
  return (
    <Link
      to="/"
      aria-label={`${brand.name} home page`}
      className="flex shrink-0 items-center gap-2 text-xl font-bold text-brand-900"
    >
      <LogoMark className="h-9 w-9" />
      {/* Between 900 and 1280px the bar's links need the room: the mark stands alone (the link keeps its name). */}
      <span className="md:max-xl:hidden">{brand.name}</span>
    </Link>
  );
}

export function SiteHeader() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-3">
        <SiteLogo />
        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex flex-wrap items-center justify-end gap-x-0.5 text-sm lg:text-base">
            <NavItems items={mainNavigation} />
            <DisclosureMenu label="Programs" items={programmes} />
            <DisclosureMenu label="Other Services" items={otherServices} />
            <NavItems items={trailingNavigation} />
          </ul>
        </nav>
        <div className="flex items-center gap-2 md:hidden">
          {/* Where the bar is a menu button, the chat link sits beside it rather than floating over the page. */}
          <a
            href={brand.chat.href}
            aria-label={brand.chat.label}
            rel="noopener noreferrer"
            target="_blank"
            className="flex items-center gap-1.5 rounded-full bg-green-700 px-3 py-2 text-sm font-semibold text-white"
          >
            <ChatIcon className="h-5 w-5" />
            Chat
          </a>
          <MobileDrawer />
        </div>
      </div>
    </header>
  );
}
