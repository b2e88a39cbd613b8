import { describe, expect, it } from "vitest";
import { PAPER_BEST_MODEL_EXACT, PAPER_HUMAN_EXACT, planStudy, summarizePilot } from "@/lib/results/sample-size-plan";
import { answersForDifference, answersForPrecision, estimateIcc } from "@/lib/stats/sample-size";
import { THREE_PARTICIPANTS } from "./fixtures";

describe("study sample-size plan", () => {
  it("uses the paper's human row by default and takes the largest column need", () => {
    expect(PAPER_HUMAN_EXACT.rotation).toBeCloseTo(0.58, 12);
    const plan = planStudy({
      target: { kind: "precision", halfWidth: 0.1 },
      columns: ["translation", "rotation", "residue_ligand_pos"],
      itemsPerTask: 10,
      answersPerItem: 3,
      assumedIcc: 0.1,
    });
    const rot = plan.columns.find((c) => c.column === "rotation")!;
    const nEff = answersForPrecision({ p: 0.58, halfWidth: 0.1 });
    expect(rot).toMatchObject({
      expectedAccuracy: 0.58,
      expectedFrom: "paper",
      icc: 0.1,
      iccFrom: "assumed",
      answersPerParticipant: 10,
      effectiveAnswers: nEff,
    });
    expect(rot.designEffect).toBeCloseTo(1.9, 12);
    expect(rot.answers).toBe(Math.ceil(nEff * 1.9 - 1e-9));
    expect(rot.participants).toBe(Math.ceil(rot.answers / 10));
    // T4 Pos. gets half the task's items per participant.
    expect(plan.columns.find((c) => c.column === "residue_ligand_pos")!.answersPerParticipant).toBe(5);
    expect(plan.participants).toBe(Math.max(...plan.columns.map((c) => c.participants)));
    expect(plan.itemsPerTask.residue_ligand).toBe(plan.columns.find((c) => c.column === "residue_ligand_pos")!.items);
  });

  it("recomputes from a pilot: observed accuracy and the pilot's ICC replace the defaults", () => {
    const pilot = summarizePilot(THREE_PARTICIPANTS);
    const t1 = pilot.find((p) => p.column === "translation")!;
    // translation: P1 1,0; P2 1,1; P3 0,0 → 3/6.
    expect(t1).toMatchObject({ accuracy: 0.5, nParticipants: 3, nAnswers: 6 });
    expect(t1.icc).toBe(
      estimateIcc([
        [1, 0],
        [1, 1],
        [0, 0],
      ])!.icc,
    );
    const plan = planStudy({
      target: { kind: "precision", halfWidth: 0.1 },
      columns: ["translation", "zooming"],
      itemsPerTask: 4,
      answersPerItem: 2,
      assumedIcc: 0.05,
      pilot,
    });
    expect(plan.columns[0]).toMatchObject({
      expectedFrom: "pilot",
      expectedAccuracy: 0.5,
      iccFrom: "pilot",
      icc: t1.icc,
    });
    // No pilot answers for zooming: the paper's human row and the assumed ICC.
    expect(plan.columns[1]).toMatchObject({
      expectedFrom: "paper",
      expectedAccuracy: 0.3,
      iccFrom: "assumed",
      icc: 0.05,
    });
  });

  it("plans a difference from the paper's best model on each column", () => {
    expect(PAPER_BEST_MODEL_EXACT.translation).toEqual({ model: "Gemini 2.5 Flash-Lite", accuracy: 0.3629 });
    const plan = planStudy({
      target: { kind: "difference", difference: 0.1 },
      columns: ["translation"],
      itemsPerTask: 5,
      answersPerItem: 3,
      assumedIcc: 0,
    });
    const c = plan.columns[0]!;
    expect(c).toMatchObject({ modelAccuracy: 0.3629, alternativeAccuracy: 0.4629 });
    expect(c.effectiveAnswers).toBe(answersForDifference({ p0: 0.3629, p1: 0.4629 }));
    expect(c.answers).toBe(c.effectiveAnswers);
  });

  it("reports an impossible column instead of failing the plan", () => {
    const plan = planStudy({
      target: { kind: "precision", halfWidth: 0.7 },
      columns: ["translation"],
      itemsPerTask: 5,
      answersPerItem: 3,
      assumedIcc: 0,
    });
    expect(plan.columns).toEqual([]);
    expect(plan.problems[0]).toMatch(/^Trans: half-width/);
  });
});
