import { welchDifference, welchPower, type WelchDifference } from "./welch";
import { assertConfidenceLevel, normalQuantile, toTwoSidedZ } from "./normal-quantile";

/*
 * Sample-size planning for per-task accuracies (proportions of exactly correct answers).
 *
 * 1. Precision. The number of independent answers n_eff whose 95 % interval has half-width ≤ h at
 *    the expected accuracy p:
 *    - "wald" (textbook, Cochran 1977 §4.4): n = z² p(1 − p) / h², rounded up. p = 0.5, h = 0.05 → 385.
 *    - "wilson" (default; the interval the results page prints): the smallest n with
 *      z/(1 + z²/n) · √(p(1 − p)/n + z²/(4n²)) ≤ h. Unlike Wald it stays meaningful at p = 0 or 1
 *      (the paper's humans score 100 % on T1).
 * 2. Difference against a model's accuracy p0 (one-sample two-sided test of H0: p = p0 at level α
 *    with power 1 − β when the humans' true accuracy is p1; Fleiss, Levin & Paik 2003, §2.5):
 *      n = [z_{1−α/2} √(p0 q0) + z_{1−β} √(p1 q1)]² / (p1 − p0)²
 *    The "alternative" variance variant n = (z_{1−α/2} + z_{1−β})² p1 q1 / (p1 − p0)² (Chow, Shao &
 *    Wang 2008, §4.1) is available for comparison with that book's examples.
 * 2b. Difference between two groups (the static and the interactive condition): answers per group for a
 *    two-sided test of H0: p1 = p2 (Fleiss, Levin & Paik 2003, ch. 4, without the continuity correction;
 *    R's power.prop.test), p̄ = (p1 + p2)/2:
 *      n = [z_{1−α/2} √(2 p̄ q̄) + z_{1−β} √(p1 q1 + p2 q2)]² / (p2 − p1)²
 *    p1 = 0.5, p2 = 0.6, α = 0.05, power 0.8: 387.34 → 388 per group (power.prop.test gives 387.3385). The
 *    "alternative" variant n = (z_{1−α/2} + z_{1−β})² (p1 q1 + p2 q2) / (p2 − p1)² gives 384.6 → 385.
 * 2c. The condition effect as the results page tests it (lib/stats/condition-effect-interval.ts): G participants per
 *    condition, m answers each, a participant's accuracy varies as p q (1 + (m − 1)ρ) / m (Kish's design effect over
 *    m answers), so each condition's accuracy has variance V = p q (1 + (m − 1)ρ) / (m G); the power is that of the
 *    page's Welch t test with these variances, and G is the smallest count reaching the target power.
 * 3. Clustering. A participant's answers within a task are correlated (intraclass correlation ρ),
 *    so m answers per participant carry less information than m independent ones. Kish's design
 *    effect DE = 1 + (m − 1)ρ inflates the answers needed: N = ⌈n_eff · DE⌉, participants ⌈N / m⌉.
 * 4. Items. Each item takes at most k answers (the study's answers per item) and a participant
 *    sees an item once, so the pool needs at least max(m, ⌈participants · m / k⌉) items of the task.
 */

export type PrecisionMethod = "wald" | "wilson";

/** Half-width of the Wilson interval when the observed proportion equals p (n answers). */
export function wilsonHalfWidth(p: number, n: number, confidence = 0.95): number {
  const z = toTwoSidedZ(confidence);
  const z2 = z * z;
  return (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
}

function assertProportion(name: string, p: number, open = false): void {
  if (!Number.isFinite(p) || p < 0 || p > 1 || (open && (p === 0 || p === 1))) {
    throw new RangeError(`${name} must be a proportion in ${open ? "(0, 1)" : "[0, 1]"}, got ${p}`);
  }
}

/** Independent answers needed for a two-sided interval of half-width ≤ halfWidth at accuracy p. */
export function answersForPrecision(options: {
  p: number;
  halfWidth: number;
  confidence?: number;
  method?: PrecisionMethod;
}): number {
  const confidence = options.confidence ?? 0.95;
  assertConfidenceLevel(confidence);
  assertProportion("expected accuracy", options.p);
  const h = options.halfWidth;
  if (!Number.isFinite(h) || h <= 0 || h >= 0.5) throw new RangeError(`half-width must be in (0, 0.5), got ${h}`);
  const z = toTwoSidedZ(confidence);
  if ((options.method ?? "wilson") === "wald") {
    // Guard the float product (1.96² · 0.25 / 0.0025 = 384.1459, never 384.0000000001 → 385 by accident).
    return Math.max(1, Math.ceil((z * z * options.p * (1 - options.p)) / (h * h) - 1e-9));
  }
  // Wilson half-width decreases in n: binary search for the first n that meets the target.
  let lo = 1;
  let hi = 1;
  while (wilsonHalfWidth(options.p, hi, confidence) > h) {
    hi *= 2;
    if (hi > 1e9) throw new RangeError("half-width not reachable");
  }
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (wilsonHalfWidth(options.p, mid, confidence) <= h) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export type DifferenceVariance = "null-and-alternative" | "alternative";

/** Independent answers for a two-sided one-sample test of H0: p = p0 with the given power when p = p1. */
export function answersForDifference(options: {
  /** The model's accuracy (the value to tell the humans apart from). */
  p0: number;
  /** The humans' expected accuracy. */
  p1: number;
  alpha?: number;
  power?: number;
  variance?: DifferenceVariance;
}): number {
  const alpha = options.alpha ?? 0.05;
  const power = options.power ?? 0.8;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(power > 0 && power < 1)) throw new RangeError(`power must be in (0, 1), got ${power}`);
  assertProportion("model accuracy", options.p0);
  assertProportion("expected human accuracy", options.p1);
  const delta = Math.abs(options.p1 - options.p0);
  if (delta === 0) throw new RangeError("the expected human accuracy equals the model's: no difference to detect");
  const za = normalQuantile(1 - alpha / 2);
  const zb = normalQuantile(power);
  const v0 = options.p0 * (1 - options.p0);
  const v1 = options.p1 * (1 - options.p1);
  const root =
    (options.variance ?? "null-and-alternative") === "alternative"
      ? (za + zb) * Math.sqrt(v1)
      : za * Math.sqrt(v0) + zb * Math.sqrt(v1);
  return Math.max(1, Math.ceil((root * root) / (delta * delta) - 1e-9));
}

/** Independent answers per group for a two-sided two-sample test of H0: p1 = p2 with the given power (point 2b). */
export function answersPerGroupForTwoProportions(options: {
  p1: number;
  p2: number;
  alpha?: number;
  power?: number;
  variance?: DifferenceVariance;
}): number {
  const alpha = options.alpha ?? 0.05;
  const power = options.power ?? 0.8;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(power > 0 && power < 1)) throw new RangeError(`power must be in (0, 1), got ${power}`);
  assertProportion("accuracy in the first condition", options.p1);
  assertProportion("accuracy in the second condition", options.p2);
  const delta = Math.abs(options.p2 - options.p1);
  if (delta === 0) throw new RangeError("the two accuracies are equal: no difference to detect");
  const za = normalQuantile(1 - alpha / 2);
  const zb = normalQuantile(power);
  const v = options.p1 * (1 - options.p1) + options.p2 * (1 - options.p2);
  const pBar = (options.p1 + options.p2) / 2;
  const root =
    (options.variance ?? "null-and-alternative") === "alternative"
      ? (za + zb) * Math.sqrt(v)
      : za * Math.sqrt(2 * pBar * (1 - pBar)) + zb * Math.sqrt(v);
  return Math.max(1, Math.ceil((root * root) / (delta * delta) - 1e-9));
}

/** Kish's design effect for clusters of m answers with intraclass correlation ρ. */
export function designEffect(answersPerCluster: number, icc: number): number {
  if (!Number.isFinite(answersPerCluster) || answersPerCluster < 1)
    throw new RangeError(`answers per participant must be ≥ 1, got ${answersPerCluster}`);
  if (!Number.isFinite(icc) || icc < 0 || icc > 1) throw new RangeError(`ICC must be in [0, 1], got ${icc}`);
  return 1 + (answersPerCluster - 1) * icc;
}

export interface ClusteredPlan {
  /** Independent answers the target needs. */
  effectiveAnswers: number;
  designEffect: number;
  /** Answers needed once clustering is counted: ⌈effectiveAnswers · DE⌉. */
  answers: number;
  participants: number;
  /** Distinct items of the task the pool must hold. */
  items: number;
}

/** From independent answers to answers, participants and items (points 3 and 4 above). */
export function planClustered(options: {
  effectiveAnswers: number;
  answersPerParticipant: number;
  icc: number;
  answersPerItem: number;
}): ClusteredPlan {
  const m = options.answersPerParticipant;
  if (!Number.isInteger(m) || m < 1) throw new RangeError(`items per participant must be a positive integer, got ${m}`);
  const k = options.answersPerItem;
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`answers per item must be a positive integer, got ${k}`);
  const de = designEffect(m, options.icc);
  const answers = Math.ceil(options.effectiveAnswers * de - 1e-9);
  const participants = Math.ceil(answers / m);
  return {
    effectiveAnswers: options.effectiveAnswers,
    designEffect: de,
    answers,
    participants,
    items: Math.max(m, Math.ceil((participants * m) / k)),
  };
}

export interface IccEstimate {
  icc: number;
  /** Before truncation at 0 (negative when participants agree less than chance would have them). */
  raw: number;
  nClusters: number;
  nObservations: number;
  /** Average cluster size m₀ used by the estimator. */
  m0: number;
}

/**
 * One-way ANOVA estimate of the intraclass correlation of 0/1 scores grouped by participant
 * (Fleiss, Levin & Paik 2003, eq. 15.x; Donner 1986 for unequal cluster sizes):
 *   ρ = (MSB − MSW) / (MSB + (m₀ − 1) MSW),  m₀ = (N − Σnᵢ²/N) / (k − 1).
 * Truncated at 0. Null with fewer than 2 clusters or no within-cluster replication.
 */
export function estimateIcc(clusters: readonly (readonly number[])[]): IccEstimate | null {
  const used = clusters.filter((c) => c.length > 0);
  const k = used.length;
  const n = used.reduce((s, c) => s + c.length, 0);
  if (k < 2 || n <= k) return null;
  const grand = used.reduce((s, c) => s + c.reduce((a, b) => a + b, 0), 0) / n;
  let ssb = 0;
  let ssw = 0;
  for (const c of used) {
    const mean = c.reduce((a, b) => a + b, 0) / c.length;
    ssb += c.length * (mean - grand) ** 2;
    for (const x of c) ssw += (x - mean) ** 2;
  }
  const msb = ssb / (k - 1);
  const msw = ssw / (n - k);
  const m0 = (n - used.reduce((s, c) => s + c.length * c.length, 0) / n) / (k - 1);
  const denominator = msb + (m0 - 1) * msw;
  // All answers identical: no variance to split; treat as no clustering.
  const raw = denominator === 0 ? 0 : (msb - msw) / denominator;
  return { icc: Math.min(1, Math.max(0, raw)), raw, nClusters: k, nObservations: n, m0 };
}

/** What the page's interval (lib/stats/condition-effect-interval) will have with G participants per condition (point 2c). */
export function plannedConditionEffect(options: {
  p1: number;
  p2: number;
  answersPerParticipant: number;
  icc: number;
  participantsPerCondition: number;
}): WelchDifference {
  assertProportion("accuracy in the first condition", options.p1);
  assertProportion("accuracy in the second condition", options.p2);
  const m = options.answersPerParticipant;
  const g = options.participantsPerCondition;
  const de = designEffect(m, options.icc);
  const variance = (p: number) => (p * (1 - p) * de) / (m * g);
  return welchDifference(
    { participants: g, variance: variance(options.p1) },
    { participants: g, variance: variance(options.p2) },
  );
}

/** The smallest participants per condition whose page interval (Welch t on participants) has the target power (point 2c). */
export function participantsPerConditionForEffect(options: {
  p1: number;
  p2: number;
  answersPerParticipant: number;
  icc: number;
  alpha?: number;
  power?: number;
}): {
  participants: number;
  /** The power the page's test has with that many participants per condition. */
  power: number;
} {
  const alpha = options.alpha ?? 0.05;
  const target = options.power ?? 0.8;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(target > 0 && target < 1)) throw new RangeError(`power must be in (0, 1), got ${target}`);
  const delta = Math.abs(options.p2 - options.p1);
  if (delta === 0) throw new RangeError("the two accuracies are equal: no difference to detect");
  const powerAt = (g: number) =>
    welchPower(delta, plannedConditionEffect({ ...options, participantsPerCondition: g }), alpha);
  // Power increases with G: double to an upper bound, then bisect for the first G that reaches the target.
  let lo = 2;
  let hi = 2;
  while (powerAt(hi) < target) {
    lo = hi + 1;
    hi *= 2;
    if (hi > 1e8) throw new RangeError("power not reachable");
  }
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (powerAt(mid) >= target) hi = mid;
    else lo = mid + 1;
  }
  return { participants: lo, power: powerAt(lo) };
}
