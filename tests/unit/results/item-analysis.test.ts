import { describe, expect, it } from "vitest";
import {
  analyzeItems,
  computeMultipleChoiceAgreement,
  listMostMissed,
  type ItemStats,
} from "@/lib/results/item-analysis";
import { makeRecord, THREE_PARTICIPANTS } from "./fixtures";

function items(input: unknown): ItemStats[] {
  const out = analyzeItems(input);
  if (!out.ok) throw new Error(JSON.stringify(out.issues));
  return out.value;
}

describe("analyzeItems", () => {
  const stats = items(THREE_PARTICIPANTS);
  const byId = (id: string) => stats.find((s) => s.itemId === id)!;

  it("orders items by result column, then id", () => {
    expect(stats.map((s) => s.itemId)).toEqual(["t1", "t2", "r1", "r2", "m1"]);
  });

  it("per-item accuracy, partial mean and answer distribution", () => {
    expect(byId("t1")).toMatchObject({
      nResponses: 3,
      nCorrect: 2,
      exactAccuracy: 2 / 3,
      nWithoutAnswer: 0,
      modalAnswer: "move x 2",
    });
    expect(byId("t1").answers).toEqual([
      { answer: "move x 2", count: 2 },
      { answer: "move x 3", count: 1 },
    ]);
    expect(byId("t1").partialMean).toBeCloseTo(2.5 / 3, 12);
    // t2: two different answers once each (tie → no modal answer) and one response without an answer.
    expect(byId("t2")).toMatchObject({ nCorrect: 1, nWithoutAnswer: 1, modalAnswer: null });
    expect(byId("r1")).toMatchObject({
      column: "residue_ligand_pos",
      exactAccuracy: 0.5,
      answers: [],
      modalAnswer: null,
    });
    expect(byId("m1").answers).toEqual([
      { answer: "A", count: 2 },
      { answer: "B", count: 1 },
    ]);
  });

  it("listMostMissed sorts by accuracy, then more responses, then id, above a threshold", () => {
    // Accuracies: t2 1/3 (n 3), r1 1/2 (n 2), m1 2/3 (n 3), t1 2/3 (n 3), r2 1 (n 2).
    expect(listMostMissed(stats, { minResponses: 2 }).map((s) => s.itemId)).toEqual(["t2", "r1", "m1", "t1", "r2"]);
    expect(listMostMissed(stats, { minResponses: 3 }).map((s) => s.itemId)).toEqual(["t2", "m1", "t1"]);
    expect(listMostMissed(stats, { minResponses: 3, limit: 2 }).map((s) => s.itemId)).toEqual(["t2", "m1"]);
  });

  it("passes record issues through", () => {
    expect(analyzeItems([makeRecord({ exact: 2 as never })])).toMatchObject({
      ok: false,
      issues: [{ index: 0, field: "exact" }],
    });
  });
});

describe("computeMultipleChoiceAgreement", () => {
  it("Fleiss' kappa over MC items, by hand", () => {
    // Item letters (gold A, B, A): i1 A A A (+1 response without a letter); i2 B B C; i3 D A A.
    // P_i = 1, 1/3, 1/3 → P̄ = 5/9; shares A 5/9, B 2/9, C 1/9, D 1/9 → P̄e = 31/81;
    // κ = (45/81 − 31/81) / (50/81) = 0.28.
    const letters: [string, string, string, string][] = [
      ["i1", "P1", "A", "A"],
      ["i1", "P2", "A", "A"],
      ["i1", "P3", "A", "A"],
      ["i2", "P1", "B", "B"],
      ["i2", "P2", "B", "B"],
      ["i2", "P3", "C", "B"],
      ["i3", "P1", "D", "A"],
      ["i3", "P2", "A", "A"],
      ["i3", "P3", "A", "A"],
    ];
    const records = letters.map(([itemId, participantId, answer, gold]) => {
      const exact = answer === gold ? 1 : 0;
      return makeRecord({ itemId, participantId, answer, taskId: "interaction_location", exact, partial: exact });
    });
    records.push(makeRecord({ itemId: "i1", participantId: "P4", taskId: "interaction_location" }));
    records.push(makeRecord({ itemId: "t9", participantId: "P1", taskId: "translation" }));
    const out = computeMultipleChoiceAgreement(records);
    if (!out.ok) throw new Error(JSON.stringify(out.issues));
    expect(out.value).toHaveLength(1);
    const [agreement] = out.value;
    expect(agreement).toMatchObject({ taskId: "interaction_location", nItems: 3, nWithoutAnswer: 1 });
    expect(agreement!.fleiss!.observedAgreement).toBeCloseTo(5 / 9, 12);
    expect(agreement!.fleiss!.chanceAgreement).toBeCloseTo(31 / 81, 12);
    expect(agreement!.fleiss!.kappa).toBeCloseTo(0.28, 12);
    expect(agreement!.fleiss!.ratersPerItem).toBe(3);
  });
});
