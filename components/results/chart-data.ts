import type { Comparison } from "@/lib/results/compare";
import type { ColumnSummary, HumanResultsSummary } from "@/lib/results/summarize";
import { toPercent } from "@/lib/results/rounding";
import { RESULT_COLUMN_KEYS, RESULT_COLUMNS } from "@/lib/results/task-columns";

/** A bar with its whisker, in percent. */
export interface ChartBar {
  mean: number;
  low: number;
  high: number;
  n: number;
}

export interface TaskChartColumn {
  column: string;
  label: string;
  /** Humans: pooled exact score with the reported interval (participant bootstrap or its clustered-Wilson fallback). */
  human: ChartBar | null;
  /** Models by run id: exact score on the items humans answered, Wilson interval over those items. */
  models: Record<string, ChartBar>;
  chance: number | null;
}

export interface ConditionChartData {
  conditions: string[];
  columns: { column: string; label: string; byCondition: Record<string, ChartBar> }[];
}

// Unrounded percent: the text tables round it once, with the same rule as every other table.
const pct = toPercent;

function humanBar(c: ColumnSummary): ChartBar {
  // The reported interval (lib/results/interval-rule): the participant bootstrap, or clustered Wilson where it would collapse.
  const { low, high } = c.exact.interval;
  return { mean: pct(c.exact.mean), low: pct(low), high: pct(high), n: c.nResponses };
}

/** Per-column bars: humans (all their items) and every compared model (matched items). */
export function buildTaskChartColumns(
  summary: HumanResultsSummary | null,
  comparison: Comparison | null,
): TaskChartColumn[] {
  const humanBy = new Map((summary?.overall.columns ?? []).map((c) => [c.column as string, c]));
  const compareBy = new Map((comparison?.columns ?? []).map((c) => [c.column as string, c]));
  return RESULT_COLUMN_KEYS.filter((k) => humanBy.has(k) || compareBy.has(k)).map((k) => {
    const h = humanBy.get(k);
    const models: Record<string, ChartBar> = {};
    for (const m of compareBy.get(k)?.models ?? []) {
      models[m.modelId] = {
        mean: pct(m.model.mean),
        low: pct(m.model.wilson.low),
        high: pct(m.model.wilson.high),
        n: m.nItems,
      };
    }
    return {
      column: k,
      label: RESULT_COLUMNS[k].label,
      human: h ? humanBar(h) : null,
      models,
      chance: h?.chance.exact == null ? null : pct(h.chance.exact),
    };
  });
}

/** Exact score per column and condition (static / interactive), humans only. */
export function buildConditionChartData(summary: HumanResultsSummary | null): ConditionChartData {
  // The paper's condition (static) first, then the rest alphabetically.
  const conditions = Object.keys(summary?.byCondition ?? {}).sort((a, b) =>
    a === "static" ? -1 : b === "static" ? 1 : a < b ? -1 : a > b ? 1 : 0,
  );
  const columns = RESULT_COLUMN_KEYS.flatMap((k) => {
    const byCondition: Record<string, ChartBar> = {};
    for (const cond of conditions) {
      const c = summary?.byCondition[cond]?.columns.find((x) => x.column === k);
      if (c) byCondition[cond] = humanBar(c);
    }
    return Object.keys(byCondition).length > 0
      ? [{ column: k as string, label: RESULT_COLUMNS[k].label, byCondition }]
      : [];
  });
  return { conditions, columns };
}
