import type { Condition, CrossedAnswer } from "./crossed-bootstrap";
import { assertConfidenceLevel } from "./normal-quantile";
import { studentTQuantile } from "./student-t";
import { welchDifference, type ConditionMoments } from "./welch";

/*
 * The condition effect's reported interval and the planner's power come from one variance model
 * (docs/condition-effect.md): the two conditions are independent samples of participants, each
 * participant's accuracy on the subset is one observation, and the items (answered in both conditions)
 * are the study's own, so their difficulty cancels in the difference and is not a source of error.
 *
 *   V_c  = G/(G − 1) · Σᵢ mᵢ² (ȳᵢ − p̂_c)² / M²   (variance of the pooled accuracy p̂_c = Σ mᵢȳᵢ / M of condition c:
 *                                                  G participants, mᵢ answers and accuracy ȳᵢ each, M = Σ mᵢ;
 *                                                  with equal mᵢ this is s²/G of the participant accuracies)
 *   SE   = √(V_static + V_interactive),  df = SE⁴ / Σ_c V_c²/(G_c − 1)   (Welch–Satterthwaite)
 *   interval = estimate ± t_{df, 1−α/2} · SE
 *
 * The planner (lib/stats/sample-size.ts participantsPerConditionForEffect) feeds the same welchDifference (./welch.ts) with the
 * variance a participant's accuracy is expected to have, p q (1 + (m − 1)ρ) / m, and asks for the power of this test.
 */

/** The moments of one condition from its answers: participants, pooled accuracy and V_c. */
export function conditionMoments(answers: readonly CrossedAnswer[]): ConditionMoments & { accuracy: number | null } {
  const byParticipant = new Map<string, [number, number]>();
  for (const a of answers) {
    const t = byParticipant.get(a.participantId) ?? [0, 0];
    t[0] += 1;
    t[1] += a.correct;
    byParticipant.set(a.participantId, t);
  }
  const g = byParticipant.size;
  const total = answers.length;
  if (total === 0) return { participants: 0, variance: 0, accuracy: null };
  const accuracy = answers.reduce((s, a) => s + a.correct, 0) / total;
  if (g < 2) return { participants: g, variance: 0, accuracy };
  let sum = 0;
  for (const [m, correct] of byParticipant.values()) sum += (correct - m * accuracy) ** 2;
  return { participants: g, variance: ((g / (g - 1)) * sum) / (total * total), accuracy };
}

export interface ParticipantWelchInterval {
  estimate: number | null;
  low: number | null;
  high: number | null;
  standardError: number | null;
  df: number | null;
}

/**
 * accuracy(interactive) − accuracy(static) over the answers with its Welch t interval on participants (above).
 * Null interval when a condition has fewer than 2 participants; null estimate when a condition has no answers.
 */
export function participantWelchInterval(
  answers: readonly CrossedAnswer[],
  confidence = 0.95,
): ParticipantWelchInterval {
  assertConfidenceLevel(confidence);
  const of = (c: Condition) => conditionMoments(answers.filter((a) => a.condition === c));
  const s = of("static");
  const x = of("interactive");
  if (s.accuracy === null || x.accuracy === null)
    return { estimate: null, low: null, high: null, standardError: null, df: null };
  const estimate = x.accuracy - s.accuracy;
  const d = welchDifference(s, x);
  if (d.df === null) return { estimate, low: null, high: null, standardError: null, df: null };
  const half = d.standardError === 0 ? 0 : studentTQuantile(1 - (1 - confidence) / 2, d.df) * d.standardError;
  return { estimate, low: estimate - half, high: estimate + half, standardError: d.standardError, df: d.df };
}
