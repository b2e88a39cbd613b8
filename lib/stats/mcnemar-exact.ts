export interface McNemarResult {
  /** Discordant pairs of one kind (in compare.ts: human correct, model wrong). */
  b: number;
  /** Discordant pairs of the other kind (human wrong, model correct). */
  c: number;
  /** b + c, the number of discordant pairs the test conditions on. */
  n: number;
  /** Two-sided exact p: min(1, 2 · P(X ≤ min(b, c))) with X ~ Binomial(n, 1/2); 1 when n = 0. */
  p: number;
  /** Mid-p variant, p − P(X = min(b, c)) (Fagerland, Lydersen & Laake 2013); present when requested. */
  pMid?: number;
}

export interface McNemarOptions {
  midP?: boolean;
}

// Below this n, 0.5^n is a normal double and the pmf recurrence is exact enough; above it we work
// in logs so 0.5^n does not underflow to 0.
const DIRECT_PMF_MAX_N = 1000;

/** P(X = 0..upTo) for X ~ Binomial(n, 1/2), as an array of probabilities. */
function listHalfBinomialPmf(n: number, upTo: number): number[] {
  const out: number[] = [];
  if (n <= DIRECT_PMF_MAX_N) {
    let pmf = Math.pow(0.5, n);
    for (let x = 0; x <= upTo; x++) {
      out.push(pmf);
      pmf = (pmf * (n - x)) / (x + 1);
    }
    return out;
  }
  let logPmf = -n * Math.LN2;
  for (let x = 0; x <= upTo; x++) {
    out.push(Math.exp(logPmf));
    logPmf += Math.log(n - x) - Math.log(x + 1);
  }
  return out;
}

/**
 * Exact McNemar test on the discordant counts of a paired 2×2 table: under H0 each discordant
 * pair is equally likely to fall either way, so b ~ Binomial(b + c, 1/2).
 */
export function mcnemarExact(b: number, c: number, options: McNemarOptions = {}): McNemarResult {
  for (const [name, v] of [
    ["b", b],
    ["c", c],
  ] as const) {
    if (!Number.isInteger(v) || v < 0)
      throw new RangeError(`mcnemarExact: ${name} must be a non-negative integer, got ${v}`);
  }
  const n = b + c;
  const smaller = Math.min(b, c);
  const pmf = listHalfBinomialPmf(n, smaller);
  let tail = 0;
  for (const v of pmf) tail += v;
  const p = Math.min(1, 2 * tail);
  const result: McNemarResult = { b, c, n, p };
  if (options.midP) {
    // When b = c, symmetry gives tail = 1/2 + P(X = b)/2, so this is exactly 1, as it should be.
    result.pMid = Math.min(1, 2 * (tail - (pmf[smaller] as number) / 2));
  }
  return result;
}
