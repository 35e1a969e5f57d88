/** The header row of an admin table: one column heading per name, for screen readers as well as the eye. */
export function ColumnHeadings({
  names,
  compact = false,
  className = "",
}: {
  names: readonly string[];
  compact?: boolean;
  className?: string;
}) {
  return (
    <thead className={className}>
      <tr className="border-b border-slate-300">
        {names.map((name) => (
          <th key={name} scope="col" className={compact ? "px-2 py-2" : "px-3 py-2"}>
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
