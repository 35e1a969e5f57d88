/** Previous / next paging with the position announced to screen readers. */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
  label,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  label: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav aria-label={`${label} pages`} className="mt-4 flex items-center gap-3">
      <button
        type="button"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        className="rounded border border-slate-400 px-3 py-1 disabled:opacity-50"
      >
        Previous
      </button>
      <p role="status">
        Page {page} of {pages} ({total} {label.toLowerCase()})
      </p>
      <button
        type="button"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
        className="rounded border border-slate-400 px-3 py-1 disabled:opacity-50"
      >
        Next
      </button>
    </nav>
  );
}
