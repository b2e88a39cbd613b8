import { describe, expect, it } from "vitest";
import { quantileSorted, summarizeSpread } from "@/lib/stats/descriptive";

describe("descriptive statistics", () => {
  it("median by hand: the middle value, or the mean of the two middle values", () => {
    expect(summarizeSpread([3, 1, 2])?.median).toBe(2);
    expect(summarizeSpread([4, 1, 3, 2])?.median).toBe(2.5);
  });

  it("quantile is Hyndman–Fan type 7 (R's default)", () => {
    // R: quantile(c(1, 2, 3, 4, 10), c(0.1, 0.25, 0.9)) = 1.4, 2.0, 7.6
    // (h = 4p: 0.4 → 1 + 0.4·1; 1 → 2; 3.6 → 4 + 0.6·6).
    const sorted = [1, 2, 3, 4, 10];
    expect(quantileSorted(sorted, 0.1)).toBeCloseTo(1.4, 12);
    expect(quantileSorted(sorted, 0.25)).toBe(2);
    expect(quantileSorted(sorted, 0.9)).toBeCloseTo(7.6, 12);
    expect(quantileSorted([5], 0.3)).toBe(5);
  });

  it("empty input gives null, bad input throws", () => {
    expect(quantileSorted([], 0.5)).toBeNull();
    expect(summarizeSpread([])).toBeNull();
    expect(() => summarizeSpread([1, Number.NaN])).toThrow(/index 1/);
    expect(() => quantileSorted([1], 2)).toThrow(RangeError);
  });

  it("summarizeSpread gives n/min/median/max", () => {
    expect(summarizeSpread([0.5, 1, 0, 0.75])).toEqual({ n: 4, min: 0, median: 0.625, max: 1 });
  });
});
