import { describe, expect, it } from "vitest";
import { normalQuantile, toTwoSidedZ } from "@/lib/stats/normal-quantile";

describe("normalQuantile", () => {
  // Reference values: standard normal tables (e.g. Abramowitz & Stegun 26.2, Table 26.5) to the
  // digits shown; cross-checked against SciPy 1.17 norm.ppf, which agrees to ~1e-16.
  it.each([
    [0.975, 1.959963984540054],
    [0.995, 2.5758293035489004],
    [0.95, 1.6448536269514722],
    [0.9, 1.2815515655446004],
    [0.001, -3.090232306167813],
    [1e-10, -6.361340902404056],
    [1e-20, -9.262340089798409],
  ])("p = %s gives %s", (p, z) => {
    expect(normalQuantile(p)).toBeCloseTo(z, 13);
  });

  it("is 0 at the median and antisymmetric", () => {
    expect(normalQuantile(0.5)).toBe(0);
    for (const p of [0.01, 0.2, 0.4, 0.49]) expect(normalQuantile(p)).toBeCloseTo(-normalQuantile(1 - p), 12);
  });

  it("returns infinities at the ends and rejects probabilities outside [0, 1]", () => {
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(() => normalQuantile(1.5)).toThrow(RangeError);
    expect(() => normalQuantile(Number.NaN)).toThrow(RangeError);
  });

  it("toTwoSidedZ maps a confidence level to z_{1-α/2} and rejects percentages", () => {
    expect(toTwoSidedZ(0.95)).toBeCloseTo(1.959963984540054, 13);
    expect(toTwoSidedZ(0.99)).toBeCloseTo(2.5758293035489004, 13);
    expect(() => toTwoSidedZ(95)).toThrow(/strictly between 0 and 1/);
    expect(() => toTwoSidedZ(1)).toThrow(RangeError);
  });
});
