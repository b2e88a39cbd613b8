import { describe, expect, it } from "vitest";
import {
  formatConditionEffect,
  formatEffectInterval,
  formatPp,
  reportedConditionEffect,
  summarizeConditionEffect,
  toCrossedAnswers,
} from "@/lib/results/condition-effect";
import { summarizeHumanResults } from "@/lib/results/summarize";
import { participantWelchInterval } from "@/lib/stats/condition-effect-interval";
import { crossedBootstrapConditionEffect } from "@/lib/stats/crossed-bootstrap";
import { makeRecord, THREE_PARTICIPANTS } from "./fixtures";

describe("condition effect from response records", () => {
  it("uses the exact score, the result column as the task, and only the two conditions", () => {
    const answers = toCrossedAnswers([...THREE_PARTICIPANTS, makeRecord({ condition: "pilot-3d" })]);
    expect(answers).toHaveLength(THREE_PARTICIPANTS.length);
    expect(answers.filter((a) => a.task === "residue_ligand_pos").map((a) => a.participantId)).toEqual(["P1", "P2"]);
    expect(answers.find((a) => a.participantId === "P1" && a.itemId === "t2")).toEqual({
      participantId: "P1",
      itemId: "t2",
      task: "translation",
      condition: "static",
      correct: 0,
    });
  });

  it("gives the hand-counted estimates on three participants (P1, P2 static; P3 interactive)", () => {
    const s = summarizeConditionEffect(THREE_PARTICIPANTS, { replicates: 200 });
    // Static: P1 3/5 + P2 4/4 = 7/9; interactive: P3 1/4. Difference 1/4 − 7/9 = −19/36.
    expect(s.estimable).toBe(true);
    expect(s.overall.estimate).toBeCloseTo(1 / 4 - 7 / 9, 15);
    expect(s.overall.byCondition.static).toMatchObject({ nParticipants: 2, nItems: 5, nAnswers: 9, nCorrect: 7 });
    expect(s.overall.byCondition.interactive).toMatchObject({ nParticipants: 1, nItems: 4, nAnswers: 4, nCorrect: 1 });
    expect(s.overall.seed).toBe(20261201);
    const byColumn = Object.fromEntries(s.columns.map((c) => [c.column, c.effect.estimate]));
    // Translation: static 3/4, interactive 0/2. ResLig+: static only. ResLig−: 1/1 vs 1/1. InterLoc: 2/2 vs 0/1.
    expect(byColumn).toEqual({
      translation: -0.75,
      residue_ligand_pos: null,
      residue_ligand_neg: 0,
      interaction_location: -1,
    });
    expect(s.columns.map((c) => c.label)).toEqual(["Trans", "ResLig+", "ResLig−", "InterLoc"]);
    // Each column on its own answers: the Welch interval on participants reported, the bootstrap (same seed) beside it.
    const translation = toCrossedAnswers(THREE_PARTICIPANTS).filter((a) => a.task === "translation");
    const boot = crossedBootstrapConditionEffect(translation, { replicates: 200 });
    expect(s.columns[0]!.effect).toEqual(reportedConditionEffect(translation, { replicates: 200 }));
    expect(s.columns[0]!.effect).toMatchObject({
      method: "welch-participants",
      bootstrapLow: boot.low,
      bootstrapHigh: boot.high,
      skipped: boot.skipped,
    });
    // One interactive participant: no Welch interval (a variance needs two).
    expect(participantWelchInterval(translation)).toMatchObject({ estimate: -0.75, low: null, high: null });
    expect(s.columns[0]!.effect).toMatchObject({ low: null, high: null });
  });

  it("is part of the human results summary, and not estimable with one condition", () => {
    const out = summarizeHumanResults(THREE_PARTICIPANTS, { seed: "s", replicates: 200 });
    if (!out.ok) throw new Error("summary failed");
    expect(out.value.conditionEffect).toEqual(summarizeConditionEffect(THREE_PARTICIPANTS, { replicates: 200 }));
    const onlyStatic = summarizeConditionEffect(
      THREE_PARTICIPANTS.filter((r) => r.condition === "static"),
      { replicates: 50 },
    );
    expect(onlyStatic.estimable).toBe(false);
    expect(onlyStatic.overall.estimate).toBeNull();
    expect(formatConditionEffect(onlyStatic.overall)).toBe("not estimable");
  });

  it("prints signed percentage points with one decimal under the one rounding rule", () => {
    expect(formatPp(0.042)).toBe("+4.2");
    expect(formatPp(-0.01)).toBe("−1.0");
    expect(formatPp(0.0945)).toBe("+9.5"); // 9.45 rounds half away from zero on its decimal form
    expect(formatPp(-0.0004)).toBe("0.0");
    expect(formatPp(-19 / 36)).toBe("−52.8");
    const e = crossedBootstrapConditionEffect(toCrossedAnswers(THREE_PARTICIPANTS), { replicates: 200 });
    expect(
      formatConditionEffect(reportedConditionEffect(toCrossedAnswers(THREE_PARTICIPANTS), { replicates: 200 })),
    ).toBe("−52.8 pp [no interval]");
    expect(formatConditionEffect(e)).toMatch(/^−52\.8 pp \[[−+]?\d+\.\d, [−+]?\d+\.\d\]$/);
  });
});

describe("a zero-width interval", () => {
  it("is printed as no spread, never as a point interval", () => {
    expect(formatEffectInterval({ low: 0, high: 0 })).toBe("[no spread]");
    expect(formatEffectInterval({ low: -0.01, high: 0.098 })).toBe("[−1.0, +9.8]");
    expect(formatEffectInterval({ low: null, high: null })).toBe("[no interval]");
  });
});
