/** Small descriptive statistics shared by the results pages. Empty input gives null, never NaN. */

export interface Spread {
  n: number;
  min: number;
  median: number;
  max: number;
}

function assertFinite(values: readonly number[], where: string): void {
  values.forEach((v, i) => {
    if (!Number.isFinite(v)) throw new RangeError(`${where}: value at index ${i} is not a finite number (${v})`);
  });
}

/**
 * Quantile of already sorted values by linear interpolation between order statistics
 * (Hyndman & Fan 1996 type 7, the default of R's quantile() and NumPy's percentile()).
 */
export function quantileSorted(sorted: readonly number[], p: number): number | null {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile: p must be in [0, 1], got ${p}`);
  if (sorted.length === 0) return null;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const below = sorted[lo] as number;
  const above = sorted[Math.min(lo + 1, sorted.length - 1)] as number;
  // Written as a weighted sum so equal neighbours give exactly that value (no rounding drift).
  const w = h - lo;
  return w === 0 ? below : below * (1 - w) + above * w;
}

/** n, min, median and max in one pass over a sorted copy; null for no values. */
export function summarizeSpread(values: readonly number[]): Spread | null {
  if (values.length === 0) return null;
  assertFinite(values, "summarizeSpread");
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    min: sorted[0] as number,
    median: quantileSorted(sorted, 0.5) as number,
    max: sorted[sorted.length - 1] as number,
  };
}
