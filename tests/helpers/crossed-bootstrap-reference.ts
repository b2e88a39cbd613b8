import type { CrossedAnswer } from "@/lib/stats/crossed-bootstrap";

const M = 2147483647;

/**
 * A straightforward re-implementation of docs/condition-effect.md for tests: materialise each replicate's
 * resampled data set (every answer of every drawn participant × drawn item pair) and count. Shares no code with
 * lib/stats/crossed-bootstrap.ts.
 */
export function referenceReplicates(
  answers: readonly CrossedAnswer[],
  seed: number,
  replicates: number,
): { values: number[]; skipped: number } {
  const participants = [...new Set(answers.map((a) => a.participantId))].sort();
  const items = [...new Set(answers.map((a) => a.itemId))].sort();
  const cell = new Map<string, CrossedAnswer[]>();
  for (const a of answers)
    cell.set(`${a.participantId}\u0000${a.itemId}`, [...(cell.get(`${a.participantId}\u0000${a.itemId}`) ?? []), a]);
  let s = seed;
  const next = () => {
    s = (16807 * s) % M;
    return s / M;
  };
  const values: number[] = [];
  let skipped = 0;
  for (let b = 0; b < replicates; b++) {
    const drawnP: string[] = [];
    for (let k = 0; k < participants.length; k++) drawnP.push(participants[Math.floor(next() * participants.length)]!);
    const drawnI: string[] = [];
    for (let k = 0; k < items.length; k++) drawnI.push(items[Math.floor(next() * items.length)]!);
    const sample: CrossedAnswer[] = [];
    for (const p of drawnP) for (const i of drawnI) sample.push(...(cell.get(`${p}\u0000${i}`) ?? []));
    const acc = (c: string) => {
      const xs = sample.filter((a) => a.condition === c);
      return xs.length === 0 ? null : xs.reduce((t, a) => t + a.correct, 0) / xs.length;
    };
    const x = acc("interactive");
    const st = acc("static");
    if (x === null || st === null) skipped++;
    else values.push(x - st);
  }
  return { values, skipped };
}

/** Type-7 quantile (R's default, numpy's "linear"), written out. */
export function referenceQuantile(values: readonly number[], p: number): number {
  const x = [...values].sort((a, b) => a - b);
  const h = (x.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, x.length - 1);
  return x[lo]! + (h - lo) * (x[hi]! - x[lo]!);
}
