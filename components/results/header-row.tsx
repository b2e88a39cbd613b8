/** The header row of a results table: one column header per label. */
export function HeaderRow({ labels }: { labels: readonly string[] }) {
  return (
    <tr className="border-b border-slate-400 bg-slate-100">
      {labels.map((label, i) => (
        <th key={i} scope="col" className="px-2 py-1 text-left font-medium">
          {label}
        </th>
      ))}
    </tr>
  );
}
