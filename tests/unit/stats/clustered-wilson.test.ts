import { describe, expect, it } from "vitest";
import { clusteredWilsonInterval } from "@/lib/stats/clustered-wilson";
import { wilsonInterval, wilsonLimits } from "@/lib/stats/wilson-interval";

const Z2 = 1.959963984540054 ** 2; // 3.841458820694124

/*
 * Reference: statsmodels 0.13.5+dfsg (Debian python3-statsmodels), proportion_confint(count, nobs,
 * alpha=0.05, method="wilson"), which accepts fractional count and nobs; figures in the comments.
 */
describe("clusteredWilsonInterval", () => {
  it("0/3, one answer each: the bound ρ = 1 changes nothing (DE 1), Wilson 0/3 = [0, 56.1] %", () => {
    const ci = clusteredWilsonInterval([[0], [0], [0]]);
    // By hand: the open end is z²/(n + z²) = 3.841459 / 6.841459 = 0.561497. statsmodels: (0.0, 0.5614970317550454).
    expect(ci).toMatchObject({
      estimate: 0,
      low: 0,
      nClusters: 3,
      nObservations: 3,
      icc: 1,
      iccSource: "bound",
      designEffect: 1,
      effectiveN: 3,
    });
    expect(ci.high).toBeCloseTo(Z2 / (3 + Z2), 12);
    expect(ci.high).toBeCloseTo(0.5614970317550454, 12);
  });

  it("20 participants × 10 answers, all right: ρ = 1 bound, DE 10, n_eff 20 → [83.9, 100] %", () => {
    const ci = clusteredWilsonInterval(Array.from({ length: 20 }, () => Array<number>(10).fill(1)));
    // low = n_eff / (n_eff + z²) = 20 / 23.841459 = 0.838875; statsmodels proportion_confint(20, 20): (0.8388748419471804, 1.0).
    expect(ci).toMatchObject({
      estimate: 1,
      high: 1,
      iccSource: "bound",
      designEffect: 10,
      effectiveN: 20,
      weightedClusterSize: 10,
    });
    expect(ci.low).toBeCloseTo(20 / (20 + Z2), 12);
    expect(ci.low).toBeCloseTo(0.8388748419471804, 12);
    // Treating the 200 answers as independent would claim [98.1, 100] % (statsmodels: 0.9811546736227335).
    expect(wilsonInterval(200, 200).low).toBeCloseTo(0.9811546736227335, 12);
  });

  it("unequal cluster sizes 1, 2, 3 all wrong: DE = Σm²/Σm = 14/6, n_eff = 36/14", () => {
    const ci = clusteredWilsonInterval([[0], [0, 0], [0, 0, 0]]);
    expect(ci.weightedClusterSize).toBeCloseTo(14 / 6, 12);
    expect(ci.designEffect).toBeCloseTo(14 / 6, 12);
    expect(ci.effectiveN).toBeCloseTo(36 / 14, 12); // (Σm)²/Σm² = 2.571429
    // z² / (2.571429 + z²) = 0.599022; statsmodels proportion_confint(0, 36/14): (0.0, 0.5990217176451283).
    expect(ci.high).toBeCloseTo(Z2 / (36 / 14 + Z2), 12);
    expect(ci.high).toBeCloseTo(0.5990217176451283, 12);
  });

  it("small n with clustering: 4 participants × 5 answers, 10/20 right, ANOVA ρ = 0.6739, DE 3.70, n_eff 5.41", () => {
    // Participant means 1, 0.8, 0.2, 0: SSB = 5·0.68 = 3.4, MSB = 3.4/3; SSW = 0 + 0.8 + 0.8 + 0 = 1.6, MSW = 0.1;
    // m₀ = 5; ρ = (1.13333 − 0.1) / (1.13333 + 4·0.1) = 0.673913; DE = 1 + 4ρ = 3.695652; n_eff = 20/DE = 5.411765.
    const ci = clusteredWilsonInterval([
      [1, 1, 1, 1, 1],
      [1, 1, 1, 1, 0],
      [1, 0, 0, 0, 0],
      [0, 0, 0, 0, 0],
    ]);
    expect(ci.iccSource).toBe("estimated");
    expect(ci.icc).toBeCloseTo(0.673913, 6);
    expect(ci.designEffect).toBeCloseTo(3.695652, 6);
    expect(ci.effectiveN).toBeCloseTo(5.411765, 6);
    // statsmodels proportion_confint(0.5 · n_eff, n_eff, method="wilson") = (0.17784003555676303, 0.8221599644432369);
    // ρ, DE and n_eff recomputed there with numpy from the same one-way ANOVA formulas.
    expect(ci.low).toBeCloseTo(0.17784003555676303, 12);
    expect(ci.high).toBeCloseTo(0.8221599644432369, 12);
    // Answers as independent would give Wilson 10/20 = [29.9, 70.1] % (statsmodels: 0.2992980081982123).
    expect(wilsonInterval(10, 20).low).toBeCloseTo(0.2992980081982123, 12);
  });

  it("no clustering (ρ̂ truncated at 0) gives plain Wilson on all answers", () => {
    // Means 0.75, 0.25, 0.5 of 4 answers each: MSB = 0.25 < MSW = 0.2778 → ρ̂ < 0 → 0.
    const ci = clusteredWilsonInterval([
      [1, 1, 1, 0],
      [1, 0, 0, 0],
      [1, 1, 0, 0],
    ]);
    expect(ci).toMatchObject({ icc: 0, iccSource: "estimated", designEffect: 1, effectiveN: 12 });
    expect([ci.low, ci.high]).toEqual([wilsonInterval(6, 12).low, wilsonInterval(6, 12).high]);
  });

  it("one participant counts as one answer (ρ cannot be estimated), partial scores are allowed, bad input throws", () => {
    const one = clusteredWilsonInterval([[1, 1, 0, 1]]);
    expect(one).toMatchObject({ iccSource: "bound", designEffect: 4, effectiveN: 1 });
    expect(one.low).toBeGreaterThan(0);
    expect(one.high).toBeLessThan(1);
    const partial = clusteredWilsonInterval([
      [0.5, 0.5],
      [0.5, 0.5],
    ]);
    expect(partial.high - partial.low).toBeGreaterThan(0);
    expect(() => clusteredWilsonInterval([])).toThrow(/no observations/);
    expect(() => clusteredWilsonInterval([[1.5]])).toThrow(/cluster 0, value 0/);
  });

  it("wilsonLimits with an integer n equals wilsonInterval", () => {
    for (const [k, n] of [
      [0, 7],
      [3, 7],
      [7, 7],
      [15, 50],
    ] as const) {
      const w = wilsonInterval(k, n);
      expect(wilsonLimits(k / n, n)).toEqual({ low: w.low, high: w.high });
    }
    expect(() => wilsonLimits(0.5, 0)).toThrow(/positive/);
  });
});
