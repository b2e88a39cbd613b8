export interface FleissKappaResult {
  /** Chance-corrected agreement; null when chance agreement is 1 (every rating in one category). */
  kappa: number | null;
  /** Mean observed pairwise agreement P̄ over the items used. */
  observedAgreement: number;
  /** Chance agreement P̄e = Σ_j p_j². */
  chanceAgreement: number;
  /** p_j: share of all ratings (on the items used) that fell in category j. */
  categoryShares: number[];
  /** Items with at least two ratings, the ones that enter the statistic. */
  nItemsUsed: number;
  /** Items with fewer than two ratings: agreement is undefined for them, so they are left out. */
  nItemsExcluded: number;
  /** The common number of raters per used item, or null when it varies. */
  ratersPerItem: number | null;
}

/**
 * Fleiss' kappa for items × categories rating counts (Fleiss 1971, Psychological Bulletin 76:378).
 *
 * Varying raters per item: item i's agreement is P_i = Σ_j n_ij(n_ij − 1) / (n_i(n_i − 1)), P̄ is the
 * unweighted mean of P_i, and p_j = Σ_i n_ij / Σ_i n_i pools all ratings. With the same n raters on
 * every item this is exactly Fleiss' formula; with varying n_i it is the usual generalisation (each
 * item weighted equally in P̄, each rating equally in p_j). Items with fewer than two ratings are
 * excluded and counted in nItemsExcluded. Returns null when no item has two ratings.
 */
export function fleissKappa(counts: readonly (readonly number[])[]): FleissKappaResult | null {
  const nCategories = counts[0]?.length ?? 0;
  counts.forEach((row, i) => {
    if (row.length !== nCategories) {
      throw new RangeError(`fleissKappa: item ${i} has ${row.length} categories, item 0 has ${nCategories}`);
    }
    row.forEach((v, j) => {
      if (!Number.isInteger(v) || v < 0)
        throw new RangeError(`fleissKappa: count at item ${i}, category ${j} must be a non-negative integer, got ${v}`);
    });
  });
  const used = counts.filter((row) => row.reduce((s, v) => s + v, 0) >= 2);
  if (used.length === 0) return null;

  const categoryTotals = new Array<number>(nCategories).fill(0);
  let totalRatings = 0;
  let agreementSum = 0;
  const raterCounts = new Set<number>();
  for (const row of used) {
    const ni = row.reduce((s, v) => s + v, 0);
    raterCounts.add(ni);
    totalRatings += ni;
    let pairs = 0;
    row.forEach((v, j) => {
      categoryTotals[j] = (categoryTotals[j] as number) + v;
      pairs += v * (v - 1);
    });
    agreementSum += pairs / (ni * (ni - 1));
  }
  const categoryShares = categoryTotals.map((t) => t / totalRatings);
  const observedAgreement = agreementSum / used.length;
  const chanceAgreement = categoryShares.reduce((s, p) => s + p * p, 0);
  return {
    kappa: chanceAgreement >= 1 ? null : (observedAgreement - chanceAgreement) / (1 - chanceAgreement),
    observedAgreement,
    chanceAgreement,
    categoryShares,
    nItemsUsed: used.length,
    nItemsExcluded: counts.length - used.length,
    ratersPerItem: raterCounts.size === 1 ? ([...raterCounts][0] as number) : null,
  };
}
