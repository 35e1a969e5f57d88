import { useId, useState } from "react";

interface Value {
  name: string;
  description: string;
}

/**
 * A list whose items show their description in a tooltip on hover, on keyboard focus and on a tap (WCAG 1.4.13:
 * the tooltip stays while hovered, and Escape dismisses it). The description is also the item's accessible
 * description, so screen readers hear it without the tooltip.
 *
 * The tooltip stays inside the viewport at every width: where CSS anchor positioning exists it is centred under
 * its item and, near an edge, shifted inwards (the viewport is its containing block); elsewhere it opens under
 * its item from the list's left edge.
 */
export function ValueList({ values }: { values: readonly Value[] }) {
  return (
    <ul className="relative flex flex-wrap gap-3 supports-[position-area:bottom]:static">
      {values.map((value, index) => (
        <ValueItem key={value.name} value={value} anchor={`--value-${index}`} />
      ))}
    </ul>
  );
}

function ValueItem({ value, anchor }: { value: Value; anchor: string }) {
  const tooltipId = useId();
  const [dismissed, setDismissed] = useState(false);
  return (
    <li
      // biome-ignore lint/a11y/noNoninteractiveTabindex: focus is how keyboard users reach the tooltip.
      tabIndex={0}
      aria-describedby={tooltipId}
      onKeyDown={(event) => {
        if (event.key === "Escape") setDismissed(true);
      }}
      onBlur={() => setDismissed(false)}
      onMouseLeave={() => setDismissed(false)}
      style={{ anchorName: anchor }}
      className="group cursor-default rounded-full bg-brand-700 px-5 py-2 font-semibold text-white focus:outline-3 focus:outline-offset-2 focus:outline-brand-900"
    >
      {value.name}
      <span
        id={tooltipId}
        role="tooltip"
        style={{ positionAnchor: anchor }}
        className={`pointer-events-none absolute left-0 z-10 mt-3 block w-64 max-w-full rounded bg-slate-900 px-3 py-2 text-sm font-normal text-white opacity-0 shadow-lg transition-opacity [position-area:bottom] group-hover:pointer-events-auto group-hover:opacity-100 group-focus:opacity-100 supports-[position-area:bottom]:left-auto supports-[position-area:bottom]:mx-4 supports-[position-area:bottom]:mt-2 supports-[position-area:bottom]:max-w-[calc(100vw-2rem)] ${dismissed ? "invisible" : ""}`}
      >
        {value.description}
      </span>
    </li>
  );
}
