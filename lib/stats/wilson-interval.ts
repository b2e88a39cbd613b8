import { assertConfidenceLevel, toTwoSidedZ } from "./normal-quantile";

export interface WilsonInterval {
  k: number;
  n: number;
  confidence: number;
  /** k / n, or null when n = 0. */
  estimate: number | null;
  low: number;
  high: number;
}

/**
 * Wilson score interval for a binomial proportion (Wilson 1927; Newcombe 1998 method 3), without
 * continuity correction: the same limits as R's prop.test(k, n, correct = FALSE).
 * n = 0 gives the uninformative [0, 1] with a null estimate; k = 0 and k = n give exactly 0 and 1
 * at the closed end (the closed form reaches them only up to rounding).
 */
export function wilsonInterval(k: number, n: number, confidence = 0.95): WilsonInterval {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`wilsonInterval: n must be a non-negative integer, got ${n}`);
  if (!Number.isInteger(k) || k < 0 || k > n)
    throw new RangeError(`wilsonInterval: k must be an integer in [0, n=${n}], got ${k}`);
  assertConfidenceLevel(confidence);
  if (n === 0) return { k, n, confidence, estimate: null, low: 0, high: 1 };
  const p = k / n;
  const { low, high } = wilsonLimits(p, n, confidence);
  return { k, n, confidence, estimate: p, low, high };
}

/**
 * Wilson score limits for an observed proportion p over n answers, where n may be fractional (an
 * effective sample size n / design effect): the score interval's formula is continuous in n. p = 0
 * and p = 1 close exactly at 0 and 1; the open end is then z² / (n + z²) away from them.
 */
export function wilsonLimits(p: number, n: number, confidence = 0.95): { low: number; high: number } {
  if (!Number.isFinite(n) || n <= 0) throw new RangeError(`wilsonLimits: n must be a positive number, got ${n}`);
  if (!Number.isFinite(p) || p < 0 || p > 1) throw new RangeError(`wilsonLimits: p must be in [0, 1], got ${p}`);
  const z = toTwoSidedZ(confidence);
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const halfWidth = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: p === 0 ? 0 : Math.max(0, centre - halfWidth), high: p === 1 ? 1 : Math.min(1, centre + halfWidth) };
}
