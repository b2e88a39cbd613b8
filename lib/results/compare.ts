import { mcnemarExact, type McNemarResult } from "@/lib/stats/mcnemar-exact";
import { wilsonInterval, type WilsonInterval } from "@/lib/stats/wilson-interval";
import {
  parseHumanAndModelRecords,
  type ModelResponseRecord,
  type RecordsOutcome,
  type ResponseRecord,
} from "./response-records";
import {
  RESULT_COLUMN_KEYS,
  RESULT_COLUMNS,
  toResultColumnKey,
  type ResultColumnKey,
  type ResultTaskId,
} from "./task-columns";

/*
 * Item-matched human vs model comparison. Definitions (all on the exact score):
 * - Per-item human accuracy is the MEAN exact score of that item's human responses; the human task
 *   mean is the mean of those per-item accuracies over the matched items, so items are weighted
 *   equally for humans and model alike.
 * - For the paired McNemar test each item needs ONE binary human outcome: the majority vote,
 *   correct when strictly more than half of the item's human responses are exactly correct. A tie
 *   counts as not correct (a strict majority is required), which is conservative for humans; the
 *   number of tied items is reported so a reader can see how much hangs on that rule.
 * - b = items the human majority got right and the model got wrong; c = the reverse.
 * - Matched items are those with at least one human response (after the condition filter) and an
 *   answer from that model; the counts left out on either side are reported, not dropped silently.
 */
export const HUMAN_OUTCOME_RULE =
  "Per item, human accuracy = mean exact score of its responses; for McNemar the human outcome is the majority vote (strictly more than half correct; ties count as not correct).";

export interface CompareOptions {
  /** Only human responses from this condition (e.g. "static", which matches how the paper tested humans). */
  condition?: string;
  confidence?: number;
  /** Also report the mid-p McNemar variant. */
  midP?: boolean;
}

export interface ModelComparison {
  modelId: string;
  nItems: number;
  nHumanResponses: number;
  human: {
    /** Mean over matched items of the per-item human accuracy. */
    meanOfItemMeans: number;
    partialMeanOfItemMeans: number;
    /** Items whose human majority was correct, with a Wilson interval over items. */
    majority: WilsonInterval;
    /** Items where exactly half of the human responses were correct (counted as not correct). */
    nTies: number;
  };
  model: {
    mean: number;
    partialMean: number;
    /** Items the model got exactly right, with a Wilson interval over items. */
    wilson: WilsonInterval;
    /** The same under the fair score (lib/tasks/fair-score.ts; equals the paper's outside T4/T9). */
    fair: { mean: number; partialMean: number; f1Mean: number; wilson: WilsonInterval };
  };
  mcnemar: McNemarResult;
  /** model.mean − human.meanOfItemMeans, as a fraction. */
  difference: number;
}

export interface ColumnComparison {
  column: ResultColumnKey;
  taskId: ResultTaskId;
  label: string;
  /** Models with at least one matched item, by model id. */
  models: ModelComparison[];
  /** The model with the highest exact mean on its matched items (ties: more items, then id); null if none. */
  best: { modelId: string; modelMean: number; humanMean: number; difference: number; nItems: number } | null;
  /** Items of this column answered by humans but by no model, and model-answered items no human saw. */
  nHumanOnlyItems: number;
  nModelOnlyItems: number;
}

export interface Comparison {
  humanOutcomeRule: string;
  condition: string | null;
  confidence: number;
  columns: ColumnComparison[];
}

interface HumanItem {
  column: ResultColumnKey;
  nResponses: number;
  exactMean: number;
  partialMean: number;
  /** 1, 0, or "tie". */
  majority: 1 | 0 | "tie";
}

function collectHumanItems(records: readonly ResponseRecord[]): Map<string, HumanItem> {
  const sums = new Map<string, { column: ResultColumnKey; n: number; exact: number; partial: number }>();
  for (const r of records) {
    const entry = sums.get(r.itemId) ?? {
      column: toResultColumnKey(r.taskId, r.t4Polarity) as ResultColumnKey,
      n: 0,
      exact: 0,
      partial: 0,
    };
    entry.n++;
    entry.exact += r.exact;
    entry.partial += r.partial;
    sums.set(r.itemId, entry);
  }
  const items = new Map<string, HumanItem>();
  for (const [id, s] of sums) {
    items.set(id, {
      column: s.column,
      nResponses: s.n,
      exactMean: s.exact / s.n,
      partialMean: s.partial / s.n,
      majority: 2 * s.exact > s.n ? 1 : 2 * s.exact === s.n ? "tie" : 0,
    });
  }
  return items;
}

function compareOneModel(
  modelId: string,
  answers: readonly ModelResponseRecord[],
  humanItems: Map<string, HumanItem>,
  confidence: number,
  midP: boolean,
): ModelComparison | null {
  const matched = answers.filter((a) => humanItems.has(a.itemId));
  if (matched.length === 0) return null;
  let b = 0;
  let c = 0;
  let humanMajorityCorrect = 0;
  let nTies = 0;
  let humanExactSum = 0;
  let humanPartialSum = 0;
  let nHumanResponses = 0;
  let modelCorrect = 0;
  let modelPartialSum = 0;
  let fairCorrect = 0;
  let fairPartialSum = 0;
  let fairF1Sum = 0;
  for (const a of matched) {
    const h = humanItems.get(a.itemId) as HumanItem;
    const humanCorrect = h.majority === 1 ? 1 : 0;
    if (h.majority === "tie") nTies++;
    humanMajorityCorrect += humanCorrect;
    humanExactSum += h.exactMean;
    humanPartialSum += h.partialMean;
    nHumanResponses += h.nResponses;
    modelCorrect += a.exact;
    modelPartialSum += a.partial;
    fairCorrect += a.fairExact ?? a.exact;
    fairPartialSum += a.fairPartial ?? a.partial;
    fairF1Sum += a.fairF1 ?? a.fairPartial ?? a.partial;
    if (humanCorrect === 1 && a.exact === 0) b++;
    if (humanCorrect === 0 && a.exact === 1) c++;
  }
  const n = matched.length;
  const humanMean = humanExactSum / n;
  const modelMean = modelCorrect / n;
  return {
    modelId,
    nItems: n,
    nHumanResponses,
    human: {
      meanOfItemMeans: humanMean,
      partialMeanOfItemMeans: humanPartialSum / n,
      majority: wilsonInterval(humanMajorityCorrect, n, confidence),
      nTies,
    },
    model: {
      mean: modelMean,
      partialMean: modelPartialSum / n,
      wilson: wilsonInterval(modelCorrect, n, confidence),
      fair: {
        mean: fairCorrect / n,
        partialMean: fairPartialSum / n,
        f1Mean: fairF1Sum / n,
        wilson: wilsonInterval(fairCorrect, n, confidence),
      },
    },
    mcnemar: mcnemarExact(b, c, { midP }),
    difference: modelMean - humanMean,
  };
}

function pickBest(models: readonly ModelComparison[]): ColumnComparison["best"] {
  const sorted = [...models].sort(
    (x, y) =>
      y.model.mean - x.model.mean ||
      y.nItems - x.nItems ||
      (x.modelId < y.modelId ? -1 : x.modelId > y.modelId ? 1 : 0),
  );
  const top = sorted[0];
  if (!top) return null;
  return {
    modelId: top.modelId,
    modelMean: top.model.mean,
    humanMean: top.human.meanOfItemMeans,
    difference: top.difference,
    nItems: top.nItems,
  };
}

/**
 * Item-matched human vs model comparison per result column (T4 split into Pos./Neg.): human and
 * model exact means with Wilson intervals, the exact McNemar test on paired item outcomes, and the
 * best model's difference from humans. See HUMAN_OUTCOME_RULE for how human outcomes are formed.
 */
export function compareHumansWithModels(
  humanInput: unknown,
  modelInput: unknown,
  options: CompareOptions = {},
): RecordsOutcome<Comparison> {
  const parsed = parseHumanAndModelRecords(humanInput, modelInput);
  if (!parsed.ok) return parsed;
  const confidence = options.confidence ?? 0.95;
  const human =
    options.condition === undefined
      ? parsed.value.human
      : parsed.value.human.filter((r) => r.condition === options.condition);
  const humanItems = collectHumanItems(human);
  const modelAnswers = parsed.value.model;

  const columns: ColumnComparison[] = [];
  for (const column of RESULT_COLUMN_KEYS) {
    const def = RESULT_COLUMNS[column];
    const humanInColumn = new Map([...humanItems].filter(([, h]) => h.column === column));
    const answersInColumn = modelAnswers.filter((a) => toResultColumnKey(a.taskId, a.t4Polarity) === column);
    if (humanInColumn.size === 0 && answersInColumn.length === 0) continue;

    const byModel = new Map<string, ModelResponseRecord[]>();
    for (const a of answersInColumn) {
      const list = byModel.get(a.modelId);
      if (list) list.push(a);
      else byModel.set(a.modelId, [a]);
    }
    const models = [...byModel.keys()]
      .sort()
      .map((id) =>
        compareOneModel(id, byModel.get(id) as ModelResponseRecord[], humanInColumn, confidence, options.midP ?? false),
      )
      .filter((m): m is ModelComparison => m !== null);
    const modelItemIds = new Set(answersInColumn.map((a) => a.itemId));
    columns.push({
      column,
      taskId: def.taskId,
      label: def.label,
      models,
      best: pickBest(models),
      nHumanOnlyItems: [...humanInColumn.keys()].filter((id) => !modelItemIds.has(id)).length,
      nModelOnlyItems: [...modelItemIds].filter((id) => !humanInColumn.has(id)).length,
    });
  }
  return {
    ok: true,
    value: { humanOutcomeRule: HUMAN_OUTCOME_RULE, condition: options.condition ?? null, confidence, columns },
  };
}
