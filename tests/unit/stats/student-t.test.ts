import { describe, expect, it } from "vitest";
import { studentTCdf, studentTQuantile } from "@/lib/stats/student-t";

// Reference values: R 4.x qt / pt (printed with options(digits = 17)).
describe("Student t", () => {
  it.each([
    [0.975, 1, 12.706204736174694],
    [0.975, 49 / 17, 3.2572081254792198],
    [0.975, 52, 2.0066468050616879],
    [0.975, 10.5, 2.2138402929187873],
    [0.9, 3, 1.6377443536962091],
    [0.025, 7, -2.3646242515927844],
  ])("quantile p = %s, df = %s is %s", (p, df, t) => {
    expect(studentTQuantile(p, df)).toBeCloseTo(t, 12);
  });

  it.each([
    [2, 5, 0.9490302605850709],
    [-1.5, 2.5, 0.1239182265431481],
    [0.3, 40, 0.6171346416144905],
    [10, 3, 0.99893580047079289],
  ])("CDF at t = %s, df = %s is %s", (t, df, p) => {
    expect(studentTCdf(t, df)).toBeCloseTo(p, 14);
  });

  it("is symmetric, has its ends at 0 and 1, and refuses a df that is not positive", () => {
    expect(studentTQuantile(0.5, 4)).toBe(0);
    expect(studentTQuantile(0, 4)).toBe(-Infinity);
    expect(studentTCdf(0, 9)).toBeCloseTo(0.5, 15);
    expect(studentTCdf(-2, 9) + studentTCdf(2, 9)).toBeCloseTo(1, 15);
    expect(() => studentTCdf(1, 0)).toThrow(/degrees of freedom/);
  });
});
