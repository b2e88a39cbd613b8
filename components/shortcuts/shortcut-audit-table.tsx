import type { TaskShortcutAudit } from "@/lib/shortcuts/audit";
import { getTask } from "@/lib/tasks/registry";
import { DataTable } from "@/components/ui/data-table";

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export function shortcutAuditRowLabel(audit: Pick<TaskShortcutAudit, "taskId" | "group">): string {
  const task = getTask(audit.taskId);
  const group =
    audit.group === "pos" ? " Pos." : audit.group === "neg" ? " Neg." : audit.group ? ` ${audit.group}` : "";
  return `${task.code} ${task.label}${group}`;
}

/** Per task: chance, the best knowledge-free strategy and every strategy measured (lib/shortcuts). Aggregates only. */
export function ShortcutAuditTable({
  audits,
  testId = "shortcut-audit",
}: {
  audits: readonly TaskShortcutAudit[];
  testId?: string;
}) {
  if (audits.length === 0) return <p className="mt-2 text-sm text-slate-600">No items to audit.</p>;
  return (
    <DataTable variant="plain" className="mt-2" data-testid={testId}>
      <thead className="bg-slate-100 text-left">
        <tr>
          <th scope="col" className="px-3 py-1">
            Task
          </th>
          <th scope="col" className="px-3 py-1">
            Items
          </th>
          <th scope="col" className="px-3 py-1">
            Chance
          </th>
          <th scope="col" className="px-3 py-1">
            Best shortcut
          </th>
          <th scope="col" className="px-3 py-1">
            Exact (95% CI)
          </th>
          <th scope="col" className="px-3 py-1">
            All strategies
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-200 align-top">
        {audits.map((a) => {
          const excess = a.best && a.chance !== null ? a.best.exact - a.chance : null;
          return (
            <tr key={`${a.taskId}:${a.group ?? ""}`}>
              <th scope="row" className="px-3 py-1 text-left font-normal">
                {shortcutAuditRowLabel(a)}
              </th>
              <td className="px-3 py-1 tabular-nums">{a.items}</td>
              <td className="px-3 py-1 tabular-nums" title={a.chanceBasis}>
                {a.chance === null ? "—" : pct(a.chance)}
              </td>
              <td className="px-3 py-1">{a.best ? a.best.label : "—"}</td>
              <td
                className={`px-3 py-1 tabular-nums ${excess !== null && excess > 0.05 ? "font-semibold text-red-700" : ""}`}
              >
                {a.best ? `${pct(a.best.exact)} (${pct(a.best.low)}–${pct(a.best.high)})` : "—"}
              </td>
              <td className="px-3 py-1">
                <details>
                  <summary className="cursor-pointer">{a.strategies.length} measured</summary>
                  <ul className="mt-1 space-y-0.5">
                    {a.strategies.map((s) => (
                      <li key={s.id} className="tabular-nums">
                        {s.label}: {pct(s.exact)} ({pct(s.low)}–{pct(s.high)}), partial {pct(s.partial)}, n = {s.n}
                      </li>
                    ))}
                  </ul>
                </details>
              </td>
            </tr>
          );
        })}
      </tbody>
    </DataTable>
  );
}
