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
  it("inflates each condition's answers by the participant design effect and doubles the participants", () => {
    const plan = planStudy({
      target: { kind: "condition", difference: 0.1 },
      columns: ["translation"],
      itemsPerTask: 10,
      answersPerItem: 5,
      assumedIcc: 0.1,
      pilot: [{ column: "translation", accuracy: 0.5, nParticipants: 8, nAnswers: 80, icc: null }],
    });
    const c = plan.columns[0]!;
    // 388 independent answers per condition; DE = 1 + 9·0.1 = 1.9 → ⌈737.2⌉ = 738 answers, ⌈73.8⌉ = 74 participants per condition.
    expect(c.perCondition).toEqual({ effectiveAnswers: 388, answers: 738, participants: 74 });
    expect(c).toMatchObject({ expectedAccuracy: 0.5, alternativeAccuracy: 0.6, designEffect: 1.9, answers: 1476, participants: 148, items: 296 });
    expect(plan.participants).toBe(148);
  });

  it("puts the alternative below the static accuracy near 100 % (the paper's humans on T1)", () => {
    const plan = planStudy({ target: { kind: "condition", difference: 0.1 }, columns: ["translation", "rotation"], itemsPerTask: 4, answersPerItem: 10, assumedIcc: 0 });
    const t1 = plan.columns.find((c) => c.column === "translation")!;
    expect(t1.expectedAccuracy).toBe(1);
    expect(t1.alternativeAccuracy).toBeCloseTo(0.9, 12);
    expect(t1.perCondition!.effectiveAnswers).toBe(answersPerGroupForTwoProportions({ p1: 1, p2: 0.9 }));
    expect(plan.participants).toBe(Math.max(...plan.columns.map((c) => c.participants)));
  });
});
