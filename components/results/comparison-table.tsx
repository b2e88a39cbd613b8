import { HeaderRow } from "./header-row";
import type { ModelComparisonDto } from "@/lib/server/dal/results/compare-with-models";
import type { TaskShortcutAudit } from "@/lib/shortcuts/audit";
import { formatInterval, formatP, formatPercent } from "./format";
import { OptionTextWarning } from "./option-text-warning";
import { DataTable, Th } from "@/components/ui/data-table";

const TD = "px-2 py-1 tabular-nums";

/**
 * Humans vs each imported model on the same items, per result column: exact means with Wilson
 * intervals over items (the model's paper score, then its fair score: lib/tasks/fair-score.ts), the exact McNemar test on paired item outcomes, n and unparseable answers
 * per cell, and the best model's difference from humans.
 */
export function ComparisonTable({
  dto,
  audits = [],
}: {
  dto: ModelComparisonDto;
  audits?: readonly TaskShortcutAudit[];
}) {
  const comparison = dto.comparison;
  if (!comparison) return null;
  const runName = new Map(dto.runs.map((r) => [r.id, r.name]));
  return (
    <div className="space-y-4">
      <OptionTextWarning
        audits={audits}
        comparedTaskIds={comparison.columns.filter((c) => c.models.length > 0).map((c) => c.taskId)}
      />
      <p className="text-sm text-slate-700">{comparison.humanOutcomeRule}</p>
      <DataTable variant="ruled" className="max-w-full">
        <caption className="py-1 text-left text-slate-700">
          Item-matched, exact score, percent [Wilson 95% over items]; human condition: {comparison.condition ?? "all"}
        </caption>
        <thead>
          <HeaderRow
            labels={[
              "Task",
              "Model",
              "Items",
              "Unparseable",
              "Model %",
              "Model % fair",
              "Humans % (item mean)",
              "Humans majority % [Wilson]",
              "Model − humans (pts)",
              "McNemar b / c, exact p",
            ]}
          />
        </thead>
        <tbody>
          {comparison.columns.map((col) => (
            <ColumnRows key={col.column} col={col} runName={runName} unparseable={dto.unparseable[col.column] ?? {}} />
          ))}
        </tbody>
      </DataTable>
    </div>
  );
}

function ColumnRows({
  col,
  runName,
  unparseable,
}: {
  col: NonNullable<ModelComparisonDto["comparison"]>["columns"][number];
  runName: Map<string, string>;
  unparseable: Record<string, number>;
}) {
  const rows = col.models.length;
  return (
    <>
      {col.models.map((m, i) => (
        <tr key={m.modelId} className={i === 0 ? "border-t border-slate-400" : "border-t border-slate-100"}>
          {i === 0 ? (
            <Th
              variant="ruled"
              scope="rowgroup"
              rowSpan={rows + 1}
              className="sticky left-0 z-10 bg-white align-top whitespace-nowrap"
            >
              {col.label}
              <span className="block text-xs font-normal text-slate-600">
                human-only items {col.nHumanOnlyItems}, model-only {col.nModelOnlyItems}
              </span>
            </Th>
          ) : null}
          <Th variant="ruled" scope="row" className="font-normal">
            {runName.get(m.modelId) ?? m.modelId}
          </Th>
          <td className={TD}>{m.nItems}</td>
          <td className={TD}>{unparseable[m.modelId] ?? 0}</td>
          <td className={TD}>
            <span className="font-semibold">{formatPercent(m.model.mean)}</span>{" "}
            {formatInterval(m.model.wilson.low, m.model.wilson.high)}
          </td>
          <td className={TD}>
            {formatPercent(m.model.fair.mean)} {formatInterval(m.model.fair.wilson.low, m.model.fair.wilson.high)}
          </td>
          <td className={TD}>{formatPercent(m.human.meanOfItemMeans)}</td>
          <td className={TD}>
            {formatPercent(m.human.majority.estimate)} {formatInterval(m.human.majority.low, m.human.majority.high)}
            {m.human.nTies > 0 ? <span className="text-xs text-slate-600"> ({m.human.nTies} tied)</span> : null}
          </td>
          <td className={TD}>{formatPercent(m.difference)}</td>
          <td className={TD}>
            {m.mcnemar.b} / {m.mcnemar.c}, p {formatP(m.mcnemar.p)}
          </td>
        </tr>
      ))}
      <tr className="bg-slate-50">
        {rows === 0 ? (
          <Th variant="ruled" scope="row">
            {col.label}
          </Th>
        ) : null}
        <Th variant="ruled" scope="row" className="italic">
          Best model − human
        </Th>
        {col.best ? (
          <>
            <td className={TD}>{col.best.nItems}</td>
            <td className={TD} />
            <td className={TD}>{formatPercent(col.best.modelMean)}</td>
            <td className={TD} />
            <td className={TD}>{formatPercent(col.best.humanMean)}</td>
            <td className={TD} />
            <td className={`${TD} font-semibold`}>{formatPercent(col.best.difference)}</td>
            <td className="px-2 py-1 text-xs text-slate-600">{runName.get(col.best.modelId) ?? col.best.modelId}</td>
          </>
        ) : (
          <td className="px-2 py-1 text-slate-600" colSpan={8}>
            no model answered these items
          </td>
        )}
      </tr>
    </>
  );
}
