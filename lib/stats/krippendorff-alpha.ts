export type AlphaLevel = "nominal" | "interval";

/** One rating: a category (nominal) or a number (interval); null or undefined means missing. */
export type AlphaValue = string | number | null | undefined;

export interface KrippendorffAlphaResult {
  level: AlphaLevel;
  /** 1 − D_o / D_e; null when D_e = 0 (all pairable values equal: agreement is undefined, not perfect). */
  alpha: number | null;
  observedDisagreement: number;
  expectedDisagreement: number;
  /** n: values in units with at least two values (the only ones that can be paired). */
  nPairableValues: number;
  /** Units with at least two values. */
  nPairableUnits: number;
}

/**
 * Krippendorff's alpha for units × raters data with missing values, following
 * Krippendorff, "Computing Krippendorff's Alpha-Reliability" (2011), via the coincidence matrix:
 * each unit u with m_u ≥ 2 values contributes its m_u(m_u − 1) ordered value pairs with weight
 * 1/(m_u − 1). Nominal uses δ = [c ≠ k]; interval uses δ = (c − k)².
 * Note the orientation: rows are units (items), columns are raters, the transpose of the paper's
 * reliability-data table. Rows may differ in length; absent cells count as missing.
 * Returns null when fewer than two values are pairable.
 */
export function krippendorffAlpha(
  data: readonly (readonly AlphaValue[])[],
  level: AlphaLevel,
): KrippendorffAlphaResult | null {
  const units: (string | number)[][] = data.map((row, u) => {
    const present: (string | number)[] = [];
    row.forEach((v, r) => {
      if (v === null || v === undefined) return;
      if (level === "interval" && (typeof v !== "number" || !Number.isFinite(v))) {
        throw new RangeError(
          `krippendorffAlpha: interval data needs finite numbers; unit ${u}, rater ${r} has ${JSON.stringify(v)}`,
        );
      }
      if (typeof v === "number" && !Number.isFinite(v)) {
        throw new RangeError(`krippendorffAlpha: unit ${u}, rater ${r} has a non-finite value ${v}`);
      }
      present.push(v);
    });
    return present;
  });
  const pairable = units.filter((values) => values.length >= 2);
  const n = pairable.reduce((s, values) => s + values.length, 0);
  if (n < 2) return null;

  let observed: number;
  let expected: number;
  if (level === "nominal") {
    // Σ_{c≠k} n_c n_k = n² − Σ_c n_c², per unit and over all pairable values.
    const totals = new Map<string, number>();
    let withinUnit = 0;
    for (const values of pairable) {
      const m = values.length;
      const counts = new Map<string, number>();
      for (const v of values) {
        const key = `${typeof v}:${v}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        totals.set(key, (totals.get(key) ?? 0) + 1);
      }
      let sumSquares = 0;
      for (const c of counts.values()) sumSquares += c * c;
      withinUnit += (m * m - sumSquares) / (m - 1);
    }
    let totalSquares = 0;
    for (const c of totals.values()) totalSquares += c * c;
    observed = withinUnit / n;
    expected = (n * n - totalSquares) / (n * (n - 1));
  } else {
    // Σ_{i≠j} (v_i − v_j)² = 2(m Σv² − (Σv)²); centring on the grand mean first keeps it stable.
    const all = pairable.flat() as number[];
    const grandMean = all.reduce((s, v) => s + v, 0) / n;
    const sumSquaredPairDiffs = (values: readonly number[]): number => {
      let s1 = 0;
      let s2 = 0;
      for (const v of values) {
        const d = v - grandMean;
        s1 += d;
        s2 += d * d;
      }
      return 2 * (values.length * s2 - s1 * s1);
    };
    let withinUnit = 0;
    for (const values of pairable) withinUnit += sumSquaredPairDiffs(values as number[]) / (values.length - 1);
    observed = withinUnit / n;
    expected = sumSquaredPairDiffs(all) / (n * (n - 1));
  }
  return {
    level,
    alpha: expected === 0 ? null : 1 - observed / expected,
    observedDisagreement: observed,
    expectedDisagreement: expected,
    nPairableValues: n,
    nPairableUnits: pairable.length,
  };
}
