import { useId, useState } from "react";

interface Value {
  name: string;
  description: string;
}

/**
 * A list whose items show their description in a tooltip on hover and on keyboard focus (WCAG 1.4.13: the
 * tooltip stays while hovered, and Escape dismisses it). The description is also the item's accessible
 * description, so screen readers hear it without the tooltip.
 */
export function ValueList({ values }: { values: readonly Value[] }) {
  return (
    <ul className="flex flex-wrap gap-3">
      {values.map((value) => (
        <ValueItem key={value.name} value={value} />
      ))}
    </ul>
  );
}

function ValueItem({ value }: { value: Value }) {
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
      className="group relative cursor-default rounded-full bg-brand-700 px-5 py-2 font-semibold text-white focus:outline-3 focus:outline-offset-2 focus:outline-brand-900"
    >
      {value.name}
      <span
        id={tooltipId}
        role="tooltip"
        className={`pointer-events-none absolute top-full left-1/2 z-10 mt-2 w-64 -translate-x-1/2 rounded bg-slate-900 px-3 py-2 text-sm font-normal text-white opacity-0 shadow-lg transition-opacity group-hover:pointer-events-auto group-hover:opacity-100 group-focus:opacity-100 ${dismissed ? "invisible" : ""}`}
      >
        {value.description}
      </span>
    </li>
  );
}
