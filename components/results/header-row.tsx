/** The header row of a results table: one column header per label; the first one sticky when the row headers are. */
export function HeaderRow({ labels, stickyFirst = false }: { labels: readonly string[]; stickyFirst?: boolean }) {
  return (
    <tr className="border-b border-slate-400 bg-slate-100">
      {labels.map((label, i) => (
        <th
          key={i}
          scope="col"
          className={`px-2 py-1 text-left font-medium${stickyFirst && i === 0 ? " sticky left-0 z-10 bg-slate-100" : ""}`}
        >
          {label}
        </th>
      ))}
    </tr>
  );
}
