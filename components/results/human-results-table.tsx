import { HeaderRow } from "./header-row";
import type { GroupSummary } from "@/lib/results/summarize";
import { RESULT_COLUMNS } from "@/lib/results/task-columns";
import { formatInterval, formatPercent } from "./format";
import { taskDisplayName } from "@/lib/tasks/display-name";

const TH = "px-2 py-1 text-left font-medium";
const TD = "px-2 py-1 tabular-nums";

/**
 * The per-task human table (spec §4–§5): n, exact with Wilson and bootstrap intervals, partial, spread, chance, averages;
 * then the fair score (equivalent atom names count as one; F1 beside precision), after the paper's.
 */
export function HumanResultsTable({ group, caption }: { group: GroupSummary; caption: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full border-collapse text-sm">
        <caption className="py-1 text-left text-slate-700">{caption}</caption>
        <thead>
          <HeaderRow
            labels={[
              "Task",
              "Items",
              "People",
              "Answers",
              "Exact %",
              "Wilson 95%",
              "Bootstrap 95%",
              "Partial %",
              "Bootstrap 95%",
              "Per person exact: min / median / max",
              "Chance %",
              "Fair exact %",
              "Fair Wilson 95%",
              "Fair bootstrap 95%",
              "Fair partial (precision) %",
              "Fair partial bootstrap 95%",
              "Fair F1 %",
            ]}
          />
        </thead>
        <tbody>
          {group.columns.map((c) => (
            <tr key={c.column} className="border-b border-slate-200">
              <th scope="row" className={`${TH} whitespace-nowrap`}>
                {c.label} <span className="text-xs font-normal text-slate-600">{taskDisplayName(RESULT_COLUMNS[c.column].taskId)}</span>
              </th>
              <td className={TD}>{c.nItems}</td>
              <td className={TD}>{c.nParticipants}</td>
              <td className={TD}>{c.nResponses}</td>
              <td className={`${TD} font-semibold`}>{formatPercent(c.exact.mean)}</td>
              <td className={TD}>{formatInterval(c.exact.wilson.low, c.exact.wilson.high)}</td>
              <td className={TD}>{formatInterval(c.exact.bootstrap.low, c.exact.bootstrap.high)}</td>
              <td className={`${TD} font-semibold`}>{formatPercent(c.partial.mean)}</td>
              <td className={TD}>{formatInterval(c.partial.bootstrap.low, c.partial.bootstrap.high)}</td>
              <td className={TD}>
                {formatPercent(c.exact.participantSpread.min, 0)} / {formatPercent(c.exact.participantSpread.median, 0)} / {formatPercent(c.exact.participantSpread.max, 0)}
              </td>
              <td className={TD} title={c.chance.basis}>
                {c.chance.exact === null ? "–" : formatPercent(c.chance.exact)}
              </td>
              <td className={`${TD} font-semibold`}>{formatPercent(c.fair.exact.mean)}</td>
              <td className={TD}>{formatInterval(c.fair.exact.wilson.low, c.fair.exact.wilson.high)}</td>
              <td className={TD}>{formatInterval(c.fair.exact.bootstrap.low, c.fair.exact.bootstrap.high)}</td>
              <td className={TD}>{formatPercent(c.fair.partial.mean)}</td>
              <td className={TD}>{formatInterval(c.fair.partial.bootstrap.low, c.fair.partial.bootstrap.high)}</td>
              <td className={TD}>{c.fair.f1 ? formatPercent(c.fair.f1.mean) : "–"}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          {(
            [
              ["Avg (paper: without TransRot, RotRot)", group.paperAverage, group.fairPaperAverage],
              ["Avg (all 10 columns)", group.allTaskAverage, group.fairAllTaskAverage],
            ] as const
          ).map(([label, avg, fair]) => (
            <tr key={label} className="border-t border-slate-400">
              <th scope="row" className={TH} colSpan={4}>
                {label}
              </th>
              <td className={`${TD} font-semibold`}>{formatPercent(avg.exact)}</td>
              <td className={TD} colSpan={2} />
              <td className={`${TD} font-semibold`}>{formatPercent(avg.partial)}</td>
              <td className="px-2 py-1 text-xs text-slate-600" colSpan={3}>
                {avg.missing.length > 0 ? `needs every column; missing: ${avg.missing.map((k) => RESULT_COLUMNS[k].label).join(", ")}` : ""}
              </td>
              <td className={`${TD} font-semibold`}>{formatPercent(fair.exact)}</td>
              <td className={TD} colSpan={2} />
              <td className={TD}>{formatPercent(fair.partial)}</td>
              <td className={TD} colSpan={2} />
            </tr>
          ))}
        </tfoot>
      </table>
    </div>
  );
}

/** One dimension (condition or cohort): exact and partial per task side by side for each group. */
export function GroupBreakdownTable({ groups, dimension }: { groups: Record<string, GroupSummary>; dimension: string }) {
  const names = Object.keys(groups);
  const columns = [...new Set(names.flatMap((n) => groups[n]!.columns.map((c) => c.column)))];
  const order = Object.keys(RESULT_COLUMNS);
  columns.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full border-collapse text-sm">
        <caption className="py-1 text-left text-slate-700">
          By {dimension}: exact % [participant bootstrap 95%] · partial % · fair exact % · answers (people)
        </caption>
        <thead>
          <tr className="border-b border-slate-400 bg-slate-100">
            <th scope="col" className={TH}>
              Task
            </th>
            {names.map((n) => (
              <th key={n} scope="col" className={TH}>
                {n} <span className="font-normal text-slate-600">({groups[n]!.nParticipants} people)</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {columns.map((col) => (
            <tr key={col} className="border-b border-slate-200">
              <th scope="row" className={TH}>
                {RESULT_COLUMNS[col].label}
              </th>
              {names.map((n) => {
                const c = groups[n]!.columns.find((x) => x.column === col);
                return (
                  <td key={n} className={TD}>
                    {c ? (
                      <>
                        <span className="font-semibold">{formatPercent(c.exact.mean)}</span> {formatInterval(c.exact.bootstrap.low, c.exact.bootstrap.high)} ·{" "}
                        {formatPercent(c.partial.mean)} · fair {formatPercent(c.fair.exact.mean)} · {c.nResponses} ({c.nParticipants})
                      </>
                    ) : (
                      "–"
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
          <tr className="border-t border-slate-400">
            <th scope="row" className={TH}>
              Avg (paper)
            </th>
            {names.map((n) => (
              <td key={n} className={TD}>
                {formatPercent(groups[n]!.paperAverage.exact)} · {formatPercent(groups[n]!.paperAverage.partial)} · fair {formatPercent(groups[n]!.fairPaperAverage.exact)}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}
