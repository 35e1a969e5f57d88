// The admin tables' building blocks. Search, filters, sort and page live in the address bar, so a view can be
// bookmarked, shared and reloaded; the route's loader reads them and asks the server for that one page.
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { Link, useLocation, useNavigate, useNavigation } from "react-router";
import { formatCount } from "../../lib/format.ts";

/** Milliseconds of quiet typing before a search goes to the address bar (and so to the server). */
export const SEARCH_DELAY_MS = 300;

/**
 * The table's query in the address bar, and a way to change part of it (any change but paging starts at page
 * 1). While a change is loading, the address it goes to counts: a second change made meanwhile builds on it.
 */
export function useTableParams() {
  const location = useLocation();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const pending = navigation.location?.pathname === location.pathname ? navigation.location : undefined;
  const search = pending?.search ?? location.search;
  const params = useMemo(() => new URLSearchParams(search), [search]);
  // The address to build on, also for a change made by a timer (a debounced search) after other changes.
  const latest = useRef(search);
  latest.current = search;
  function update(
    changes: Record<string, string | undefined>,
    options: { replace?: boolean; keepPage?: boolean } = {},
  ) {
    const next = new URLSearchParams(latest.current);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!("page" in changes) && !options.keepPage) next.delete("page");
    const text = next.toString();
    latest.current = text ? `?${text}` : "";
    // flushSync: the pending address is drawn at once, so a change made right after this one (a filter picked
    // while a search is on its way) builds on it instead of on the address before it.
    navigate({ search: latest.current }, { replace: options.replace, preventScrollReset: true, flushSync: true });
  }
  return { params, update };
}

/** Whether this page's data is being fetched again (new search, filter, sort, page, or after a change). */
export function useTableBusy(): boolean {
  const navigation = useNavigation();
  const location = useLocation();
  return navigation.state === "loading" && navigation.location?.pathname === location.pathname;
}

/** A search box that waits for a pause in typing before it changes the address bar. */
export function SearchBox({ label, name = "search" }: { label: string; name?: string }) {
  const { params, update } = useTableParams();
  const current = params.get(name) ?? "";
  const [value, setValue] = useState(current);
  const pushed = useRef(current);
  const id = useId();
  // Back/forward or a link changed the address: show what it says. Our own pushes are not echoed back, so an
  // answer to an older search never overwrites what is being typed.
  useEffect(() => {
    if (current !== pushed.current) {
      pushed.current = current;
      setValue(current);
    }
  }, [current]);
  useEffect(() => {
    if (value.trim() === pushed.current) return;
    const timer = setTimeout(() => {
      pushed.current = value.trim();
      update({ [name]: value.trim() || undefined }, { replace: true });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  });
  return (
    <div className="min-w-0 flex-1 basis-56">
      <label htmlFor={id} className="block font-medium">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        className="mt-1 block w-full rounded border border-slate-400 px-3 py-2"
      />
    </div>
  );
}

/** A filter chosen from a list; the first choice ("All …") removes the filter. */
export function FilterSelect({
  label,
  name,
  allLabel,
  choices,
}: {
  label: string;
  name: string;
  allLabel: string;
  choices: readonly (readonly [value: string, label: string])[];
}) {
  const { params, update } = useTableParams();
  const id = useId();
  return (
    <div className="min-w-0 basis-40">
      <label htmlFor={id} className="block font-medium">
        {label}
      </label>
      <select
        id={id}
        value={params.get(name) ?? ""}
        onChange={(event) => update({ [name]: event.target.value || undefined })}
        className="mt-1 block w-full max-w-full rounded border border-slate-400 px-3 py-2"
      >
        <option value="">{allLabel}</option>
        {choices.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A filter typed as text (a college, a batch), applied after a pause like the search. */
export function TextFilter({ label, name }: { label: string; name: string }) {
  return <SearchBox label={label} name={name} />;
}

/** Sort order choices as one select: "Newest first", "Name A–Z", … */
export function SortSelect({
  choices,
  defaultValue = "date:desc",
}: {
  choices: readonly (readonly [value: string, label: string])[];
  defaultValue?: string;
}) {
  const { params, update } = useTableParams();
  const id = useId();
  const value = `${params.get("sort") ?? "date"}:${params.get("order") ?? "desc"}`;
  return (
    <div className="min-w-0 basis-40">
      <label htmlFor={id} className="block font-medium">
        Sort by
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          const [sort, order] = event.target.value.split(":");
          const isDefault = event.target.value === defaultValue;
          update({ sort: isDefault ? undefined : sort, order: isDefault ? undefined : order });
        }}
        className="mt-1 block w-full max-w-full rounded border border-slate-400 px-3 py-2"
      >
        {choices.map(([choice, text]) => (
          <option key={choice} value={choice}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

export function TableToolbar({ children }: { children: React.ReactNode }) {
  return <div className="flex flex-wrap items-end gap-3">{children}</div>;
}

export interface Column<Row> {
  header: string;
  cell: (row: Row) => React.ReactNode;
  /** Classes for the column's cells (e.g. `whitespace-nowrap`). */
  className?: string;
}

/**
 * The box a wide table scrolls in: on a phone the table scrolls within the box and nothing (not even text for
 * screen readers, which is positioned against the box) sticks out of it, so the page never scrolls sideways.
 * Reachable by keyboard, so the table can be scrolled without a pointer.
 */
export function TableScrollBox({
  label,
  className = "",
  children,
}: {
  label: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
    <section aria-label={label} tabIndex={0} className={`relative max-w-full overflow-x-auto ${className}`}>
      {children}
    </section>
  );
}

/**
 * On a phone (below the 600 px breakpoint) a table's rows stack: each row is a block and each cell a line
 * "Header: value", so every column, Score and Actions included, is in view without scrolling sideways
 * (decision 027). The header row stays for screen readers, which keep reading cells by their column.
 */
export const STACKED_TABLE = "max-sm:block";
export const STACKED_HEAD = "max-sm:sr-only";
export const STACKED_BODY = "max-sm:block";
export const STACKED_ROW = "max-sm:block max-sm:py-2";
export const STACKED_CELL =
  "max-sm:grid max-sm:grid-cols-[7rem_minmax(0,1fr)] max-sm:gap-x-3 max-sm:py-1 max-sm:before:font-semibold max-sm:before:content-[attr(data-label)]";

/** A table of rows in its scroll box, one column definition per column. */
export function DataTable<Row extends { _id: string }>({
  caption,
  columns,
  rows,
  busy,
  empty,
  after,
}: {
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  busy: boolean;
  empty: string;
  /** An extra full-width row under a row (an expanded detail). */
  after?: (row: Row) => React.ReactNode;
}) {
  if (rows.length === 0) return <p className="mt-4">{empty}</p>;
  return (
    <TableScrollBox label={caption} className="mt-4 rounded border border-slate-200">
      {/* Busy shows as a tint that keeps the text's contrast (a faded table fails WCAG's contrast while it waits). */}
      <table
        aria-busy={busy}
        className={`w-full border-collapse text-left text-sm ${STACKED_TABLE} ${busy ? "cursor-progress bg-slate-50" : ""}`}
      >
        <caption className="sr-only">{caption}</caption>
        <thead className={STACKED_HEAD}>
          <tr className="border-b border-slate-300 bg-slate-50">
            {columns.map((column) => (
              <th key={column.header} scope="col" className="px-3 py-2 align-bottom">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={STACKED_BODY}>
          {rows.map((row) => (
            <TableRows key={row._id} row={row} columns={columns} after={after} />
          ))}
        </tbody>
      </table>
    </TableScrollBox>
  );
}

function TableRows<Row extends { _id: string }>({
  row,
  columns,
  after,
}: {
  row: Row;
  columns: Column<Row>[];
  after?: (row: Row) => React.ReactNode;
}) {
  const extra = after?.(row);
  return (
    <>
      <tr className={`border-b border-slate-200 align-top ${STACKED_ROW}`}>
        {columns.map((column) => (
          <td
            key={column.header}
            data-label={column.header}
            className={`px-3 py-2 ${STACKED_CELL} ${column.className ?? ""}`}
          >
            {/* One box for the value: on a phone the cell is a grid of label and value, where a value of several
                lines or elements would otherwise spill its second line under the label. */}
            <div className="min-w-0">{column.cell(row)}</div>
          </td>
        ))}
      </tr>
      {extra && (
        <tr className={STACKED_ROW}>
          <td colSpan={columns.length} className="bg-slate-50 px-3 py-3 max-sm:block">
            {extra}
          </td>
        </tr>
      )}
    </>
  );
}

/** Previous / next as links (so a page is a URL), and where we are, announced when it changes. */
export function PageLinks({
  of: { page, pageSize, total },
  label,
  noun,
}: {
  /** The page shown, as the table's call answered it. */
  of: { page: number; pageSize: number; total: number };
  label: string;
  /** What the table counts, one and many: "(1 result)", "(2 results)". */
  noun: [one: string, many: string];
}) {
  const { params } = useTableParams();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const hrefOf = (target: number) => {
    const next = new URLSearchParams(params);
    if (target <= 1) next.delete("page");
    else next.set("page", String(target));
    const text = next.toString();
    return text ? `?${text}` : "?";
  };
  const linkClass = "rounded border border-slate-400 px-3 py-1";
  return (
    <nav aria-label={`${label} pages`} className="mt-4 flex flex-wrap items-center gap-3">
      {page > 1 && (
        <Link to={hrefOf(page - 1)} preventScrollReset className={linkClass}>
          Previous
        </Link>
      )}
      <p role="status">
        Page {formatCount(Math.min(page, pages))} of {formatCount(pages)} ({formatCount(total)}{" "}
        {total === 1 ? noun[0] : noun[1]})
      </p>
      {page < pages && (
        <Link to={hrefOf(page + 1)} preventScrollReset className={linkClass}>
          Next
        </Link>
      )}
    </nav>
  );
}

/** A table's "Export CSV" button, unavailable while its download is being prepared (see `useTableExport`). */
export function ExportButton({ exporter }: { exporter: { start: () => void; busy: boolean } }) {
  return (
    <button
      type="button"
      disabled={exporter.busy}
      onClick={exporter.start}
      className="rounded border border-brand-700 px-4 py-2 font-semibold text-brand-700 disabled:opacity-60"
    >
      Export CSV
    </button>
  );
}

/** "Updating…" while a new page of the table is on its way. */
export function BusyNote({ busy }: { busy: boolean }) {
  return (
    <p role="status" className="mt-2 min-h-6 text-sm text-slate-700">
      {busy ? "Updating…" : ""}
    </p>
  );
}
