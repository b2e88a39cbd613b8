import { describe, expect, it } from "vitest";
import { mcnemarExact } from "@/lib/stats/mcnemar-exact";

describe("mcnemarExact", () => {
  it("b = 1, c = 9: p = 2·P(X ≤ 1 | 10, ½) = 2·11/1024", () => {
    const r = mcnemarExact(1, 9);
    expect(r).toMatchObject({ b: 1, c: 9, n: 10 });
    expect(r.p).toBeCloseTo(0.021484375, 15);
    expect(mcnemarExact(9, 1).p).toBeCloseTo(0.021484375, 15);
  });

  it("mid-p for b = 1, c = 9: 2·(11 − 10/2)/1024 = 12/1024", () => {
    expect(mcnemarExact(1, 9, { midP: true }).pMid).toBeCloseTo(0.01171875, 15);
    expect(mcnemarExact(1, 9).pMid).toBeUndefined();
  });

  it("b = 3, c = 12: 2·(1 + 15 + 105 + 455)/32768", () => {
    expect(mcnemarExact(3, 12).p).toBeCloseTo(1152 / 32768, 15);
  });

  it("no discordant pairs, or a balanced split, gives p = 1", () => {
    expect(mcnemarExact(0, 0)).toEqual({ b: 0, c: 0, n: 0, p: 1 });
    expect(mcnemarExact(5, 5, { midP: true })).toMatchObject({ p: 1, pMid: 1 });
  });

  it("large n does not underflow (SciPy 1.17 binomtest reference values)", () => {
    expect(mcnemarExact(400, 600).p / 2.728464156065947e-10).toBeCloseTo(1, 9);
    // n = 2000 goes through the log-space branch.
    expect(mcnemarExact(900, 1100).p / 8.45708953550381e-6).toBeCloseTo(1, 9);
    expect(mcnemarExact(2000, 2100).p).toBeCloseTo(0.12206497999113655, 9);
  });

  it("rejects non-counts", () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(/b must be a non-negative integer/);
    expect(() => mcnemarExact(1, 2.5)).toThrow(/c must be/);
  });
});
