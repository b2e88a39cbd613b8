import { describe, expect, it, vi } from "vitest";
import { summarizeConditionEffect } from "@/lib/results/condition-effect";
import { planStudy } from "@/lib/results/sample-size-plan";
import * as interval from "@/lib/stats/condition-effect-interval";
import type { Condition, CrossedAnswer } from "@/lib/stats/crossed-bootstrap";
import { participantsPerConditionForEffect, plannedConditionEffect } from "@/lib/stats/sample-size";
import { makeRecord } from "../results/fixtures";

import * as welch from "@/lib/stats/welch";

// Every caller of welchDifference goes through this spy, so the test below can see who computes with it.
vi.mock("@/lib/stats/welch", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/stats/welch")>();
  return { ...original, welchDifference: vi.fn(original.welchDifference) };
});

/** Answers of one participant: a list of 0/1 scores on items i0, i1, … */
function person(id: string, condition: Condition, scores: number[]): CrossedAnswer[] {
  return scores.map((correct, i) => ({ participantId: id, itemId: `i${i}`, task: "T", condition, correct }));
}

describe("participantWelchInterval (docs/condition-effect.md)", () => {
  it("equals R's Welch t.test on participant accuracies when every participant has the same number of answers", () => {
    // Static accuracies 0.5, 1, 0 (2 answers each); interactive 1, 0.5. By hand: estimate 0.75 − 0.5 = 0.25;
    // V_static = s²/3 = 0.25/3 = 1/12, V_interactive = 0.125/2 = 1/16, SE = √(7/48) = 0.381881,
    // df = (7/48)² / ((1/12)²/2 + (1/16)²/1) = 49/17. R: t.test(c(1, .5), c(.5, 1, 0))$conf.int = [−0.99386690, 1.49386690].
    const answers = [
      ...person("s1", "static", [1, 0]),
      ...person("s2", "static", [1, 1]),
      ...person("s3", "static", [0, 0]),
      ...person("x1", "interactive", [1, 1]),
      ...person("x2", "interactive", [1, 0]),
    ];
    const w = interval.participantWelchInterval(answers);
    expect(w.estimate).toBeCloseTo(0.25, 15);
    expect(w.standardError).toBeCloseTo(Math.sqrt(7 / 48), 15);
    expect(w.df).toBeCloseTo(49 / 17, 13);
    expect(w.low).toBeCloseTo(-0.9938668991026911, 12);
    expect(w.high).toBeCloseTo(1.4938668991026913, 12);
  });

  it("weights participants by their answers (the pooled accuracy's variance) when the counts differ", () => {
    // Static: 2/3, 0/1, 1/2 → p̂ = 3/6; Σ(cᵢ − mᵢp̂)² = 0.25 + 0.25 + 0 = 0.5; V = (3/2)·0.5/36 = 1/48.
    // Interactive: 2/2, 2/4 → p̂ = 4/6; Σ = 4/9 + 4/9; V = 2·(8/9)/36 = 4/81. Estimate 1/6.
    // SE = √(1/48 + 4/81) = 0.26498311, df = (V₁ + V₂)² / (V₁²/2 + V₂²/1) = 1.85651833; R: qt(.975, df) = 4.63756590,
    // interval 1/6 ∓ 4.63756590 · 0.26498311 = [−1.06220997, 1.39554331].
    const answers = [
      ...person("s1", "static", [1, 1, 0]),
      ...person("s2", "static", [0]),
      ...person("s3", "static", [1, 0]),
      ...person("x1", "interactive", [1, 1]),
      ...person("x2", "interactive", [1, 0, 0, 1]),
    ];
    const w = interval.participantWelchInterval(answers);
    expect(w.estimate).toBeCloseTo(1 / 6, 15);
    expect(w.standardError).toBeCloseTo(0.2649831115047071, 14);
    expect(w.df).toBeCloseTo(1.8565183275417552, 12);
    expect(w.low).toBeCloseTo(-1.0622099740466018, 11);
    expect(w.high).toBeCloseTo(1.3955433073799353, 11);
  });

  it("has no interval with one participant in a condition, and no spread when every participant scores alike", () => {
    expect(
      interval.participantWelchInterval([
        ...person("s1", "static", [1, 0]),
        ...person("x1", "interactive", [1]),
        ...person("x2", "interactive", [0]),
      ]),
    ).toMatchObject({
      estimate: 0,
      low: null,
      high: null,
    });
    const same = interval.participantWelchInterval([
      ...person("s1", "static", [1]),
      ...person("s2", "static", [1]),
      ...person("x1", "interactive", [1]),
      ...person("x2", "interactive", [1]),
    ]);
    expect(same).toMatchObject({ estimate: 0, low: 0, high: 0, standardError: 0 });
    expect(interval.participantWelchInterval(person("s1", "static", [1]))).toMatchObject({ estimate: null, low: null });
  });
});

describe("the planner plans for the interval the page reports", () => {
  it("gives the page's standard error and df for data with exactly the planned variance", () => {
    // 4 participants per condition, 4 answers each, accuracies 1/4, 3/4, 1/4, 3/4 in both: p̂ = 0.5, s² = 1/12.
    // The planner's variance of a participant's accuracy p q (1 + (m − 1)ρ)/m equals 1/12 at ρ = 1/9.
    const scores = [
      [1, 0, 0, 0],
      [1, 1, 1, 0],
      [0, 1, 0, 0],
      [0, 1, 1, 1],
    ];
    const answers = (["static", "interactive"] as const).flatMap((c) =>
      scores.flatMap((s, k) => person(`${c}${k}`, c, s)),
    );
    const page = interval.participantWelchInterval(answers);
    const planned = plannedConditionEffect({
      p1: 0.5,
      p2: 0.5,
      answersPerParticipant: 4,
      icc: 1 / 9,
      participantsPerCondition: 4,
    });
    // R: t.test(c(.25, .75, .25, .75), c(.25, .75, .25, .75)): stderr 0.20412415, df 6.
    expect(page.standardError).toBeCloseTo(0.20412414523193151, 14);
    expect(planned.standardError).toBeCloseTo(page.standardError!, 14);
    expect(planned.df).toBeCloseTo(6, 12);
    expect(page.df).toBeCloseTo(6, 12);
  });

  it("both go through welchDifference", () => {
    const spy = vi.mocked(welch.welchDifference);
    spy.mockClear();
    summarizeConditionEffect(
      [
        makeRecord({ participantId: "a", condition: "static" }),
        makeRecord({ participantId: "b", condition: "static" }),
        makeRecord({ participantId: "c", condition: "interactive" }),
        makeRecord({ participantId: "d", condition: "interactive", exact: 0 }),
      ],
      { replicates: 10 },
    );
    const fromPage = spy.mock.calls.length;
    expect(fromPage).toBeGreaterThan(0);
    planStudy({
      target: { kind: "condition", difference: 0.1 },
      columns: ["rotation"],
      itemsPerTask: 10,
      answersPerItem: 5,
      assumedIcc: 0.1,
    });
    expect(spy.mock.calls.length).toBeGreaterThan(fromPage);
  });

  it("asks for the smallest participant count whose Welch test reaches the power (R: pt/qt with the planned SE and df)", () => {
    // p 0.5 vs 0.6, m = 10, ρ = 0.1: power 0.79968287 with 74 per condition, 0.80500282 with 75 (R, same formula).
    expect(participantsPerConditionForEffect({ p1: 0.5, p2: 0.6, answersPerParticipant: 10, icc: 0.1 })).toEqual({
      participants: 75,
      power: expect.closeTo(0.805002819826766469, 10) as number,
    });
    // T1 at the paper's 100 %: the static condition has no variance, df = G − 1.
    expect(
      plannedConditionEffect({ p1: 1, p2: 0.9, answersPerParticipant: 4, icc: 0, participantsPerCondition: 81 }),
    ).toEqual({ standardError: expect.closeTo(1 / 60, 14) as number, df: 80 });
  });
});
