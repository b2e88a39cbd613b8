import { shortcutAuditRowLabel } from "@/components/shortcuts/shortcut-audit-table";
import type { ColumnSummary } from "@/lib/results/summarize";
import type { TaskShortcutAudit } from "@/lib/shortcuts/audit";
import { DataTable } from "@/components/ui/data-table";

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/**
 * Each task's human accuracy (exact, the paper's Table 2) beside chance and the best knowledge-free shortcut over the
 * pool's items (lib/shortcuts), so a reader knows what a number means. Self-contained: reads the summary's columns as
 * they are and adds nothing to the other results tables.
 */
export function ShortcutContextTable({
  columns,
  audits,
}: {
  columns: readonly ColumnSummary[];
  audits: readonly TaskShortcutAudit[];
}) {
  const auditOf = (c: ColumnSummary) =>
    audits.find((a) => a.taskId === c.taskId && (a.group ?? undefined) === c.t4Polarity);
  if (columns.length === 0) return <p className="mt-2 text-sm">No main-phase answers yet.</p>;
  return (
    <DataTable variant="plain" className="mt-2" data-testid="shortcut-context">
      <thead className="bg-slate-100 text-left">
        <tr>
          <th scope="col" className="px-3 py-1">
            Task
          </th>
          <th scope="col" className="px-3 py-1">
            Human exact
          </th>
          <th scope="col" className="px-3 py-1">
            Chance
          </th>
          <th scope="col" className="px-3 py-1">
            Best shortcut on the pool&apos;s items
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-200">
        {columns.map((c) => {
          const a = auditOf(c);
          return (
            <tr key={c.column}>
              <th scope="row" className="px-3 py-1 text-left font-normal">
                {a ? shortcutAuditRowLabel(a) : c.label}
              </th>
              <td className="px-3 py-1 tabular-nums">{pct(c.exact.mean)}</td>
              <td className="px-3 py-1 tabular-nums">{c.chance.exact === null ? "—" : pct(c.chance.exact)}</td>
              <td className="px-3 py-1 tabular-nums">
                {a?.best
                  ? `${pct(a.best.exact)} (95% CI ${pct(a.best.low)}–${pct(a.best.high)}): ${a.best.label}, ${a.items} items`
                  : "—"}
              </td>
            </tr>
          );
        })}
      </tbody>
    </DataTable>
  );
}
