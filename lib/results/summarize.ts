import { bootstrapClusterMean, DEFAULT_BOOTSTRAP_REPLICATES, type BootstrapInterval } from "@/lib/stats/bootstrap";
import { summarizeSpread, type Spread } from "@/lib/stats/descriptive";
import { wilsonInterval, type WilsonInterval } from "@/lib/stats/wilson-interval";
import { summarizeConditionEffect, type ConditionEffectSummary } from "./condition-effect";
import { withoutExcluded } from "./exclusions";
import { chooseReportedInterval, type ReportedInterval } from "./interval-rule";
import { combineChance, keyAnswerSpace, SPEC_ORIGIN } from "@/lib/tasks/chance";
import { parseResponseRecords, type RecordsOutcome, type ResponseRecord } from "./response-records";
import {
  computeAllTaskAverage,
  computePaperAverage,
  RESULT_COLUMN_KEYS,
  RESULT_COLUMNS,
  toResultColumnKey,
  type ChanceLevel,
  type ResultColumnKey,
  type ResultTaskId,
  type T4Polarity,
} from "./task-columns";

export interface SummarizeOptions {
  /** Base seed for every bootstrap; each interval records the derived seed it used. */
  seed: string | number;
  replicates?: number;
  confidence?: number;
  /**
   * Participants the study's exclusion policy excludes (lib/results/exclusions excludedParticipantIds): left out of
   * every estimate; the overall figures and the condition effect with them are reported beside (`unexcluded`).
   */
  excludedParticipantIds?: readonly string[];
}

export interface MetricSummary {
  /** Pooled mean over responses (Σ scores / n responses), a fraction in [0, 1]. */
  mean: number;
  /** Participant-cluster bootstrap interval of the pooled mean (as computed, even where it collapses). */
  bootstrap: BootstrapInterval;
  /** The interval every table, chart and export reports (lib/results/interval-rule: bootstrap or clustered Wilson). */
  interval: ReportedInterval;
  /** Min / median / max of the participants' own means in this column. */
  participantSpread: Spread;
}

export interface ColumnSummary {
  column: ResultColumnKey;
  taskId: ResultTaskId;
  t4Polarity?: T4Polarity;
  label: string;
  nItems: number;
  nParticipants: number;
  nResponses: number;
  /** Exact score, with a Wilson interval on responses (treats responses as independent; the bootstrap does not). */
  exact: MetricSummary & { wilson: WilsonInterval };
  partial: MetricSummary;
  /**
   * The fair score (lib/tasks/fair-score.ts), shown after the paper's: pooled means with the same
   * participant-cluster bootstrap (and Wilson for exact); f1 only for T4/T9 (null elsewhere). Equals
   * the paper score outside T4/T9 (the paper's intervals are reused there).
   */
  fair: { exact: MetricSummary & { wilson: WilsonInterval }; partial: MetricSummary; f1: { mean: number } | null };
  chance: ChanceLevel;
}

export interface AverageSummary {
  exact: number | null;
  partial: number | null;
  /** Columns without data; an average is null when any of its columns is missing. */
  missing: ResultColumnKey[];
}

export interface GroupSummary {
  nParticipants: number;
  nResponses: number;
  /** Columns with at least one response, in the paper's order. */
  columns: ColumnSummary[];
  /** The paper's Avg: 8 columns, T4 Pos./Neg. counted as two, TransRot and RotRot excluded. */
  paperAverage: AverageSummary;
  /** All 10 columns (T4 as two). */
  allTaskAverage: AverageSummary;
  /** The same two averages of the fair score. */
  fairPaperAverage: AverageSummary;
  fairAllTaskAverage: AverageSummary;
}

export interface UnexcludedSummary {
  nExcludedParticipants: number;
  nExcludedResponses: number;
  overall: GroupSummary;
  conditionEffect: ConditionEffectSummary;
}

export interface HumanResultsSummary {
  seed: string | number;
  replicates: number;
  confidence: number;
  overall: GroupSummary;
  byCondition: Record<string, GroupSummary>;
  byCohort: Record<string, GroupSummary>;
  /**
   * Exact accuracy interactive − static with its Welch interval on participants (and the crossed bootstrap for
   * checking, from the fixed contract seed, not `seed`), overall and per column (lib/results/condition-effect).
   */
  conditionEffect: ConditionEffectSummary;
  /**
   * The overall figures and the condition effect with the excluded participants kept in, and how many participants
   * (with counted answers) and answers the estimates above leave out; null when nobody is excluded.
   */
  unexcluded: UnexcludedSummary | null;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

function columnOf(r: ResponseRecord): ResultColumnKey {
  // Records are validated before this point, so T4 always has a polarity.
  return toResultColumnKey(r.taskId, r.t4Polarity) as ResultColumnKey;
}

function summarizeMetric(
  byParticipant: Map<string, ResponseRecord[]>,
  score: (r: ResponseRecord) => number,
  seed: string,
  replicates: number,
  confidence: number,
): MetricSummary {
  const clusters = [...byParticipant.values()].map((list) => list.map(score));
  const bootstrap = bootstrapClusterMean(clusters, { seed, replicates, confidence });
  return {
    mean: bootstrap.estimate as number,
    bootstrap,
    interval: chooseReportedInterval(clusters, bootstrap),
    participantSpread: summarizeSpread(clusters.map((c) => c.reduce((s, v) => s + v, 0) / c.length)) as Spread,
  };
}

function fairExactOf(r: ResponseRecord): number {
  return r.fairExact ?? r.exact;
}

function fairPartialOf(r: ResponseRecord): number {
  return r.fairPartial ?? r.partial;
}

function summarizeColumn(
  column: ResultColumnKey,
  records: readonly ResponseRecord[],
  seedPrefix: string,
  replicates: number,
  confidence: number,
): ColumnSummary {
  const def = RESULT_COLUMNS[column];
  // Sorted so the cluster order, and with it the seeded resampling, does not depend on input order.
  const byParticipant = new Map(
    [...groupBy(records, (r) => r.participantId).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  const nCorrect = records.reduce((s, r) => s + r.exact, 0);
  const nFairCorrect = records.reduce((s, r) => s + fairExactOf(r), 0);
  const withF1 = records.filter((r) => r.fairF1 !== undefined);
  const exact = {
    ...summarizeMetric(byParticipant, (r) => r.exact, `${seedPrefix}|${column}|exact`, replicates, confidence),
    wilson: wilsonInterval(nCorrect, records.length, confidence),
  };
  const partial = summarizeMetric(
    byParticipant,
    (r) => r.partial,
    `${seedPrefix}|${column}|partial`,
    replicates,
    confidence,
  );
  // Fair differs from paper only where records carry fair fields (T4/T9); elsewhere its intervals are the paper's.
  const hasFair = records.some((r) => r.fairExact !== undefined || r.fairPartial !== undefined);
  return {
    column,
    taskId: def.taskId,
    ...(def.t4Polarity ? { t4Polarity: def.t4Polarity } : {}),
    label: def.label,
    nItems: new Set(records.map((r) => r.itemId)).size,
    nParticipants: byParticipant.size,
    nResponses: records.length,
    exact,
    partial,
    fair: {
      exact: hasFair
        ? {
            ...summarizeMetric(
              byParticipant,
              fairExactOf,
              `${seedPrefix}|${column}|fair-exact`,
              replicates,
              confidence,
            ),
            wilson: wilsonInterval(nFairCorrect, records.length, confidence),
          }
        : exact,
      partial: hasFair
        ? summarizeMetric(byParticipant, fairPartialOf, `${seedPrefix}|${column}|fair-partial`, replicates, confidence)
        : partial,
      f1:
        withF1.length === records.length
          ? { mean: withF1.reduce((s, r) => s + (r.fairF1 as number), 0) / withF1.length }
          : null,
    },
    // Each response's item contributes the chance of its own key's answer space (generated items exclude 0).
    chance: combineChance(records.map((r) => r.keyAnswerSpace ?? keyAnswerSpace(def.taskId, SPEC_ORIGIN))),
  };
}

function summarizeGroup(
  records: readonly ResponseRecord[],
  seedPrefix: string,
  replicates: number,
  confidence: number,
): GroupSummary {
  const byColumn = groupBy(records, columnOf);
  const columns = RESULT_COLUMN_KEYS.filter((k) => byColumn.has(k)).map((k) =>
    summarizeColumn(k, byColumn.get(k) as ResponseRecord[], seedPrefix, replicates, confidence),
  );
  const exactCells: Partial<Record<ResultColumnKey, number>> = {};
  const partialCells: Partial<Record<ResultColumnKey, number>> = {};
  for (const c of columns) {
    exactCells[c.column] = c.exact.mean;
    partialCells[c.column] = c.partial.mean;
  }
  const paperExact = computePaperAverage(exactCells);
  const allExact = computeAllTaskAverage(exactCells);
  const fairExactCells: Partial<Record<ResultColumnKey, number>> = {};
  const fairPartialCells: Partial<Record<ResultColumnKey, number>> = {};
  for (const c of columns) {
    fairExactCells[c.column] = c.fair.exact.mean;
    fairPartialCells[c.column] = c.fair.partial.mean;
  }
  const fairPaperExact = computePaperAverage(fairExactCells);
  const fairAllExact = computeAllTaskAverage(fairExactCells);
  return {
    nParticipants: new Set(records.map((r) => r.participantId)).size,
    nResponses: records.length,
    columns,
    paperAverage: {
      exact: paperExact.value,
      partial: computePaperAverage(partialCells).value,
      missing: paperExact.missing,
    },
    allTaskAverage: {
      exact: allExact.value,
      partial: computeAllTaskAverage(partialCells).value,
      missing: allExact.missing,
    },
    fairPaperAverage: {
      exact: fairPaperExact.value,
      partial: computePaperAverage(fairPartialCells).value,
      missing: fairPaperExact.missing,
    },
    fairAllTaskAverage: {
      exact: fairAllExact.value,
      partial: computeAllTaskAverage(fairPartialCells).value,
      missing: fairAllExact.missing,
    },
  };
}

function summarizeGroups(
  records: readonly ResponseRecord[],
  keyOf: (r: ResponseRecord) => string,
  label: string,
  seed: string | number,
  replicates: number,
  confidence: number,
): Record<string, GroupSummary> {
  const out: Record<string, GroupSummary> = {};
  const groups = [...groupBy(records, keyOf).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [key, list] of groups) out[key] = summarizeGroup(list, `${seed}|${label}=${key}`, replicates, confidence);
  return out;
}

/**
 * Per-task human results from plain response records (spec §4–§5): for each result column (T4
 * split into Pos./Neg.) n items / participants / responses, mean exact and partial score, a Wilson
 * interval for exact on responses, participant-cluster bootstrap intervals for both, and the spread
 * of participant means; then the paper's Avg and the all-task average; overall, by condition and by
 * cohort. All scores are fractions in [0, 1]. Bad records give issues, never a partial summary. The participants in
 * `excludedParticipantIds` are left out of every estimate; the overall figures and the condition effect with them
 * come beside (`unexcluded`).
 */
export function summarizeHumanResults(input: unknown, options: SummarizeOptions): RecordsOutcome<HumanResultsSummary> {
  const parsed = parseResponseRecords(input);
  if (!parsed.ok) return parsed;
  const all = parsed.value;
  const records = withoutExcluded(all, options.excludedParticipantIds ?? []);
  const nExcluded = all.length - records.length;
  const replicates = options.replicates ?? DEFAULT_BOOTSTRAP_REPLICATES;
  const confidence = options.confidence ?? 0.95;
  const { seed } = options;
  return {
    ok: true,
    value: {
      seed,
      replicates,
      confidence,
      overall: summarizeGroup(records, `${seed}|all`, replicates, confidence),
      byCondition: summarizeGroups(records, (r) => r.condition, "condition", seed, replicates, confidence),
      byCohort: summarizeGroups(records, (r) => r.cohort, "cohort", seed, replicates, confidence),
      conditionEffect: summarizeConditionEffect(records, { replicates }),
      unexcluded:
        nExcluded === 0
          ? null
          : {
              nExcludedParticipants:
                new Set(all.map((r) => r.participantId)).size - new Set(records.map((r) => r.participantId)).size,
              nExcludedResponses: nExcluded,
              overall: summarizeGroup(all, `${seed}|all`, replicates, confidence),
              conditionEffect: summarizeConditionEffect(all, { replicates }),
            },
    },
  };
}
