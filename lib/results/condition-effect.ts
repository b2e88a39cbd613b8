import {
  CONDITION_EFFECT_DEFAULT_REPLICATES,
  CONDITION_EFFECT_DEFAULT_SEED,
  crossedBootstrapConditionEffect,
  type ConditionEffect,
  type CrossedAnswer,
} from "@/lib/stats/crossed-bootstrap";
import { participantWelchInterval } from "@/lib/stats/condition-effect-interval";
import type { ResponseRecord } from "./response-records";
import { formatFractionAsPercent } from "./rounding";
import { RESULT_COLUMN_KEYS, RESULT_COLUMNS, toResultColumnKey, type ResultColumnKey } from "./task-columns";

/**
 * The reported effect: low and high are the Welch t interval on participants (lib/stats/condition-effect-interval,
 * the interval the planner plans for); the crossed bootstrap stays beside it, as computed, for checking.
 */
export interface ReportedConditionEffect extends ConditionEffect {
  method: "welch-participants";
  standardError: number | null;
  df: number | null;
  bootstrapLow: number | null;
  bootstrapHigh: number | null;
}

export interface ConditionEffectColumn {
  column: ResultColumnKey;
  label: string;
  effect: ReportedConditionEffect;
}

export interface ConditionEffectSummary {
  /** Both conditions have answers (otherwise every estimate is null: nothing to compare). */
  estimable: boolean;
  overall: ReportedConditionEffect;
  /** One entry per result column with answers, in the paper's order (T4 as Pos. and Neg.). */
  columns: ConditionEffectColumn[];
}

/** The condition model the exported analysis.R fits (lme4::glmer, binomial; docs/analysis-package.md). */
export const CONDITION_MODEL_FORMULA = "correct ~ condition * task + (1 | participant) + (1 | item)";

/** What the interval respects and which population it covers, in one sentence (page, paper-table note). */
export const CONDITION_EFFECT_NOTE =
  "Difference in exact accuracy, interactive − static, in percentage points; the 95% interval is a Welch t interval on participants (each participant's accuracy one observation), so it allows for people varying in skill; it is about this study's questions, which both conditions answered, so their difficulty cancels in the difference and is not a source of error.";

/** The condition effect over some answers: pooled estimate, Welch interval on participants, and the crossed bootstrap for checking. */
export function reportedConditionEffect(
  answers: readonly CrossedAnswer[],
  options: { seed?: number; replicates?: number } = {},
): ReportedConditionEffect {
  const bootstrap = crossedBootstrapConditionEffect(answers, options);
  const welch = participantWelchInterval(answers, bootstrap.confidence);
  return {
    ...bootstrap,
    method: "welch-participants",
    low: welch.low,
    high: welch.high,
    standardError: welch.standardError,
    df: welch.df,
    bootstrapLow: bootstrap.low,
    bootstrapHigh: bootstrap.high,
  };
}

/** The records as bootstrap answers: exact score, the result column as the task; conditions other than the two are left out. */
export function toCrossedAnswers(records: readonly ResponseRecord[]): CrossedAnswer[] {
  const out: CrossedAnswer[] = [];
  for (const r of records) {
    if (r.condition !== "static" && r.condition !== "interactive") continue;
    const column = toResultColumnKey(r.taskId, r.t4Polarity);
    if (column === null) continue;
    out.push({
      participantId: r.participantId,
      itemId: r.itemId,
      task: column,
      condition: r.condition,
      correct: r.exact,
    });
  }
  return out;
}

/**
 * The condition effect over all answers and per result column (reportedConditionEffect; the bootstrap beside it from
 * the fixed seed of the contract the exported R and Python scripts follow, docs/condition-effect.md).
 */
export function summarizeConditionEffect(
  records: readonly ResponseRecord[],
  options: { seed?: number; replicates?: number } = {},
): ConditionEffectSummary {
  const seed = options.seed ?? CONDITION_EFFECT_DEFAULT_SEED;
  const replicates = options.replicates ?? CONDITION_EFFECT_DEFAULT_REPLICATES;
  const answers = toCrossedAnswers(records);
  const overall = reportedConditionEffect(answers, { seed, replicates });
  const columns = RESULT_COLUMN_KEYS.flatMap((column) => {
    const subset = answers.filter((a) => a.task === column);
    return subset.length === 0
      ? []
      : [
          {
            column,
            label: RESULT_COLUMNS[column].label,
            effect: reportedConditionEffect(subset, { seed, replicates }),
          },
        ];
  });
  return { estimable: overall.estimate !== null, overall, columns };
}

/** A difference (fraction) as signed percentage points, one decimal, the one rounding rule (lib/results/rounding): "+4.2", "−1.0", "0.0". */
export function formatPp(value: number): string {
  const text = formatFractionAsPercent(Math.abs(value), 1);
  if (text === "0.0") return "0.0";
  return `${value < 0 ? "−" : "+"}${text}`;
}

/**
 * Whether the interval has width: every participant of both conditions can have the same accuracy (all right or all
 * wrong), and a zero-width interval is not a statement of certainty.
 */
export function hasIntervalSpread(
  effect: Pick<ConditionEffect, "low" | "high">,
): effect is { low: number; high: number } {
  return effect.low !== null && effect.high !== null && effect.low !== effect.high;
}

/** "[−1.0, +9.8]"; "[no spread]" when every participant had the same accuracy; "[no interval]" with fewer than 2 participants in a condition. */
export function formatEffectInterval(effect: Pick<ConditionEffect, "low" | "high">): string {
  if (effect.low === null || effect.high === null) return "[no interval]";
  if (!hasIntervalSpread(effect)) return "[no spread]";
  return `[${formatPp(effect.low)}, ${formatPp(effect.high)}]`;
}

/** "+4.2 pp [−1.0, +9.8]", or "not estimable" when a condition has no answers. */
export function formatConditionEffect(effect: ConditionEffect): string {
  if (effect.estimate === null) return "not estimable";
  return `${formatPp(effect.estimate)} pp ${formatEffectInterval(effect)}`;
}
