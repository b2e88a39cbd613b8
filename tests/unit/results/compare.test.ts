import { describe, expect, it } from "vitest";
import { compareHumansWithModels, type Comparison } from "@/lib/results/compare";
import type { ModelResponseRecord } from "@/lib/results/response-records";
import { wilsonInterval } from "@/lib/stats/wilson-interval";
import { makeRecord } from "./fixtures";

function mc(itemId: string, participantId: string, exact: 0 | 1, condition = "static") {
  return makeRecord({ itemId, participantId, taskId: "interaction_location", exact, partial: exact, condition });
}
function model(
  modelId: string,
  itemId: string,
  exact: 0 | 1,
  taskId: ModelResponseRecord["taskId"] = "interaction_location",
): ModelResponseRecord {
  return { modelId, itemId, taskId, exact, partial: exact };
}
function compare(human: unknown, models: unknown, options = {}): Comparison {
  const out = compareHumansWithModels(human, models, options);
  if (!out.ok) throw new Error(JSON.stringify(out.issues));
  return out.value;
}

// Human responses per item (static): i1 3/3 correct, i2 1/2 (tie), i3 1/3, i4 1/1, i5 0/1 (no model).
const HUMANS = [
  mc("i1", "P1", 1),
  mc("i1", "P2", 1),
  mc("i1", "P3", 1),
  mc("i2", "P1", 1),
  mc("i2", "P2", 0),
  mc("i3", "P1", 1),
  mc("i3", "P2", 0),
  mc("i3", "P3", 0),
  mc("i4", "P1", 1),
  mc("i5", "P1", 0),
];
// M1 answers i1 ✗, i2 ✓, i3 ✓, i4 ✓ and i6 ✓ (no human); M2 answers i1 ✓, i2 ✗.
const MODELS = [
  model("M1", "i1", 0),
  model("M1", "i2", 1),
  model("M1", "i3", 1),
  model("M1", "i4", 1),
  model("M1", "i6", 1),
  model("M2", "i1", 1),
  model("M2", "i2", 0),
];

describe("compareHumansWithModels", () => {
  const result = compare(HUMANS, MODELS);
  const col = result.columns.find((c) => c.column === "interaction_location")!;

  it("matches items per model and forms McNemar pairs from the human majority", () => {
    const m1 = col.models.find((m) => m.modelId === "M1")!;
    expect(m1).toMatchObject({ nItems: 4, nHumanResponses: 9 });
    // Human majority on i1..i4: 1, tie→0, 0, 1. Model: 0, 1, 1, 1. b (human ✓, model ✗) = i1; c = i2, i3.
    expect(m1.mcnemar).toMatchObject({ b: 1, c: 2, n: 3, p: 1 });
    expect(m1.human.nTies).toBe(1);
    expect(m1.human.majority).toEqual(wilsonInterval(2, 4));
    expect(m1.human.meanOfItemMeans).toBeCloseTo((1 + 0.5 + 1 / 3 + 1) / 4, 12);
    expect(m1.model.mean).toBe(0.75);
    expect(m1.model.wilson).toEqual(wilsonInterval(3, 4));
    expect(m1.difference).toBeCloseTo(0.75 - 17 / 24, 12);
  });

  it("reports the best model − human difference and the unmatched items", () => {
    const m2 = col.models.find((m) => m.modelId === "M2")!;
    expect(m2.human.meanOfItemMeans).toBe(0.75);
    expect(m2.model.mean).toBe(0.5);
    expect(m2.mcnemar).toMatchObject({ b: 0, c: 0, p: 1 });
    expect(col.best).toMatchObject({ modelId: "M1", modelMean: 0.75, nItems: 4 });
    expect(col.best!.difference).toBeCloseTo(1 / 24, 12);
    expect(col).toMatchObject({ nHumanOnlyItems: 1, nModelOnlyItems: 1, label: "InterLoc" });
    expect(result.humanOutcomeRule).toMatch(/ties count as not correct/);
  });

  it("filters humans by condition", () => {
    const withInteractive = [...HUMANS, mc("i4", "P2", 0, "interactive"), mc("i4", "P3", 0, "interactive")];
    const pooled = compare(withInteractive, MODELS).columns[0]!.models.find((m) => m.modelId === "M1")!;
    const staticOnly = compare(withInteractive, MODELS, { condition: "static" }).columns[0]!.models.find(
      (m) => m.modelId === "M1",
    )!;
    // Pooled, i4 becomes 1/3 correct: majority flips to 0, so b = 1 still (i1) and c gains i4.
    expect(pooled.mcnemar).toMatchObject({ b: 1, c: 3 });
    expect(staticOnly.mcnemar).toMatchObject({ b: 1, c: 2 });
  });

  it("a one-sided table gives the textbook exact p", () => {
    // 10 translation items, humans right on all, the model right only on the first: b = 9, c = 0,
    // p = 2 · 0.5^9 = 0.00390625.
    const humans = Array.from({ length: 10 }, (_, i) => makeRecord({ itemId: `t${i}` }));
    const models = Array.from({ length: 10 }, (_, i) => model("M", `t${i}`, i === 0 ? 1 : 0, "translation"));
    const c = compare(humans, models, { midP: true }).columns[0]!;
    expect(c.column).toBe("translation");
    expect(c.models[0]!.mcnemar.p).toBeCloseTo(0.00390625, 15);
    expect(c.models[0]!.mcnemar.pMid).toBeCloseTo(0.001953125, 15);
    expect(c.best!.difference).toBeCloseTo(-0.9, 12);
  });

  it("keeps T4 Pos./Neg. apart", () => {
    const humans = [
      makeRecord({ itemId: "p", taskId: "residue_ligand", t4Polarity: "pos" }),
      makeRecord({ itemId: "n", taskId: "residue_ligand", t4Polarity: "neg" }),
    ];
    const models: ModelResponseRecord[] = [
      { modelId: "M", itemId: "p", taskId: "residue_ligand", t4Polarity: "pos", exact: 0, partial: 0.5 },
      { modelId: "M", itemId: "n", taskId: "residue_ligand", t4Polarity: "neg", exact: 1, partial: 1 },
    ];
    const cols = compare(humans, models).columns;
    expect(cols.map((c) => c.column)).toEqual(["residue_ligand_pos", "residue_ligand_neg"]);
    expect(cols[0]!.models[0]!.model.partialMean).toBe(0.5);
  });

  it("rejects inconsistent or duplicate model records with their index", () => {
    const wrongPolarity = compareHumansWithModels(
      [makeRecord({ itemId: "p", taskId: "residue_ligand", t4Polarity: "pos" })],
      [{ modelId: "M", itemId: "p", taskId: "residue_ligand", t4Polarity: "neg", exact: 1, partial: 1 }],
    );
    expect(wrongPolarity).toMatchObject({ ok: false, issues: [{ source: "model", index: 0, field: "t4Polarity" }] });
    const duplicate = compareHumansWithModels(HUMANS, [model("M", "i1", 1), model("M", "i1", 0)]);
    expect(duplicate).toMatchObject({ ok: false, issues: [{ source: "model", index: 1, field: "itemId" }] });
    const badShape = compareHumansWithModels(HUMANS, [
      { modelId: "M", itemId: "i1", taskId: "interaction_location", exact: 1 },
    ]);
    expect(badShape).toMatchObject({ ok: false, issues: [{ source: "model", index: 0, field: "partial" }] });
  });
});

describe("the model's fair score", () => {
  it("uses fairExact / fairPartial where the record has them and the paper score elsewhere", () => {
    const t9 = (itemId: string, exact: 0 | 1) =>
      makeRecord({ itemId, participantId: "P1", taskId: "pocket_ligand", exact, partial: exact, condition: "static" });
    const humans = [t9("i1", 1), t9("i2", 1), t9("i3", 0)];
    const models: ModelResponseRecord[] = [
      { ...model("M", "i1", 0, "pocket_ligand"), fairExact: 1, fairPartial: 1, fairF1: 1 }, // e.g. ARG NH1 for a gold NH2
      { ...model("M", "i2", 0, "pocket_ligand"), partial: 0.5, fairExact: 0, fairPartial: 0.5, fairF1: 0.4 },
      model("M", "i3", 1, "pocket_ligand"),
    ];
    const m = compare(humans, models).columns.find((c) => c.column === "pocket_ligand")!.models[0]!;
    expect(m.model.mean).toBeCloseTo(1 / 3, 12);
    expect(m.model.fair).toEqual({
      mean: 2 / 3,
      partialMean: (1 + 0.5 + 1) / 3,
      f1Mean: (1 + 0.4 + 1) / 3,
      wilson: wilsonInterval(2, 3),
    });
  });
});
