/** Display helpers for the results pages: scores are fractions in the data and percent on screen. */

export function formatPercent(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? "–" : (x * 100).toFixed(digits);
}

export function formatInterval(low: number | null | undefined, high: number | null | undefined, digits = 1): string {
  if (low === null || low === undefined || high === null || high === undefined) return "–";
  return `[${formatPercent(low, digits)}, ${formatPercent(high, digits)}]`;
}

/** Two-sided p-values: three decimals, "<0.001" below that. */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return "–";
  return p < 0.001 ? "<0.001" : p.toFixed(3);
}

export function formatNumber(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(digits);
}
