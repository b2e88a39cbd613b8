import { HeaderRow } from "./header-row";
import type { ColumnSummary, GroupSummary, MetricSummary } from "@/lib/results/summarize";
import { describeInterval } from "@/lib/results/interval-rule";
import { RESULT_COLUMNS } from "@/lib/results/task-columns";
import { formatInterval, formatPercent } from "./format";
import { taskDisplayName } from "@/lib/tasks/display-name";
import { DataTable, Th } from "@/components/ui/data-table";

const TD = "px-2 py-1 tabular-nums whitespace-nowrap";
/** The row header stays in view when a table scrolls sideways inside its own box (the page itself never does). */
const STICKY = "sticky left-0 z-10 bg-white";
const GROUP = "border-l border-slate-300";

/** The reported interval, marked † when it is the clustered-Wilson fallback (the tooltip says why and with which design effect). */
export function ReportedIntervalCell({ metric }: { metric: MetricSummary }) {
  const iv = metric.interval;
  const fallback = iv.method === "clustered-wilson";
  return (
    <td className={TD} title={describeInterval(iv)} data-interval-method={iv.method}>
      {formatInterval(iv.low, iv.high)}
      {fallback ? <sup aria-label="clustered Wilson">†</sup> : null}
    </td>
  );
}

function TaskHeader({ c }: { c: ColumnSummary }) {
  return (
    <Th variant="ruled" scope="row" className={`${STICKY} whitespace-nowrap`}>
      {c.label}{" "}
      <span className="text-xs font-normal text-slate-600">{taskDisplayName(RESULT_COLUMNS[c.column].taskId)}</span>
    </Th>
  );
}

function GroupHeaderRow({ groups }: { groups: readonly (readonly [string, number])[] }) {
  return (
    <tr className="bg-slate-50 text-xs text-slate-700">
      {groups.map(([label, span], i) => (
        <th
          key={i}
          scope="colgroup"
          colSpan={span}
          className={`px-2 pt-1 text-left font-medium ${i === 0 ? STICKY : GROUP}`}
        >
          {label}
        </th>
      ))}
    </tr>
  );
}

/**
 * The per-task human table (spec §4–§5), in column groups that fit a 1366-px screen: counts, exact, partial, chance;
 * then the fair score (equivalent atom names count as one; F1 beside precision) after the paper's; then, behind a
 * toggle, the intervals for checking (Wilson over answers, the raw bootstrap) and the per-person spread.
 */
export function HumanResultsTable({ group, caption }: { group: GroupSummary; caption: string }) {
  const anyFallback = group.columns.some((c) =>
    [c.exact, c.partial, c.fair.exact, c.fair.partial].some((m) => m.interval.method === "clustered-wilson"),
  );
  return (
    <div className="space-y-3" data-testid="human-results">
      <DataTable variant="ruled" className="max-w-full">
        <caption className="py-1 text-left text-slate-700">{caption}</caption>
        <colgroup>
          <col />
          <col span={3} />
          <col span={2} />
          <col span={2} />
          <col />
        </colgroup>
        <thead>
          <GroupHeaderRow
            groups={[
              ["", 1],
              ["Counts", 3],
              ["Exact (Table 2)", 2],
              ["Partial (Table 1)", 2],
              ["", 1],
            ]}
          />
          <HeaderRow
            labels={[
              "Task",
              "Items",
              "People",
              "Answers",
              "Exact %",
              "95% interval",
              "Partial %",
              "95% interval",
              "Chance %",
            ]}
            stickyFirst
          />
        </thead>
        <tbody>
          {group.columns.map((c) => (
            <tr key={c.column} className="border-b border-slate-200">
              <TaskHeader c={c} />
              <td className={`${TD} ${GROUP}`}>{c.nItems}</td>
              <td className={TD}>{c.nParticipants}</td>
              <td className={TD}>{c.nResponses}</td>
              <td className={`${TD} ${GROUP} font-semibold`}>{formatPercent(c.exact.mean)}</td>
              <ReportedIntervalCell metric={c.exact} />
              <td className={`${TD} ${GROUP} font-semibold`}>{formatPercent(c.partial.mean)}</td>
              <ReportedIntervalCell metric={c.partial} />
              <td className={`${TD} ${GROUP}`} title={c.chance.basis}>
                {c.chance.exact === null ? "–" : formatPercent(c.chance.exact)}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          {(
            [
              ["Avg (paper: without TransRot, RotRot)", group.paperAverage],
              ["Avg (all 10 columns)", group.allTaskAverage],
            ] as const
          ).map(([label, avg]) => (
            <tr key={label} className="border-t border-slate-400">
              <Th variant="ruled" scope="row" className={`${STICKY}`} colSpan={4}>
                {label}
              </Th>
              <td className={`${TD} ${GROUP} font-semibold`}>{formatPercent(avg.exact)}</td>
              <td className={TD} />
              <td className={`${TD} ${GROUP} font-semibold`}>{formatPercent(avg.partial)}</td>
              <td className="px-2 py-1 text-xs text-slate-600" colSpan={2}>
                {avg.missing.length > 0
                  ? `needs every column; missing: ${avg.missing.map((k) => RESULT_COLUMNS[k].label).join(", ")}`
                  : ""}
              </td>
            </tr>
          ))}
        </tfoot>
      </DataTable>
      {anyFallback ? (
        <p className="text-xs text-slate-700" data-testid="interval-fallback-note">
          † Clustered Wilson interval instead of the participant bootstrap (every answer scored the same, fewer than 10
          participants, or a bootstrap narrower than 0.1 point); hover the interval for its design effect and effective
          number of answers.
        </p>
      ) : null}

      <DataTable variant="ruled" className="max-w-full">
        <caption className="py-1 text-left text-slate-700">
          Fair score (after the paper&apos;s): on T4/T9 chemically equivalent atom names count as one
        </caption>
        <thead>
          <HeaderRow
            labels={["Task", "Fair exact %", "95% interval", "Fair partial (precision) %", "95% interval", "Fair F1 %"]}
            stickyFirst
          />
        </thead>
        <tbody>
          {group.columns.map((c) => (
            <tr key={c.column} className="border-b border-slate-200">
              <TaskHeader c={c} />
              <td className={`${TD} font-semibold`}>{formatPercent(c.fair.exact.mean)}</td>
              <ReportedIntervalCell metric={c.fair.exact} />
              <td className={TD}>{formatPercent(c.fair.partial.mean)}</td>
              <ReportedIntervalCell metric={c.fair.partial} />
              <td className={TD}>{c.fair.f1 ? formatPercent(c.fair.f1.mean) : "–"}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          {(
            [
              ["Avg (paper: without TransRot, RotRot)", group.fairPaperAverage],
              ["Avg (all 10 columns)", group.fairAllTaskAverage],
            ] as const
          ).map(([label, avg]) => (
            <tr key={label} className="border-t border-slate-400">
              <Th variant="ruled" scope="row" className={`${STICKY}`}>
                {label}
              </Th>
              <td className={`${TD} font-semibold`}>{formatPercent(avg.exact)}</td>
              <td className={TD} />
              <td className={TD}>{formatPercent(avg.partial)}</td>
              <td className={TD} colSpan={2} />
            </tr>
          ))}
        </tfoot>
      </DataTable>

      <details>
        <summary className="cursor-pointer text-sm font-medium">
          Intervals for checking and the per-person spread
        </summary>
        <DataTable variant="ruled" className="mt-1 max-w-full">
          <caption className="py-1 text-left text-slate-700">
            Wilson over answers treats them as independent; the bootstrap is shown as computed, also where the reported
            interval replaces it
          </caption>
          <thead>
            <HeaderRow
              labels={[
                "Task",
                "Exact: Wilson 95%",
                "Exact: bootstrap 95%",
                "Partial: bootstrap 95%",
                "Per person exact: min / median / max",
                "Fair exact: Wilson 95%",
                "Fair exact: bootstrap 95%",
                "Fair partial: bootstrap 95%",
              ]}
              stickyFirst
            />
          </thead>
          <tbody>
            {group.columns.map((c) => (
              <tr key={c.column} className="border-b border-slate-200">
                <TaskHeader c={c} />
                <td className={TD}>{formatInterval(c.exact.wilson.low, c.exact.wilson.high)}</td>
                <td className={TD}>{formatInterval(c.exact.bootstrap.low, c.exact.bootstrap.high)}</td>
                <td className={TD}>{formatInterval(c.partial.bootstrap.low, c.partial.bootstrap.high)}</td>
                <td className={TD}>
                  {formatPercent(c.exact.participantSpread.min, 0)} /{" "}
                  {formatPercent(c.exact.participantSpread.median, 0)} /{" "}
                  {formatPercent(c.exact.participantSpread.max, 0)}
                </td>
                <td className={TD}>{formatInterval(c.fair.exact.wilson.low, c.fair.exact.wilson.high)}</td>
                <td className={TD}>{formatInterval(c.fair.exact.bootstrap.low, c.fair.exact.bootstrap.high)}</td>
                <td className={TD}>{formatInterval(c.fair.partial.bootstrap.low, c.fair.partial.bootstrap.high)}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      </details>
    </div>
  );
}

/** One dimension (condition or cohort): exact and partial per task side by side for each group. */
export function GroupBreakdownTable({
  groups,
  dimension,
}: {
  groups: Record<string, GroupSummary>;
  dimension: string;
}) {
  const names = Object.keys(groups);
  const columns = [...new Set(names.flatMap((n) => groups[n]!.columns.map((c) => c.column)))];
  const order = Object.keys(RESULT_COLUMNS);
  columns.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return (
    <DataTable variant="ruled" className="max-w-full">
      <caption className="py-1 text-left text-slate-700">
        By {dimension}: exact % [95% interval; † clustered Wilson] · partial % · fair exact % · answers (people)
      </caption>
      <thead>
        <tr className="border-b border-slate-400 bg-slate-100">
          <Th variant="ruled" scope="col" className="sticky left-0 z-10 bg-slate-100">
            Task
          </Th>
          {names.map((n) => (
            <Th variant="ruled" key={n} scope="col">
              {n} <span className="font-normal text-slate-600">({groups[n]!.nParticipants} people)</span>
            </Th>
          ))}
        </tr>
      </thead>
      <tbody>
        {columns.map((col) => (
          <tr key={col} className="border-b border-slate-200">
            <Th variant="ruled" scope="row" className={`${STICKY}`}>
              {RESULT_COLUMNS[col].label}
            </Th>
            {names.map((n) => {
              const c = groups[n]!.columns.find((x) => x.column === col);
              return (
                <td key={n} className={TD}>
                  {c ? (
                    <>
                      <span className="font-semibold">{formatPercent(c.exact.mean)}</span>{" "}
                      {formatInterval(c.exact.interval.low, c.exact.interval.high)}
                      {c.exact.interval.method === "clustered-wilson" ? (
                        <sup title={describeInterval(c.exact.interval)}>†</sup>
                      ) : null}{" "}
                      · {formatPercent(c.partial.mean)} · fair {formatPercent(c.fair.exact.mean)} · {c.nResponses} (
                      {c.nParticipants})
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
          <Th variant="ruled" scope="row" className={`${STICKY}`}>
            Avg (paper)
          </Th>
          {names.map((n) => (
            <td key={n} className={TD}>
              {formatPercent(groups[n]!.paperAverage.exact)} · {formatPercent(groups[n]!.paperAverage.partial)} · fair{" "}
              {formatPercent(groups[n]!.fairPaperAverage.exact)}
            </td>
          ))}
        </tr>
      </tbody>
    </DataTable>
  );
}
