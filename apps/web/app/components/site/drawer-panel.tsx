// The side drawer below 600px: a native modal <dialog> (the page behind it is inert, Escape closes it) with a
// focus trap so Tab cycles inside it, and expandable Programs and Other Services groups.

import { brand } from "@trainwise/contract/brand";
import { createFocusTrap } from "focus-trap";
import { useEffect, useId, useRef, useState } from "react";
import { programmes } from "../../content/programmes.ts";
import { ChevronDownIcon, CloseIcon, LogoMark } from "./icons.tsx";
import { mainNavigation, NavItems, otherServices, trailingNavigation } from "./site-navigation.tsx";

/** An expandable group of links inside the drawer. */
function DrawerGroup({ label, items }: { label: string; items: readonly { to: string; label: string }[] }) {
  const [open, setOpen] = useState(false);
  const groupId = useId();
  return (
    <li>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={groupId}
        onClick={() => setOpen((value) => !value)}
        className="flex w-full items-center justify-between rounded px-3 py-2 text-left text-slate-800 hover:bg-brand-50"
      >
        {label}
        <ChevronDownIcon className={`h-4 w-4 transition-transform ${open ? "rotate-180" : ""}`} />
      </button>
      <ul id={groupId} hidden={!open} className="ml-4 space-y-1">
        <NavItems items={items} />
      </ul>
    </li>
  );
}

export default function DrawerPanel({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    element.showModal();
    const trap = createFocusTrap(element, {
      escapeDeactivates: false,
      allowOutsideClick: true,
      returnFocusOnDeactivate: false,
    });
    trap.activate();
    return () => {
      trap.deactivate();
      if (element.open) element.close();
    };
  }, []);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard closes the dialog with Escape, natively.
    <dialog
      ref={dialog}
      aria-label="Menu"
      onClose={onClose}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its content) closes the drawer.
        if (event.target === dialog.current) dialog.current.close();
      }}
      className="m-0 ml-auto h-full max-h-none w-4/5 max-w-xs bg-white p-4 backdrop:bg-slate-900/50"
    >
      <div className="flex items-center justify-between">
        <span className="flex items-center gap-2 text-lg font-bold text-brand-900">
          <LogoMark className="h-8 w-8" />
          {brand.name}
        </span>
        <button type="button" onClick={() => dialog.current?.close()} className="rounded p-2" aria-label="Close menu">
          <CloseIcon className="h-6 w-6" />
        </button>
      </div>
      <nav aria-label="Main" className="mt-4">
        <ul className="space-y-1">
          <NavItems items={mainNavigation} />
          <DrawerGroup label="Programs" items={programmes} />
          <DrawerGroup label="Other Services" items={otherServices} />
          <NavItems items={trailingNavigation} />
        </ul>
      </nav>
    </dialog>
  );
}
