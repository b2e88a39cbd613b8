/**
 * The one rounding rule for every table, chart, tooltip and paper table: values are carried
 * unrounded and rounded once, where they are printed, half away from zero on the number's
 * shortest decimal form (what `String(x)` shows). Percent is a decimal shift of that form, so a
 * fraction and its percent round alike: 0.0945 → 9.45 % → "9.5" everywhere. `toFixed` alone would
 * round the binary value (9.45 is stored as 9.4499…, printed "9.4"), and rounding twice (first to
 * 0.01 %, then to 0.1 %) turned 9.451 into 9.45 and then "9.4" in the chart while the table
 * printed "9.5".
 */

/** x × 10^k done on the decimal digits, not in binary (0.0945 → 9.45, never 9.450000000000001). */
export function shiftDecimal(x: number, k: number): number {
  if (!Number.isFinite(x) || k === 0) return x;
  const [mantissa, exponent] = String(x).split("e");
  return Number(`${mantissa}e${Number(exponent ?? 0) + k}`);
}

/** x rounded to `digits` decimals, half away from zero, on its decimal form. */
export function roundHalfAway(x: number, digits: number): number {
  if (!Number.isFinite(x)) return x;
  const rounded = Math.round(shiftDecimal(Math.abs(x), digits));
  const result = shiftDecimal(rounded, -digits);
  return x < 0 && result !== 0 ? -result : result;
}

/** The printed form of x with exactly `digits` decimals under the rule above ("–" when missing). */
export function formatFixed(x: number | null | undefined, digits: number): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "–";
  return roundHalfAway(x, digits).toFixed(digits);
}

/** A fraction in [0, 1] as a percent value, shifted on its decimal digits (no rounding). */
export function toPercent(fraction: number): number {
  return shiftDecimal(fraction, 2);
}

/** A fraction printed as percent with `digits` decimals (0.0945 → "9.5"). */
export function formatFractionAsPercent(fraction: number | null | undefined, digits = 1): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return "–";
  return formatFixed(toPercent(fraction), digits);
}
