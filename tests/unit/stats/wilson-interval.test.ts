import { describe, expect, it } from "vitest";
import { wilsonInterval } from "@/lib/stats/wilson-interval";

describe("wilsonInterval", () => {
  // Newcombe RG (1998), "Two-sided confidence intervals for the single proportion: comparison of
  // seven methods", Stat Med 17:857–872, Table II, method 3 (score interval without continuity
  // correction), published to 4 decimals.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])("%i/%i matches Newcombe 1998 Table II: [%s, %s]", (k, n, low, high) => {
    const ci = wilsonInterval(k, n);
    expect(ci.low).toBeCloseTo(low, 4);
    expect(ci.high).toBeCloseTo(high, 4);
  });

  // 15/50 and 46/50 are the sizes of a MiSI-Bench(tiny) task. Reference: SciPy 1.17
  // binomtest(k, n).proportion_ci(0.95, method="wilson") = [0.1910355350, 0.4375035046] and
  // [0.8116175308, 0.9684504859]; R prop.test(k, n, correct = FALSE)$conf.int uses the same formula.
  // By hand for 15/50: p = 0.3, z = 1.959964, z²/n = 0.076829, denom = 1.076829,
  // centre = (0.3 + 0.038415)/1.076829 = 0.314271, half = (z/denom)·√(0.0042 + 0.00038415) = 0.123236.
  it("15/50 and 46/50 at 95%", () => {
    const a = wilsonInterval(15, 50);
    expect(a.estimate).toBe(0.3);
    expect(a.low).toBeCloseTo(0.191035535, 8);
    expect(a.high).toBeCloseTo(0.4375035046, 8);
    const b = wilsonInterval(46, 50);
    expect(b.low).toBeCloseTo(0.8116175308, 8);
    expect(b.high).toBeCloseTo(0.9684504859, 8);
  });

  it("k = 0 and k = n close exactly at 0 and 1; n = 0 is uninformative", () => {
    expect(wilsonInterval(0, 10)).toMatchObject({ estimate: 0, low: 0 });
    expect(wilsonInterval(0, 10).high).toBeCloseTo(0.2775327999, 8);
    expect(wilsonInterval(10, 10)).toMatchObject({ estimate: 1, high: 1 });
    expect(wilsonInterval(10, 10).low).toBeCloseTo(0.7224672001, 8);
    expect(wilsonInterval(0, 0)).toEqual({ k: 0, n: 0, confidence: 0.95, estimate: null, low: 0, high: 1 });
  });

  it("is wider at 99% than at 95%", () => {
    const w95 = wilsonInterval(15, 50, 0.95);
    const w99 = wilsonInterval(15, 50, 0.99);
    expect(w99.low).toBeLessThan(w95.low);
    expect(w99.high).toBeGreaterThan(w95.high);
  });

  it("rejects impossible counts with a clear message", () => {
    expect(() => wilsonInterval(6, 5)).toThrow(/k must be an integer in \[0, n=5\]/);
    expect(() => wilsonInterval(1.5, 5)).toThrow(RangeError);
    expect(() => wilsonInterval(1, -1)).toThrow(/n must be/);
    expect(() => wilsonInterval(1, 5, 95)).toThrow(/confidence/);
  });
});
