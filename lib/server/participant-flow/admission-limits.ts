import "server-only";
import { readConsentContext } from "@/lib/server/participant-flow/consent-context";
import { env } from "@/lib/server/env";
import { consumeRateLimit, type RateLimitDecision, type RateLimitRule } from "@/lib/server/rate-limit";

/** Window of the participant join and consent limits. */
export const PARTICIPANT_LIMIT_WINDOW_MS = 10 * 60_000;

export interface ConsentLimits {
  perAddress: number;
}

const defaultLimits = (): ConsentLimits => ({ perAddress: env.PARTICIPANT_LIMIT_PER_ADDRESS });

/**
 * The rules of the `join` or `consent` limit: per study and client address (an IPv6 client counts as its /64). No
 * study-wide window: 16 addresses × 20 consents would fill one of 300 per 10 minutes and refuse every real
 * participant's start for up to 10 minutes, while a many-address attacker could reserve items with or without it
 * (docs/decisions/0007-participant-limits-per-address.md).
 */
export function participantLimitRules(
  kind: "join" | "consent",
  studyId: string,
  address: string,
  limits: ConsentLimits = defaultLimits(),
): RateLimitRule[] {
  return [
    { key: `${kind}:address:${studyId}|${address}`, limit: limits.perAddress, windowMs: PARTICIPANT_LIMIT_WINDOW_MS },
  ];
}

export const consentLimitRules = (studyId: string, address: string, limits?: ConsentLimits) =>
  participantLimitRules("consent", studyId, address, limits);

/**
 * Counts a new participant (`join`) or a consent for a study, per client address: without it, 500 scripted link
 * opens make 500 participants in seconds. Over the limit nothing is counted and the caller turns the request
 * away. A lab behind one NAT address is the case the default (20 per 10 minutes) is sized for;
 * PARTICIPANT_LIMIT_PER_ADDRESS changes it.
 */
export function admitParticipantEvent(
  kind: "join" | "consent",
  studyId: string,
  address: string,
  limits?: ConsentLimits,
): Promise<RateLimitDecision> {
  return consumeRateLimit(participantLimitRules(kind, studyId, address, limits));
}

/**
 * The consent limit for one participant's "accept": only a participant still `consenting` is counted. The browser
 * retries a slow consent, and a retry that arrives after the participant started (or one posted later by a
 * participant who finished, declined or was screened out) starts nobody, so it neither consumes the limit nor is
 * refused by it (otherwise a retry of a started participant would get 429 for minutes once a launch filled the window). The
 * consent route does this inside acceptConsent's first call (one query with the participant and study read).
 */
export async function admitConsent(
  participantId: string,
  studyId: string,
  address: string,
  limits?: ConsentLimits,
): Promise<RateLimitDecision> {
  const read = await readConsentContext(participantId, consentLimitRules(studyId, address, limits));
  return read?.decision ?? { ok: true };
}

/**
 * The join limit: new participants per study per client address only, counted inside the join's own statement
 * (enterStudy). Joins have no study-wide limit: a joined participant who has not consented holds nothing, and a
 * study-wide join window would let 17 addresses × 20 GETs turn a Prolific launch away as "busy". The
 * never-consented participants a many-address flood can make are bounded by PARTICIPANT_PENDING_LIMIT_PER_STUDY.
 */
export function joinLimitRules(
  studyId: string,
  address: string,
  perAddress: number = env.PARTICIPANT_LIMIT_PER_ADDRESS,
): RateLimitRule[] {
  return participantLimitRules("join", studyId, address, { perAddress });
}
