// A table row's actions behind one "Actions" button, so a row with many actions stays one line high and the
// column stays narrow enough for the table to fit (decision 027).
import { useId } from "react";

/**
 * The browser's own popover: it opens and closes from the button without script, closes on Escape and on a click
 * elsewhere, follows the button in the tab order, and sits in the top layer, so the table's scroll box never clips
 * it; CSS anchor positioning puts it under the button (`.row-actions` in app.css).
 */
export function RowActions({ name, children }: { name: string; children: React.ReactNode }) {
  const id = useId();
  return (
    <>
      <button
        type="button"
        id={`${id}-button`}
        popoverTarget={id}
        className="rounded border border-brand-700 px-3 py-1 text-sm whitespace-nowrap text-brand-700 hover:bg-brand-50"
      >
        Actions <span className="sr-only">for {name}</span>
      </button>
      <fieldset
        id={id}
        popover="auto"
        data-row-actions
        aria-label={`Actions for ${name}`}
        className="row-actions min-w-0 rounded border border-slate-300 bg-white p-3 shadow-lg"
      >
        <div className="flex flex-col items-stretch gap-2">{children}</div>
      </fieldset>
    </>
  );
}

/** Closes the actions around `element` (after one was chosen) and gives the keyboard back to their button. */
export function closeRowActions(element: Element) {
  const menu = element.closest<HTMLElement>("[data-row-actions]");
  if (!menu) return;
  if (menu.matches(":popover-open")) menu.hidePopover();
  rowActionsButton(menu)?.focus();
}

/** The button that opens the row's actions `menu`. */
export function rowActionsButton(menu: Element): HTMLElement | null {
  return document.getElementById(`${menu.id}-button`);
}
