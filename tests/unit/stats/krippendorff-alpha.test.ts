import { describe, expect, it } from "vitest";
import { krippendorffAlpha } from "@/lib/stats/krippendorff-alpha";

// Krippendorff K (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers ×
// 12 units with missing values; published α = 0.743 (nominal) and 0.849 (interval).
// The paper lists observers as rows; krippendorffAlpha takes units as rows, so this is transposed.
const OBSERVERS = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
  [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
];
const UNITS = OBSERVERS[0]!.map((_, u) => OBSERVERS.map((row) => row[u] ?? null));

describe("krippendorffAlpha", () => {
  it("nominal α of the worked example is 0.743", () => {
    const r = krippendorffAlpha(UNITS, "nominal")!;
    expect(r.alpha).toBeCloseTo(0.743, 3);
    // Unit 12 has a single value, so n = 40 pairable values in 11 units (as in the paper).
    expect(r.nPairableValues).toBe(40);
    expect(r.nPairableUnits).toBe(11);
    // Exact: off-diagonal coincidences sum to 8, n_c = 9, 13, 10, 5, 3, so
    // α = 1 − (n − 1)·8 / (n² − Σ n_c²) = 1 − 39·8/1216 = 113/152 = 0.7434210526…
    expect(r.alpha).toBeCloseTo(0.7434210526, 9);
  });

  it("interval α of the worked example is 0.849", () => {
    expect(krippendorffAlpha(UNITS, "interval")!.alpha).toBeCloseTo(0.849, 3);
  });

  it("nominal works on string categories and treats undefined as missing", () => {
    const letters = UNITS.map((row) => row.map((v) => (v === null ? undefined : "ABCDE"[v - 1])));
    expect(krippendorffAlpha(letters, "nominal")!.alpha).toBeCloseTo(0.7434210526, 9);
  });

  it("perfect agreement is 1; no variation at all is undefined (null)", () => {
    expect(
      krippendorffAlpha(
        [
          [1, 1],
          [2, 2],
          [3, 3],
        ],
        "interval",
      )!.alpha,
    ).toBe(1);
    expect(
      krippendorffAlpha(
        [
          ["a", "a"],
          ["a", "a"],
        ],
        "nominal",
      )!.alpha,
    ).toBeNull();
    expect(krippendorffAlpha([[1, null], [2]], "nominal")).toBeNull();
  });

  it("rejects categories on the interval level", () => {
    expect(() => krippendorffAlpha([[1, "x"]], "interval")).toThrow(/unit 0, rater 1/);
  });
});
