import { describe, expect, it } from "vitest";
import { bootstrapClusterMean } from "@/lib/stats/bootstrap";

const CLUSTERS = [
  [1, 1, 0, 1],
  [0, 0, 1],
  [1, 1, 1, 1, 1],
  [0, 1],
  [1, 0, 0, 0],
];

describe("bootstrapClusterMean", () => {
  it("is deterministic for a fixed seed and records it", () => {
    const a = bootstrapClusterMean(CLUSTERS, { seed: "study-1", replicates: 500 });
    const b = bootstrapClusterMean(CLUSTERS, { seed: "study-1", replicates: 500 });
    expect(a).toEqual(b);
    expect(a.seed).toBe("study-1");
    expect(a.replicates).toBe(500);
    const c = bootstrapClusterMean(CLUSTERS, { seed: "study-2", replicates: 500 });
    expect([c.low, c.high]).not.toEqual([a.low, a.high]);
  });

  it("pooled estimate by hand and an interval that contains it", () => {
    const r = bootstrapClusterMean(CLUSTERS, { seed: 7 });
    // 11 correct of 18 responses.
    expect(r.estimate).toBeCloseTo(11 / 18, 12);
    expect(r).toMatchObject({ nClusters: 5, nObservations: 18, replicates: 2000, confidence: 0.95 });
    expect(r.low!).toBeLessThan(r.estimate!);
    expect(r.high!).toBeGreaterThan(r.estimate!);
    // Replicate means are pooled means of 5 drawn clusters, so they stay within the most extreme
    // possible draws: all from cluster 5 (1/4) … all from cluster 3 (1).
    expect(r.low!).toBeGreaterThanOrEqual(1 / 4);
    expect(r.high!).toBeLessThanOrEqual(1);
  });

  it("all-correct data gives exactly [1, 1]; empty data gives nulls", () => {
    expect(bootstrapClusterMean([[1, 1], [1]], { seed: 1 })).toMatchObject({ estimate: 1, low: 1, high: 1 });
    expect(bootstrapClusterMean([[], []], { seed: 1 })).toMatchObject({
      estimate: null,
      low: null,
      high: null,
      nClusters: 0,
    });
  });

  it("a wider confidence level gives a wider interval from the same replicates", () => {
    const r90 = bootstrapClusterMean(CLUSTERS, { seed: 3, confidence: 0.9 });
    const r99 = bootstrapClusterMean(CLUSTERS, { seed: 3, confidence: 0.99 });
    expect(r99.low!).toBeLessThanOrEqual(r90.low!);
    expect(r99.high!).toBeGreaterThanOrEqual(r90.high!);
    expect(r99.high! - r99.low!).toBeGreaterThan(r90.high! - r90.low!);
  });

  it("with every value its own cluster, many values approach the normal-theory interval", () => {
    // 200 Bernoulli values with p̂ = 0.5: SE = √(0.25/200) = 0.0354, so ±1.96·SE ≈ ±0.069.
    const values = Array.from({ length: 200 }, (_, i) => i % 2);
    const r = bootstrapClusterMean(
      values.map((v) => [v]),
      { seed: "normal-check" },
    );
    expect(r.estimate).toBe(0.5);
    expect(r.low!).toBeCloseTo(0.5 - 0.069, 1);
    expect(r.high!).toBeCloseTo(0.5 + 0.069, 1);
  });

  it("rejects bad options and values", () => {
    expect(() => bootstrapClusterMean(CLUSTERS, { seed: 1, replicates: 0 })).toThrow(/replicates/);
    expect(() => bootstrapClusterMean([[1, Number.NaN]], { seed: 1 })).toThrow(/cluster 0, value 1/);
    expect(() => bootstrapClusterMean(CLUSTERS, { seed: 1, confidence: 95 })).toThrow(/confidence/);
  });
});
