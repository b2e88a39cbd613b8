import { describe, expect, it } from "vitest";
import { fleissKappa } from "@/lib/stats/fleiss-kappa";

// Worked example from Wikipedia, "Fleiss' kappa" (10 subjects, 14 raters, 5 categories):
// P̄ = 0.378, P̄e = 0.213, κ = 0.210.
const WIKIPEDIA_EXAMPLE = [
  [0, 0, 0, 0, 14],
  [0, 2, 6, 4, 2],
  [0, 0, 3, 5, 6],
  [0, 3, 9, 2, 0],
  [2, 2, 8, 1, 1],
  [7, 7, 0, 0, 0],
  [3, 2, 6, 3, 0],
  [2, 5, 3, 2, 2],
  [6, 5, 2, 1, 0],
  [0, 2, 2, 3, 7],
];

describe("fleissKappa", () => {
  it("reproduces the textbook example", () => {
    const r = fleissKappa(WIKIPEDIA_EXAMPLE)!;
    expect(r.observedAgreement).toBeCloseTo(0.378, 3);
    expect(r.chanceAgreement).toBeCloseTo(0.213, 3);
    expect(r.kappa).toBeCloseTo(0.21, 3);
    // p_j = column totals / 140 = 20, 28, 39, 21, 32 over 140.
    expect(r.categoryShares.map((p) => p * 140)).toEqual([20, 28, 39, 21, 32].map((x) => expect.closeTo(x, 10)));
    expect(r.ratersPerItem).toBe(14);
    expect(r.nItemsUsed).toBe(10);
  });

  it("varying raters: per-item agreement, pooled shares, items with < 2 ratings excluded", () => {
    // Item 1: 3 raters all A → P1 = 1. Item 2: 2 raters A, B → P2 = 0. Item 3: one rating, excluded.
    // P̄ = 0.5; shares over 5 ratings: A 4/5, B 1/5 → P̄e = 0.68; κ = (0.5 − 0.68)/0.32 = −0.5625.
    const r = fleissKappa([
      [3, 0],
      [1, 1],
      [0, 1],
    ])!;
    expect(r.nItemsUsed).toBe(2);
    expect(r.nItemsExcluded).toBe(1);
    expect(r.ratersPerItem).toBeNull();
    expect(r.observedAgreement).toBe(0.5);
    expect(r.chanceAgreement).toBeCloseTo(0.68, 12);
    expect(r.kappa).toBeCloseTo(-0.5625, 12);
  });

  it("perfect agreement across categories is 1; a single used category is undefined", () => {
    expect(
      fleissKappa([
        [4, 0],
        [0, 4],
      ])!.kappa,
    ).toBeCloseTo(1, 12);
    expect(
      fleissKappa([
        [4, 0],
        [4, 0],
      ])!.kappa,
    ).toBeNull();
    expect(fleissKappa([[1, 0]])).toBeNull();
    expect(fleissKappa([])).toBeNull();
  });

  it("rejects ragged or non-count input with the position", () => {
    expect(() => fleissKappa([[1, 2], [1]])).toThrow(/item 1 has 1 categories/);
    expect(() => fleissKappa([[1, -2]])).toThrow(/item 0, category 1/);
  });
});
