import { describe, expect, it } from "vitest";
import { toTwoSidedZ } from "@/lib/stats/normal-quantile";
import {
  answersForDifference,
  answersForPrecision,
  designEffect,
  estimateIcc,
  planClustered,
  wilsonHalfWidth,
} from "@/lib/stats/sample-size";

describe("sample size for a proportion's interval", () => {
  it("reproduces the textbook Wald examples", () => {
    // Cochran (1977): p = 0.5, ±5 points, 95 % → 384.15 → 385.
    expect(answersForPrecision({ p: 0.5, halfWidth: 0.05, method: "wald" })).toBe(385);
    // Lwanga & Lemeshow (WHO 1991), anticipated 30 %, ±5 points → 322.7 → 323.
    expect(answersForPrecision({ p: 0.3, halfWidth: 0.05, method: "wald" })).toBe(323);
    // ±10 points at p = 0.5 → 96.04 → 97 (the "96" of the WHO EPI cluster survey before its design effect).
    expect(answersForPrecision({ p: 0.5, halfWidth: 0.1, method: "wald" })).toBe(97);
  });

  it("finds the smallest n whose Wilson interval is narrow enough, also at 100 % accuracy", () => {
    for (const [p, h] of [
      [0.5, 0.05],
      [0.3, 0.05],
      [0.9, 0.03],
      [0.7018, 0.1],
    ] as const) {
      const n = answersForPrecision({ p, halfWidth: h });
      expect(wilsonHalfWidth(p, n)).toBeLessThanOrEqual(h);
      expect(wilsonHalfWidth(p, n - 1)).toBeGreaterThan(h);
    }
    // At p = 1 the Wilson half-width is z²/(2(n + z²)); ≤ 0.05 needs n ≥ 9 z² = 34.57 → 35. Wald would say 1.
    expect(answersForPrecision({ p: 1, halfWidth: 0.05 })).toBe(35);
    expect(answersForPrecision({ p: 1, halfWidth: 0.05, method: "wald" })).toBe(1);
  });

  it("refuses targets that are not proportions or half-widths", () => {
    expect(() => answersForPrecision({ p: 1.2, halfWidth: 0.05 })).toThrow(/proportion/);
    expect(() => answersForPrecision({ p: 0.5, halfWidth: 0 })).toThrow(/half-width/);
    expect(() => answersForPrecision({ p: 0.5, halfWidth: 5 })).toThrow(/half-width/);
  });
});

describe("sample size to detect a difference from a model's accuracy", () => {
  it("follows Fleiss–Levin–Paik's one-sample formula (p0 0.3 vs p1 0.5, α 0.05, power 0.8 → 43.5 → 44)", () => {
    expect(answersForDifference({ p0: 0.3, p1: 0.5 })).toBe(44);
  });

  it("reproduces Chow, Shao & Wang's example with the alternative variance (≈ 49; 49.06 with unrounded z → 50)", () => {
    expect(answersForDifference({ p0: 0.3, p1: 0.5, variance: "alternative" })).toBe(50);
  });

  it("grows as the difference shrinks and refuses a zero difference", () => {
    const big = answersForDifference({ p0: 0.3, p1: 0.5 });
    const small = answersForDifference({ p0: 0.3, p1: 0.35 });
    expect(small).toBeGreaterThan(big * 10);
    expect(() => answersForDifference({ p0: 0.3, p1: 0.3 })).toThrow(/no difference/);
  });
});

describe("clustering: design effect and ICC", () => {
  it("applies Kish's design effect 1 + (m − 1)ρ", () => {
    expect(designEffect(1, 0.3)).toBe(1);
    expect(designEffect(10, 0.1)).toBeCloseTo(1.9, 12);
    expect(() => designEffect(5, -0.1)).toThrow(/ICC/);
  });

  it("matches the WHO EPI 30 × 7 cluster survey: ±10 points at p = 0.5 with DE 2 needs 193 children, 28 clusters of 7 (≤ 30)", () => {
    const z = toTwoSidedZ(0.95);
    // The survey's 96.04 independent answers (unrounded), times DE 2 = 192.07 → 193 answers.
    const plan = planClustered({
      effectiveAnswers: (z * z * 0.25) / 0.01,
      answersPerParticipant: 7,
      icc: 1 / 6,
      answersPerItem: 7,
    });
    expect(plan.designEffect).toBeCloseTo(2, 12);
    expect(plan.answers).toBe(193);
    expect(plan.participants).toBe(28);
    expect(plan.participants * 7).toBeLessThanOrEqual(210);
  });

  it("counts items: at most k answers per item, at least m items", () => {
    // 385 independent answers, 10 per participant, ρ = 0.05: DE 1.45 → 559 answers, 56 participants, 560 answers / k 3 → 187 items.
    const plan = planClustered({ effectiveAnswers: 385, answersPerParticipant: 10, icc: 0.05, answersPerItem: 3 });
    expect(plan).toEqual({ effectiveAnswers: 385, designEffect: 1.45, answers: 559, participants: 56, items: 187 });
    expect(planClustered({ effectiveAnswers: 5, answersPerParticipant: 10, icc: 0, answersPerItem: 100 }).items).toBe(
      10,
    );
  });

  it("estimates the ICC with the one-way ANOVA estimator (hand-checked)", () => {
    // Two people, 3 answers each: MSB 1/6, MSW 1/3, m0 3 → (1/6 − 1/3)/(1/6 + 2/3) = −0.2, truncated to 0.
    const neg = estimateIcc([
      [1, 1, 0],
      [1, 0, 0],
    ])!;
    expect(neg.raw).toBeCloseTo(-0.2, 12);
    expect(neg.icc).toBe(0);
    // Unequal sizes (4, 4, 5): m0 = (13 − 57/13)/2 = 4.3077, ρ = 0.428571 (computed independently).
    const une = estimateIcc([
      [1, 1, 1, 0],
      [0, 0, 0, 1],
      [1, 1, 1, 1, 1],
    ])!;
    expect(une.m0).toBeCloseTo(4.3077, 4);
    expect(une.icc).toBeCloseTo(0.428571, 6);
    expect(
      estimateIcc([
        [1, 1, 1],
        [0, 0, 0],
      ])!.icc,
    ).toBe(1);
    expect(estimateIcc([[1, 0, 1]])).toBeNull();
    expect(estimateIcc([[1], [0]])).toBeNull();
  });
});
