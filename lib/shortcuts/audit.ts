/**
 * The shortcut audit of a set of items: per task, chance and every applicable strategy's accuracy with a 95 % Wilson
 * interval, and the best strategy. Only aggregates (no key, no coordinates), so the result may be shown to staff and
 * written to a bundle manifest.
 */
import { wilsonInterval } from "@/lib/stats/wilson-interval";
import { combineChance, keyAnswerSpace, SPEC_ORIGIN } from "@/lib/tasks/chance";
import { getTask } from "@/lib/tasks/registry";
import type { TaskId } from "@/lib/tasks/types";
import {
  type ItemShortcutScore,
  SHORTCUT_STRATEGIES,
  type ShortcutItem,
  type ShortcutNeed,
  type ShortcutStrategy,
} from "./strategies";

export interface StrategyAccuracy {
  id: string;
  label: string;
  needs: ShortcutNeed;
  /** Items the strategy could run on. */
  n: number;
  /** Mean expected exact score (fraction). */
  exact: number;
  /** Mean expected partial score (fraction; the task's paper rule). */
  partial: number;
  /**
   * 95 % Wilson interval of `exact`, from k = round(exact × n) successes: a strategy that ties among options has a
   * fractional expected score per item, so the interval is that of a strategy breaking ties by a coin.
   */
  low: number;
  high: number;
}

export interface TaskShortcutAudit {
  taskId: TaskId;
  /** The item group (`groupOf`), when the audit is split within a task (e.g. T4 Pos./Neg.). */
  group?: string;
  items: number;
  /** Chance over these items' own answer spaces (lib/tasks/chance.ts), null where the answer space is open. */
  chance: number | null;
  /** How the chance level was derived (answer spaces and their counts). */
  chanceBasis: string;
  strategies: StrategyAccuracy[];
  /** The strategy with the highest exact accuracy (ties: the first listed), null when none could run. */
  best: StrategyAccuracy | null;
}

function summarise(
  strategy: ShortcutStrategy,
  perItem: readonly (ItemShortcutScore | null)[],
): StrategyAccuracy | null {
  const scores = perItem.filter((s) => s !== null);
  const n = scores.length;
  if (n === 0) return null;
  const exact = scores.reduce((s, x) => s + x.exact, 0) / n;
  const partial = scores.reduce((s, x) => s + x.partial, 0) / n;
  const interval = wilsonInterval(Math.min(n, Math.max(0, Math.round(exact * n))), n);
  return {
    id: strategy.id,
    label: strategy.label,
    needs: strategy.needs,
    n,
    exact,
    partial,
    low: interval.low,
    high: interval.high,
  };
}

export interface AuditOptions {
  strategies?: readonly ShortcutStrategy[];
  /**
   * Splits a task's results into groups (e.g. T4 Pos./Neg.); strategies still run on the whole task (the most common
   * answer is the task's), only the accuracies are taken per group. Undefined: one group per task.
   */
  groupOf?: (item: ShortcutItem) => string | undefined;
}

/** T4 items split into "pos" (the key lists bonds) and "neg" (the key is No), as the paper reports them (spec §4). */
export function byT4Polarity(item: ShortcutItem): string | undefined {
  if (item.taskId !== "residue_ligand") return undefined;
  return (item.gold as { kind?: unknown } | null)?.kind === "none" ? "neg" : "pos";
}

/** Audit of every task (and group) present in `items`, in the order they first appear. */
export function auditShortcuts(items: readonly ShortcutItem[], options: AuditOptions = {}): TaskShortcutAudit[] {
  const strategies = options.strategies ?? SHORTCUT_STRATEGIES;
  const byTask = new Map<TaskId, ShortcutItem[]>();
  for (const item of items) byTask.set(item.taskId, [...(byTask.get(item.taskId) ?? []), item]);
  const out: TaskShortcutAudit[] = [];
  for (const [taskId, list] of byTask) {
    const runs = strategies.filter((s) => s.appliesTo(taskId)).map((s) => ({ strategy: s, scores: s.run(list) }));
    const groups = new Map<string | undefined, number[]>();
    list.forEach((item, i) => {
      const g = options.groupOf?.(item);
      groups.set(g, [...(groups.get(g) ?? []), i]);
    });
    for (const [group, indices] of groups) {
      const measured = runs.flatMap(
        ({ strategy, scores }) =>
          summarise(
            strategy,
            indices.map((i) => scores[i] ?? null),
          ) ?? [],
      );
      const best = measured.reduce<StrategyAccuracy | null>(
        (b, s) => (b === null || s.exact > b.exact + 1e-12 ? s : b),
        null,
      );
      const chance = combineChance(indices.map((i) => keyAnswerSpace(taskId, list[i]!.keyOrigin ?? SPEC_ORIGIN)));
      out.push({
        taskId,
        ...(group !== undefined ? { group } : {}),
        items: indices.length,
        chance: chance.exact,
        chanceBasis: chance.basis,
        strategies: measured,
        best,
      });
    }
  }
  return out;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}`;

/** Plain-text table (task × strategy) for benches and CLI output. */
export function formatShortcutTable(audits: readonly TaskShortcutAudit[]): string {
  const rows: string[][] = [
    ["task", "items", "chance %", "strategy", "needs", "n", "exact %", "95 % CI", "partial %", ""],
  ];
  for (const a of audits) {
    const code = getTask(a.taskId).code;
    for (const s of a.strategies) {
      rows.push([
        `${code} ${a.taskId}${a.group ? ` ${a.group === "pos" ? "Pos." : a.group === "neg" ? "Neg." : a.group}` : ""}`,
        String(a.items),
        a.chance === null ? "—" : pct(a.chance),
        s.id,
        s.needs,
        String(s.n),
        pct(s.exact),
        `${pct(s.low)}–${pct(s.high)}`,
        pct(s.partial),
        a.best?.id === s.id ? "best" : "",
      ]);
    }
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** Above this, a rule reading only the option texts finds the key too often for a text-reading model's score to mean much (the balanced variant's goal). */
export const OPTION_TEXT_LEAK_LIMIT = 0.3;

/**
 * MC audits whose best option-text rule gives the key away. T5/T6: above OPTION_TEXT_LEAK_LIMIT (the paper's recipe:
 * 100 %). T8: its 95 % interval lies above chance, the audit's test of a rule that beats chance (T8's paper recipe
 * lets the shortest or longest move find the key; the balanced recipe does not). Humans see those options as images; a
 * model given the option texts can score by their structure alone, so its accuracy there measures option-text
 * structure, not spatial reasoning.
 */
export function findOptionTextLeaks(
  audits: readonly TaskShortcutAudit[],
): { taskId: TaskId; items: number; best: StrategyAccuracy }[] {
  return audits.flatMap((a) => {
    const isRotationTask = a.taskId === "translation_rotation" || a.taskId === "rotation_rotation";
    if (!isRotationTask && a.taskId !== "interaction_location") return [];
    const best = a.strategies
      .filter((s) => s.needs === "option-text")
      .reduce<StrategyAccuracy | null>((b, s) => (b === null || s.exact > b.exact + 1e-12 ? s : b), null);
    if (best === null) return [];
    const leaks = isRotationTask ? best.exact > OPTION_TEXT_LEAK_LIMIT : a.chance !== null && best.low > a.chance;
    return leaks ? [{ taskId: a.taskId, items: a.items, best }] : [];
  });
}
