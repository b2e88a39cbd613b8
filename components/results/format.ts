/** Display helpers for the results pages: scores are fractions in the data and percent on screen. */
import { formatFixed, formatFractionAsPercent } from "@/lib/results/rounding";

/** Percent with `digits` decimals under the one rounding rule (lib/results/rounding). */
export function formatPercent(x: number | null | undefined, digits = 1): string {
  return formatFractionAsPercent(x, digits);
}

export function formatInterval(low: number | null | undefined, high: number | null | undefined, digits = 1): string {
  if (low === null || low === undefined || high === null || high === undefined) return "–";
  return `[${formatPercent(low, digits)}, ${formatPercent(high, digits)}]`;
}

/** Two-sided p-values: three decimals, "<0.001" below that. */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return "–";
  return p < 0.001 ? "<0.001" : formatFixed(p, 3);
}

export function formatNumber(x: number | null | undefined, digits = 3): string {
  return formatFixed(x, digits);
}
