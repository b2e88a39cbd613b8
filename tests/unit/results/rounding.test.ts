import { describe, expect, it } from "vitest";
import { buildTaskChartColumns } from "@/components/results/chart-data";
import { formatInterval, formatPercent } from "@/components/results/format";
import { formatFixed, roundHalfAway, shiftDecimal, toPercent } from "@/lib/results/rounding";
import { wilsonInterval } from "@/lib/stats/wilson-interval";
import type { Comparison } from "@/lib/results/compare";

describe("the one rounding rule", () => {
  it("rounds half away from zero on the decimal form, not the binary value", () => {
    expect((9.45).toFixed(1)).toBe("9.4"); // the trap: 9.45 is stored as 9.4499…
    expect(formatFixed(9.45, 1)).toBe("9.5");
    expect(formatFixed(1.005, 2)).toBe("1.01");
    expect(formatFixed(-0.05, 1)).toBe("-0.1");
    expect(formatFixed(-0.04, 1)).toBe("0.0");
    expect(formatFixed(81.1875, 2)).toBe("81.19");
    expect(roundHalfAway(2.5, 0)).toBe(3);
    expect(roundHalfAway(-2.5, 0)).toBe(-3);
    expect(formatFixed(null, 1)).toBe("–");
    expect(formatFixed(Number.NaN, 1)).toBe("–");
  });

  it("shifts percent on the digits (0.07 → 7, never 7.000000000000001)", () => {
    expect(0.07 * 100).not.toBe(7);
    expect(toPercent(0.07)).toBe(7);
    expect(toPercent(0.0945)).toBe(9.45);
    expect(shiftDecimal(1e-7, 2)).toBe(1e-5);
    expect(formatPercent(0.0945)).toBe("9.5");
    expect(formatPercent(0.0005, 1)).toBe("0.1");
  });

  it("prints the Wilson low bound of 1/2 as 9.5 in the chart table and in the model table alike", () => {
    const w = wilsonInterval(1, 2);
    expect(w.low).toBeCloseTo(0.0945312, 6);
    const comparison = {
      columns: [
        {
          column: "interaction_location",
          models: [{ modelId: "M1", nItems: 2, model: { mean: 0.5, wilson: w } }],
        },
      ],
    } as unknown as Comparison;
    const [col] = buildTaskChartColumns(null, comparison);
    const bar = col!.models.M1!;
    const chartText = `${formatFixed(bar.low, 1)}`;
    expect(chartText).toBe("9.5");
    expect(formatInterval(w.low, w.high)).toBe(`[9.5, ${formatFixed(bar.high, 1)}]`);
  });

  it("gives the chart path and the table path the same digits for every Wilson bound up to n = 200", () => {
    for (let n = 1; n <= 200; n++) {
      for (let k = 0; k <= n; k++) {
        const w = wilsonInterval(k, n);
        for (const v of [w.low, w.high, k / n]) expect(formatFixed(toPercent(v), 1)).toBe(formatPercent(v, 1));
      }
    }
  });
});
