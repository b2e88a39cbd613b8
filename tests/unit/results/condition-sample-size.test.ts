import { describe, expect, it } from "vitest";
import { planStudy } from "@/lib/results/sample-size-plan";
import { answersPerGroupForTwoProportions } from "@/lib/stats/sample-size";

describe("answers per condition to detect a difference between two proportions", () => {
  it("gives Fleiss's n without continuity correction: 388 per group for 0.5 vs 0.6, α = 0.05, power 0.8", () => {
    // By hand: p̄ = 0.55, √(2·0.55·0.45) = 0.703562, √(0.25 + 0.24) = 0.7; z = 1.959964, z_β = 0.841621.
    // (1.959964·0.703562 + 0.841621·0.7)² / 0.1² = 1.968091² / 0.01 = 387.34 → 388 (R: power.prop.test(p1 = .5, p2 = .6, power = .8) n = 387.3385).
    expect(answersPerGroupForTwoProportions({ p1: 0.5, p2: 0.6 })).toBe(388);
    expect(answersPerGroupForTwoProportions({ p1: 0.6, p2: 0.5 })).toBe(388);
    // The textbook shortcut (z_α/2 + z_β)² (p1q1 + p2q2) / δ² = 2.801585² · 0.49 / 0.01 = 384.6 → 385.
    expect(answersPerGroupForTwoProportions({ p1: 0.5, p2: 0.6, variance: "alternative" })).toBe(385);
    // R: power.prop.test(p1 = .3, p2 = .45, power = .9) n = 216.8199.
    expect(answersPerGroupForTwoProportions({ p1: 0.3, p2: 0.45, power: 0.9 })).toBe(217);
    expect(() => answersPerGroupForTwoProportions({ p1: 0.4, p2: 0.4 })).toThrow(/no difference/);
    expect(() => answersPerGroupForTwoProportions({ p1: 0.4, p2: 1.2 })).toThrow(/second condition/);
  });
});

describe("planStudy: the condition target", () => {
  it("asks for the participants the page's Welch interval needs per condition, and doubles them", () => {
    const plan = planStudy({
      target: { kind: "condition", difference: 0.1 },
      columns: ["translation"],
      itemsPerTask: 10,
      answersPerItem: 5,
      assumedIcc: 0.1,
      pilot: [{ column: "translation", accuracy: 0.5, nParticipants: 8, nAnswers: 80, icc: null }],
    });
    const c = plan.columns[0]!;
    // DE = 1 + 9·0.1 = 1.9; the Welch test reaches 80 % at 75 per condition (74: 79.97 %; R with pt/qt, see
    // tests/unit/stats/condition-effect-interval.test.ts): 750 answers, worth ⌊750/1.9⌋ = 394 independent ones.
    expect(c.perCondition).toEqual({
      effectiveAnswers: 394,
      answers: 750,
      participants: 75,
      power: expect.closeTo(0.805, 3) as number,
    });
    expect(c).toMatchObject({
      expectedAccuracy: 0.5,
      alternativeAccuracy: 0.6,
      designEffect: 1.9,
      answers: 1500,
      participants: 150,
      items: 300,
    });
    expect(plan.participants).toBe(150);
  });

  it("puts the alternative below the static accuracy near 100 % (the paper's humans on T1)", () => {
    const plan = planStudy({
      target: { kind: "condition", difference: 0.1 },
      columns: ["translation", "rotation"],
      itemsPerTask: 4,
      answersPerItem: 10,
      assumedIcc: 0,
    });
    const t1 = plan.columns.find((c) => c.column === "translation")!;
    expect(t1.expectedAccuracy).toBe(1);
    expect(t1.alternativeAccuracy).toBeCloseTo(0.9, 12);
    // Static at 100 % has no variance: SE = √(0.09/(4G)), df = G − 1; R (1 − pt(qt(.975, G − 1) − 0.1/SE, G − 1) + …):
    // 80 % power first at G = 20 (19: 0.7844, 20: 0.8073).
    expect(t1.perCondition).toMatchObject({ participants: 20, answers: 80 });
    expect(plan.participants).toBe(Math.max(...plan.columns.map((c) => c.participants)));
  });
});
