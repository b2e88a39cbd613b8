import { assertConfidenceLevel } from "./normal-quantile";
import { estimateIcc } from "./sample-size";
import { wilsonLimits } from "./wilson-interval";

export interface ClusteredWilsonInterval {
  /** Pooled mean Σ scores / Σ answers. */
  estimate: number;
  low: number;
  high: number;
  confidence: number;
  nClusters: number;
  nObservations: number;
  /** Σ mᵢ² / Σ mᵢ over the clusters' sizes mᵢ: m when every participant gave m answers, larger when sizes vary. */
  weightedClusterSize: number;
  icc: number;
  /**
   * "estimated": the one-way ANOVA estimate (estimateIcc, truncated at 0). "bound": ρ = 1, used when the
   * answers cannot estimate it — every score equal (0 % or 100 %), a single participant, or nobody with two
   * answers (then the design effect is 1 whatever ρ is).
   */
  iccSource: "estimated" | "bound";
  /** Kish's design effect for unequal clusters, 1 + (Σmᵢ²/Σmᵢ − 1) ρ. */
  designEffect: number;
  /** Σ mᵢ / design effect: the number of independent answers the clustered ones are worth. */
  effectiveN: number;
}

/**
 * Wilson score interval on the design-effect-adjusted sample size: a proportion interval that counts
 * a participant's correlated answers as fewer independent ones (Kish 1965; for unequal cluster sizes
 * Eldridge, Ashby & Kerry 2006, DE = 1 + ((cv² + 1) m̄ − 1) ρ, which is 1 + (Σmᵢ²/Σmᵢ − 1) ρ). The
 * interval is Wilson's for the pooled mean p̂ over n_eff = n / DE answers. It never has zero width
 * (n_eff is finite), and where ρ cannot be estimated it takes the bound ρ = 1, so with equal cluster
 * sizes each participant counts as one answer. Scores in [0, 1] that are not 0/1 (partial credit)
 * have variance at most p(1 − p), so the binomial form is conservative for them.
 */
export function clusteredWilsonInterval(
  clusters: readonly (readonly number[])[],
  confidence = 0.95,
): ClusteredWilsonInterval {
  assertConfidenceLevel(confidence);
  const used = clusters.filter((c) => c.length > 0);
  let n = 0;
  let sumSquares = 0;
  let total = 0;
  let first: number | null = null;
  let allEqual = true;
  used.forEach((c, i) => {
    n += c.length;
    sumSquares += c.length * c.length;
    c.forEach((v, j) => {
      if (!Number.isFinite(v) || v < 0 || v > 1)
        throw new RangeError(`clusteredWilsonInterval: cluster ${i}, value ${j} is not a score in [0, 1] (${v})`);
      total += v;
      if (first === null) first = v;
      else if (v !== first) allEqual = false;
    });
  });
  if (n === 0) throw new RangeError("clusteredWilsonInterval: no observations");
  const estimate = Math.min(1, Math.max(0, total / n));
  const weightedClusterSize = sumSquares / n;
  const estimated = allEqual ? null : estimateIcc(used);
  const icc = estimated ? estimated.icc : 1;
  const designEffect = 1 + (weightedClusterSize - 1) * icc;
  const effectiveN = n / designEffect;
  const { low, high } = wilsonLimits(estimate, effectiveN, confidence);
  return {
    estimate,
    low,
    high,
    confidence,
    nClusters: used.length,
    nObservations: n,
    weightedClusterSize,
    icc,
    iccSource: estimated ? "estimated" : "bound",
    designEffect,
    effectiveN,
  };
}
