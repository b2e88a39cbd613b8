/**
 * MC validity: how well a test-taker who reads only the four option texts, never the
 * images, can guess the key. Three option-text-only strategies, each scored as an expected accuracy
 * per item (ties broken uniformly at random, so a tie among k options including the key is worth 1/k):
 *
 * - sign-mirror: pick among the options whose exact sign mirror (same commands, same magnitudes,
 *   some signs flipped) is also an option (in v1 T8 items the key always had its mirror there);
 * - median-of-options: pick the option closest (L1) to the per-command median of the four options;
 * - odd-one-out: pick the option farthest (summed L1) from the other three.
 *
 * Chance is 1/4. A strategy that beats chance by more than 5 points over many items means the
 * options leak the answer.
 */
import { MC_LETTERS, type McLetter } from "@/lib/tasks/types";

export const OPTION_TEXT_STRATEGIES = ["sign-mirror", "median-of-options", "odd-one-out"] as const;
export type OptionTextStrategy = (typeof OPTION_TEXT_STRATEGIES)[number];

/** "move x 3, roll y -45" → { "move x": 3, "roll y": -45 } (commands of the same kind and axis are summed). */
export function optionVector(text: string): Map<string, number> | null {
  const out = new Map<string, number>();
  for (const part of text.split(",")) {
    const m = /^\s*(move|roll)\s+([xyz])\s+([+-]?\d+(?:\.\d+)?)\s*$/i.exec(part);
    if (!m) return null;
    const key = `${m[1]!.toLowerCase()} ${m[2]!.toLowerCase()}`;
    out.set(key, (out.get(key) ?? 0) + Number(m[3]));
  }
  return out;
}

function keysOf(vs: readonly Map<string, number>[]): string[] {
  return [...new Set(vs.flatMap((v) => [...v.keys()]))].sort();
}

function l1(a: Map<string, number>, b: Map<string, number>, keys: readonly string[]): number {
  return keys.reduce((s, k) => s + Math.abs((a.get(k) ?? 0) - (b.get(k) ?? 0)), 0);
}

function isSignMirror(a: Map<string, number>, b: Map<string, number>): boolean {
  if (a.size !== b.size) return false;
  let differs = false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (w === undefined || Math.abs(Math.abs(v) - Math.abs(w)) > 1e-9) return false;
    if (Math.abs(v - w) > 1e-9) differs = true;
  }
  return differs;
}

/** Expected accuracy of picking uniformly among `picked` (indices) when `key` is the answer. */
function share(picked: readonly number[], key: number): number {
  if (picked.length === 0) return 0.25;
  return picked.includes(key) ? 1 / picked.length : 0;
}

function argBest(scores: readonly number[], better: (a: number, b: number) => boolean): number[] {
  let best: number[] = [];
  scores.forEach((s, i) => {
    if (best.length === 0 || better(s, scores[best[0]!]!)) best = [i];
    else if (Math.abs(s - scores[best[0]!]!) < 1e-9) best.push(i);
  });
  return best;
}

/** Expected accuracy of each strategy on one item (options in letter order, `key` its index). Null when an option is not a command list. */
export function scoreOptionTextStrategies(
  options: readonly string[],
  key: number,
): Record<OptionTextStrategy, number> | null {
  const vs = options.map(optionVector);
  if (vs.some((v) => v === null)) return null;
  const vectors = vs as Map<string, number>[];
  const keys = keysOf(vectors);
  const mirrored = vectors
    .map((v, i) => i)
    .filter((i) => vectors.some((w, j) => j !== i && isSignMirror(vectors[i]!, w)));
  const median = new Map(
    keys.map((k) => {
      const xs = vectors.map((v) => v.get(k) ?? 0).sort((a, b) => a - b);
      const mid = xs.length / 2;
      return [k, xs.length % 2 === 0 ? (xs[mid - 1]! + xs[mid]!) / 2 : xs[Math.floor(mid)]!];
    }),
  );
  const toMedian = vectors.map((v) => l1(v, median, keys));
  const spread = vectors.map((v, i) => vectors.reduce((s, w, j) => (j === i ? s : s + l1(v, w, keys)), 0));
  return {
    "sign-mirror": share(mirrored.length === vectors.length ? [] : mirrored, key),
    "median-of-options": share(
      argBest(toMedian, (a, b) => a < b - 1e-9),
      key,
    ),
    "odd-one-out": share(
      argBest(spread, (a, b) => a > b + 1e-9),
      key,
    ),
  };
}

export interface OptionTextReport {
  /** MC items measured. */
  items: number;
  chance: number;
  /** Mean expected accuracy of each strategy (fraction). */
  accuracy: Record<OptionTextStrategy, number>;
  /** Largest accuracy − chance over the strategies, in percentage points. */
  worstExcessPoints: number;
}

/** Option-text-only accuracies over MC items ({ options, letter }); items whose options are not command lists are skipped. */
export function measureOptionTextStrategies(
  items: readonly { options: readonly string[]; letter: McLetter }[],
): OptionTextReport {
  const sums: Record<OptionTextStrategy, number> = { "sign-mirror": 0, "median-of-options": 0, "odd-one-out": 0 };
  let n = 0;
  for (const item of items) {
    const s = scoreOptionTextStrategies(item.options, MC_LETTERS.indexOf(item.letter));
    if (!s) continue;
    n++;
    for (const k of OPTION_TEXT_STRATEGIES) sums[k] += s[k];
  }
  const accuracy = Object.fromEntries(OPTION_TEXT_STRATEGIES.map((k) => [k, n === 0 ? 0 : sums[k] / n])) as Record<
    OptionTextStrategy,
    number
  >;
  const worst = Math.max(...OPTION_TEXT_STRATEGIES.map((k) => accuracy[k] - 0.25));
  return { items: n, chance: 0.25, accuracy, worstExcessPoints: Math.round(worst * 1000) / 10 };
}
