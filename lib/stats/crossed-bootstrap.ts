import { quantileSorted } from "./descriptive";
import { assertConfidenceLevel } from "./normal-quantile";

/*
 * The crossed (two-way cluster) bootstrap of the accuracy difference interactive − static.
 * The exported R and Python analysis scripts reproduce these numbers from the same answers, so every
 * step below (the RNG, the order of the draws, the sort order of the ids, the quantile rule) is fixed
 * and must not change without changing them too (docs/condition-effect.md states the procedure).
 */

export const CONDITION_EFFECT_DEFAULT_SEED = 20261201;
export const CONDITION_EFFECT_DEFAULT_REPLICATES = 2000;

const PM_MODULUS = 2147483647; // 2^31 − 1
const PM_MULTIPLIER = 16807; // 7^5

/** Park–Miller state from a seed: ((seed − 1) mod (2^31 − 2)) + 1, so every integer maps into 1..2^31 − 2. */
export function parkMillerState(seed: number): number {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`Park–Miller seed must be an integer, got ${seed}`);
  const m = PM_MODULUS - 1;
  return ((((seed - 1) % m) + m) % m) + 1;
}

/**
 * The Park–Miller "minimal standard" generator: s ← 16807·s mod (2^31 − 1), u = s / (2^31 − 1).
 * 16807·s < 2^46, so every step is exact in IEEE doubles (and so in R and Python floats too).
 */
export function createParkMiller(seed: number): { next(): number; state(): number } {
  let s = parkMillerState(seed);
  return {
    next() {
      s = (PM_MULTIPLIER * s) % PM_MODULUS;
      return s / PM_MODULUS;
    },
    state: () => s,
  };
}

export type Condition = "static" | "interactive";

export interface CrossedAnswer {
  participantId: string;
  itemId: string;
  task: string;
  condition: Condition;
  /** 1 correct, 0 not (exact score). */
  correct: number;
}

export interface ConditionCounts {
  nParticipants: number;
  nItems: number;
  nAnswers: number;
  nCorrect: number;
  /** Pooled accuracy Σcorrect / Σanswers, null without answers. */
  accuracy: number | null;
}

export interface ConditionEffect {
  /** accuracy(interactive) − accuracy(static) as a fraction; null when a condition has no answers. */
  estimate: number | null;
  low: number | null;
  high: number | null;
  confidence: number;
  replicates: number;
  seed: number;
  /** Replicates where a condition drew zero weight (no value recorded; their draws were still consumed). */
  skipped: number;
  /** Distinct participants / items in the subset (both conditions), i.e. the resampled units. */
  nParticipants: number;
  nItems: number;
  nAnswers: number;
  byCondition: Record<Condition, ConditionCounts>;
}

export interface CrossedBootstrapOptions {
  seed?: number;
  replicates?: number;
  confidence?: number;
}

function counts(answers: readonly CrossedAnswer[]): ConditionCounts {
  const nCorrect = answers.reduce((s, a) => s + a.correct, 0);
  return {
    nParticipants: new Set(answers.map((a) => a.participantId)).size,
    nItems: new Set(answers.map((a) => a.itemId)).size,
    nAnswers: answers.length,
    nCorrect,
    accuracy: answers.length === 0 ? null : nCorrect / answers.length,
  };
}

/** Ascending by UTF-16 code unit (JS default sort); equals code-point order for ids without astral characters. */
function sortedIds(ids: Iterable<string>): string[] {
  return [...new Set(ids)].sort();
}

function validate(answers: readonly CrossedAnswer[]): void {
  answers.forEach((a, i) => {
    if (a.condition !== "static" && a.condition !== "interactive")
      throw new RangeError(`answer ${i}: condition must be "static" or "interactive", got ${String(a.condition)}`);
    if (a.correct !== 0 && a.correct !== 1)
      throw new RangeError(`answer ${i}: correct must be 0 or 1, got ${String(a.correct)}`);
    if (typeof a.participantId !== "string" || typeof a.itemId !== "string")
      throw new RangeError(`answer ${i}: participantId and itemId must be strings`);
  });
}

/**
 * Crossed bootstrap of accuracy(interactive) − accuracy(static) over the given answers: each replicate
 * draws the participants with replacement, then the items with replacement (independently), and weights
 * each answer by (times its participant was drawn) × (times its item was drawn). The interval is the
 * percentile interval (type-7 quantiles) of the non-degenerate replicate differences.
 */
export function crossedBootstrapConditionEffect(
  answers: readonly CrossedAnswer[],
  options: CrossedBootstrapOptions = {},
): ConditionEffect {
  const seed = options.seed ?? CONDITION_EFFECT_DEFAULT_SEED;
  const replicates = options.replicates ?? CONDITION_EFFECT_DEFAULT_REPLICATES;
  const confidence = options.confidence ?? 0.95;
  assertConfidenceLevel(confidence);
  if (!Number.isInteger(replicates) || replicates < 1)
    throw new RangeError(`crossed bootstrap: replicates must be a positive integer, got ${replicates}`);
  const state = parkMillerState(seed);
  validate(answers);

  const participants = sortedIds(answers.map((a) => a.participantId));
  const items = sortedIds(answers.map((a) => a.itemId));
  const byCondition = {
    static: counts(answers.filter((a) => a.condition === "static")),
    interactive: counts(answers.filter((a) => a.condition === "interactive")),
  };
  const base = {
    confidence,
    replicates,
    seed: state,
    nParticipants: participants.length,
    nItems: items.length,
    nAnswers: answers.length,
    byCondition,
  };
  if (byCondition.static.nAnswers === 0 || byCondition.interactive.nAnswers === 0) {
    return { ...base, estimate: null, low: null, high: null, skipped: 0 };
  }
  const estimate = (byCondition.interactive.accuracy as number) - (byCondition.static.accuracy as number);

  const { values, skipped } = replicateValues(answers, participants, items, state, replicates);
  values.sort((x, y) => x - y);
  const alpha = 1 - confidence;
  return {
    ...base,
    estimate,
    low: quantileSorted(values, alpha / 2),
    high: quantileSorted(values, 1 - alpha / 2),
    skipped,
  };
}

/**
 * The replicate differences in draw order (degenerate replicates left out and counted), for the
 * answers with the given sorted participant and item ids. Exported for the tests and the bench.
 */
export function crossedBootstrapReplicates(
  answers: readonly CrossedAnswer[],
  options: { seed?: number; replicates?: number } = {},
): { values: number[]; skipped: number } {
  validate(answers);
  const state = parkMillerState(options.seed ?? CONDITION_EFFECT_DEFAULT_SEED);
  const replicates = options.replicates ?? CONDITION_EFFECT_DEFAULT_REPLICATES;
  return replicateValues(
    answers,
    sortedIds(answers.map((a) => a.participantId)),
    sortedIds(answers.map((a) => a.itemId)),
    state,
    replicates,
  );
}

function replicateValues(
  answers: readonly CrossedAnswer[],
  participants: readonly string[],
  items: readonly string[],
  state: number,
  replicates: number,
): { values: number[]; skipped: number } {
  const pIndex = new Map(participants.map((id, i) => [id, i]));
  const iIndex = new Map(items.map((id, i) => [id, i]));
  const nP = participants.length;
  const nI = items.length;
  // Answers laid out by participant, static ones first: each participant's two runs of item indices and
  // correctness, so a participant drawn zero times is skipped whole and the inner loops carry no branches.
  const segment = new Int32Array(2 * nP + 1);
  for (const a of answers)
    segment[2 * (pIndex.get(a.participantId) as number) + (a.condition === "interactive" ? 1 : 0) + 1]! += 1;
  for (let k = 1; k < segment.length; k++) segment[k]! += segment[k - 1]!;
  const fill = segment.slice(0, 2 * nP);
  const item = new Int32Array(answers.length);
  const correct = new Float64Array(answers.length);
  for (const a of answers) {
    const slot = fill[2 * (pIndex.get(a.participantId) as number) + (a.condition === "interactive" ? 1 : 0)]!++;
    item[slot] = iIndex.get(a.itemId) as number;
    correct[slot] = a.correct;
  }

  const rng = createParkMiller(state);
  const cP = new Float64Array(nP);
  const cI = new Float64Array(nI);
  const values: number[] = [];
  let skipped = 0;
  for (let b = 0; b < replicates; b++) {
    cP.fill(0);
    cI.fill(0);
    for (let k = 0; k < nP; k++) cP[Math.floor(rng.next() * nP)]! += 1;
    for (let k = 0; k < nI; k++) cI[Math.floor(rng.next() * nI)]! += 1;
    // Integer weights: every sum below is an exact integer (far below 2^53), so the order of summation cannot
    // change them and the ratios are reproducible to the last bit in any language.
    let wS = 0;
    let cS = 0;
    let wX = 0;
    let cX = 0;
    for (let p = 0; p < nP; p++) {
      const c = cP[p]!;
      if (c === 0) continue;
      let w = 0;
      let r = 0;
      const mid = segment[2 * p + 1]!;
      for (let k = segment[2 * p]!; k < mid; k++) {
        const v = cI[item[k]!]!;
        w += v;
        r += v * correct[k]!;
      }
      wS += c * w;
      cS += c * r;
      w = 0;
      r = 0;
      const end = segment[2 * p + 2]!;
      for (let k = mid; k < end; k++) {
        const v = cI[item[k]!]!;
        w += v;
        r += v * correct[k]!;
      }
      wX += c * w;
      cX += c * r;
    }
    if (wS === 0 || wX === 0) {
      skipped++;
      continue;
    }
    values.push(cX / wX - cS / wS);
  }
  return { values, skipped };
}

export interface ConditionEffects {
  overall: ConditionEffect;
  /** Per task id, sorted by task id; each run independently from the same seed. */
  byTask: Record<string, ConditionEffect>;
}

/** The condition effect over all answers and per task (each subset bootstrapped on its own from the same seed). */
export function conditionEffects(
  answers: readonly CrossedAnswer[],
  options: CrossedBootstrapOptions = {},
): ConditionEffects {
  const tasks = [...new Set(answers.map((a) => a.task))].sort();
  const byTask: Record<string, ConditionEffect> = {};
  for (const task of tasks)
    byTask[task] = crossedBootstrapConditionEffect(
      answers.filter((a) => a.task === task),
      options,
    );
  return { overall: crossedBootstrapConditionEffect(answers, options), byTask };
}
