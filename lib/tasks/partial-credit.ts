/**
 * Linear partial credit for a numeric answer (spec §4): max(0, 1 - |answer - gold| / rangeWidth).
 * The spec's [decision] takes rangeWidth = width of the task's value range (8 Å for T1, 180° for T2).
 */
export function computeLinearCredit(answer: number, gold: number, rangeWidth: number): number {
  if (!(rangeWidth > 0)) throw new RangeError(`partial-credit range must be positive, got ${rangeWidth}`);
  return Math.max(0, Math.min(1, 1 - Math.abs(answer - gold) / rangeWidth));
}
