import type { BootstrapInterval } from "@/lib/stats/bootstrap";
import { clusteredWilsonInterval, type ClusteredWilsonInterval } from "@/lib/stats/clustered-wilson";

/*
 * The one rule for the human interval every table, chart and export reports. The participant
 * bootstrap is the default; it is replaced by the clustered Wilson interval (lib/stats/clustered-wilson)
 * where it cannot be trusted:
 * - "boundary": every answer scored the same (0 % or 100 %, or one partial value). Every replicate is
 *   then that value and the percentile interval is a point, although a handful of people all right is
 *   no proof that everyone would be.
 * - "few-participants": fewer than MIN_BOOTSTRAP_PARTICIPANTS participants. The percentile bootstrap
 *   estimates the between-participant variance with divisor G instead of G − 1 and uses normal rather
 *   than t quantiles; for a mean of G clusters its nominal 95 % interval then covers about
 *   P(|t_{G−1}| < 1.96 √((G − 1)/G)): 85 % at G = 5, 90 % at G = 10, 93 % at G = 20. Ten keeps the
 *   shortfall near five points without turning every ordinary study to the fallback.
 * - "narrow": the bootstrap interval is narrower than MIN_REPORTED_WIDTH (one tenth of a percentage
 *   point, what the tables print), e.g. every participant with the same mean; it would print as a point.
 */

export const MIN_BOOTSTRAP_PARTICIPANTS = 10;
/** Fraction; 0.001 = 0.1 percentage point, the tables' printed resolution. */
export const MIN_REPORTED_WIDTH = 0.001;

export type IntervalMethod = "participant-bootstrap" | "clustered-wilson";
export type IntervalFallbackReason = "boundary" | "few-participants" | "narrow";

export interface ReportedInterval {
  low: number;
  high: number;
  method: IntervalMethod;
  /** Why the bootstrap was not used; null when it was. */
  reason: IntervalFallbackReason | null;
  /** The clustered Wilson interval when it is the one reported (design effect, effective n, ICC). */
  clusteredWilson: ClusteredWilsonInterval | null;
}

/** Short text for table notes and the codebook: which interval, and when the fallback applies. */
export const INTERVAL_RULE_NOTE = `95 % interval: a bootstrap that resamples participants; where it would collapse or is unreliable — every answer scored the same (0 % or 100 %), fewer than ${MIN_BOOTSTRAP_PARTICIPANTS} participants, or narrower than 0.1 percentage point — a Wilson interval on the effective number of answers n / DE instead, with the design effect DE = 1 + (Σm²/Σm − 1) ρ from the participants' answer counts m and the intraclass correlation ρ (one-way ANOVA; ρ = 1, each participant counted once, where the answers cannot estimate it). Population: other participants answering this study's items; the interval does not allow for a different set of items, so it is too narrow for accuracy over new MiSI-Bench items.`;

const REASON_TEXT: Record<IntervalFallbackReason, string> = {
  boundary: "every answer scored the same",
  "few-participants": `fewer than ${MIN_BOOTSTRAP_PARTICIPANTS} participants`,
  narrow: "bootstrap narrower than 0.1 point",
};

/** "clustered Wilson (every answer scored the same; DE 5.00, n_eff 3.0)" — for a cell's tooltip or a note. */
export function describeInterval(interval: ReportedInterval): string {
  if (interval.method === "participant-bootstrap" || interval.reason === null || interval.clusteredWilson === null)
    return "participant bootstrap";
  const cw = interval.clusteredWilson;
  return `clustered Wilson (${REASON_TEXT[interval.reason]}; ρ ${cw.icc.toFixed(2)}${cw.iccSource === "bound" ? " (bound)" : ""}, DE ${cw.designEffect.toFixed(2)}, n_eff ${cw.effectiveN.toFixed(1)})`;
}

/**
 * The interval to report for a pooled mean of scores in [0, 1] grouped by participant, given the
 * participant bootstrap already computed on the same clusters.
 */
export function chooseReportedInterval(
  clusters: readonly (readonly number[])[],
  bootstrap: BootstrapInterval,
): ReportedInterval {
  const nonEmpty = clusters.filter((c) => c.length > 0);
  if (nonEmpty.length === 0) throw new RangeError("chooseReportedInterval: no observations");
  const values = nonEmpty.flat();
  const first = values[0] as number;
  let reason: IntervalFallbackReason | null = null;
  if (values.every((v) => v === first)) reason = "boundary";
  else if (nonEmpty.length < MIN_BOOTSTRAP_PARTICIPANTS) reason = "few-participants";
  else if (bootstrap.low === null || bootstrap.high === null || bootstrap.high - bootstrap.low < MIN_REPORTED_WIDTH)
    reason = "narrow";
  if (reason === null)
    return {
      low: bootstrap.low as number,
      high: bootstrap.high as number,
      method: "participant-bootstrap",
      reason: null,
      clusteredWilson: null,
    };
  const cw = clusteredWilsonInterval(nonEmpty, bootstrap.confidence);
  return { low: cw.low, high: cw.high, method: "clustered-wilson", reason, clusteredWilson: cw };
}
