import { createRng } from "@/lib/rng";
import { quantileSorted } from "./descriptive";
import { assertConfidenceLevel } from "./normal-quantile";

/** Replicates when the caller gives none: enough for stable 2.5/97.5 percentiles at our sample sizes. */
export const DEFAULT_BOOTSTRAP_REPLICATES = 2000;

export interface BootstrapOptions {
  /** Seed for createRng; recorded in the result so an interval can be reproduced exactly. */
  seed: string | number;
  replicates?: number;
  confidence?: number;
}

export interface BootstrapInterval {
  /** Pooled mean of all observations (Σ scores / Σ counts), or null when there are none. */
  estimate: number | null;
  /** Percentile interval of the replicate pooled means; null when there are no observations. */
  low: number | null;
  high: number | null;
  confidence: number;
  replicates: number;
  seed: string | number;
  /** Clusters with at least one observation (empty clusters carry no data and are not resampled). */
  nClusters: number;
  nObservations: number;
}

/**
 * Cluster (participant) bootstrap of a pooled mean: each replicate draws as many clusters as
 * there are, with replacement, and takes Σ scores / Σ counts over the drawn clusters. Resampling
 * participants rather than responses keeps each person's correlated answers together, so the
 * interval reflects between-participant variation. The interval is the percentile interval
 * (type-7 quantiles at α/2 and 1 − α/2 of the replicate means).
 */
export function bootstrapClusterMean(
  clusters: readonly (readonly number[])[],
  options: BootstrapOptions,
): BootstrapInterval {
  const replicates = options.replicates ?? DEFAULT_BOOTSTRAP_REPLICATES;
  const confidence = options.confidence ?? 0.95;
  assertConfidenceLevel(confidence);
  if (!Number.isInteger(replicates) || replicates < 1) {
    throw new RangeError(`bootstrap: replicates must be a positive integer, got ${replicates}`);
  }
  const sums: number[] = [];
  const counts: number[] = [];
  clusters.forEach((values, i) => {
    if (values.length === 0) return;
    let s = 0;
    values.forEach((v, j) => {
      if (!Number.isFinite(v))
        throw new RangeError(`bootstrap: cluster ${i}, value ${j} is not a finite number (${v})`);
      s += v;
    });
    sums.push(s);
    counts.push(values.length);
  });
  const nClusters = sums.length;
  const nObservations = counts.reduce((a, b) => a + b, 0);
  const base = { confidence, replicates, seed: options.seed, nClusters, nObservations };
  if (nClusters === 0) return { ...base, estimate: null, low: null, high: null };

  const rng = createRng(options.seed);
  const means = new Float64Array(replicates);
  for (let r = 0; r < replicates; r++) {
    let s = 0;
    let c = 0;
    for (let i = 0; i < nClusters; i++) {
      const pick = Math.floor(rng.next() * nClusters);
      s += sums[pick] as number;
      c += counts[pick] as number;
    }
    means[r] = s / c;
  }
  means.sort();
  const sorted = Array.from(means);
  const alpha = 1 - confidence;
  return {
    ...base,
    estimate: sums.reduce((a, b) => a + b, 0) / nObservations,
    low: quantileSorted(sorted, alpha / 2),
    high: quantileSorted(sorted, 1 - alpha / 2),
  };
}
