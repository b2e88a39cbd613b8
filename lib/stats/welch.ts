import { studentTCdf, studentTQuantile } from "./student-t";

/*
 * The Welch difference of two independent condition accuracies: the one variance model the results page's condition-effect
 * interval (lib/stats/condition-effect-interval.ts) and the planner (lib/stats/sample-size.ts, point 2c) share.
 */

/** One condition's pooled accuracy, the variance of that accuracy and its participant count. */
export interface ConditionMoments {
  participants: number;
  /** Variance of the condition's accuracy (not of a participant's): V_c above. */
  variance: number;
}

export interface WelchDifference {
  standardError: number;
  /** Welch–Satterthwaite degrees of freedom; null when a condition has fewer than 2 participants. */
  df: number | null;
}

/** Standard error and Welch–Satterthwaite degrees of freedom of a difference of two independent condition accuracies. */
export function welchDifference(a: ConditionMoments, b: ConditionMoments): WelchDifference {
  for (const g of [a, b]) {
    if (!Number.isInteger(g.participants) || g.participants < 1)
      throw new RangeError(`participants per condition must be a positive integer, got ${g.participants}`);
    if (!(g.variance >= 0) || !Number.isFinite(g.variance))
      throw new RangeError(`variance must be finite and ≥ 0, got ${g.variance}`);
  }
  const standardError = Math.sqrt(a.variance + b.variance);
  if (a.participants < 2 || b.participants < 2) return { standardError, df: null };
  const denominator =
    (a.variance * a.variance) / (a.participants - 1) + (b.variance * b.variance) / (b.participants - 1);
  // Both variances 0: no spread to test against; df is then irrelevant (the interval has width 0), take the smaller group's.
  const df =
    denominator === 0 ? Math.min(a.participants, b.participants) - 1 : (a.variance + b.variance) ** 2 / denominator;
  return { standardError, df };
}

/** Power of the two-sided Welch test at level α when the true difference is delta (noncentrality approximated by a shifted central t). */
export function welchPower(delta: number, difference: WelchDifference, alpha = 0.05): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (difference.df === null) return 0;
  if (difference.standardError === 0) return delta === 0 ? alpha : 1;
  const critical = studentTQuantile(1 - alpha / 2, difference.df);
  const shift = Math.abs(delta) / difference.standardError;
  return 1 - studentTCdf(critical - shift, difference.df) + studentTCdf(-critical - shift, difference.df);
}
