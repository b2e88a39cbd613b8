const STYLES: Record<string, string> = {
  open: "bg-green-100 text-green-900",
  draft: "bg-slate-200 text-slate-800",
  closed: "bg-amber-100 text-amber-900",
  active: "bg-green-100 text-green-900",
  flagged: "bg-amber-100 text-amber-900",
  excluded: "bg-red-100 text-red-900",
  frozen: "bg-blue-100 text-blue-900",
  // import batches (app/admin/import uses this badge too)
  succeeded: "bg-green-100 text-green-900",
  failed: "bg-red-100 text-red-900",
  running: "bg-blue-100 text-blue-900",
  dry_run: "bg-slate-200 text-slate-800",
};

/** A small coloured label for a status word; the word itself carries the meaning (not only the colour). */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`rounded px-2 py-0.5 text-xs font-medium ${STYLES[status] ?? "bg-slate-200 text-slate-800"}`}>
      {status}
    </span>
  );
}
