import "server-only";
import { db } from "@/lib/server/db";
import { startParticipant, type AssignResult } from "@/lib/server/participant-flow/assign-items";
import { withDbRetry } from "@/lib/server/db-retry";
import { readConsentContext } from "@/lib/server/participant-flow/consent-context";
import { consentLimitRules, type ConsentLimits } from "@/lib/server/participant-flow/admission-limits";
import type { RateLimitDecision } from "@/lib/server/rate-limit";
import { participantAddressKey } from "@/lib/server/participant-flow/address-key";
import { deviceAllowed, effectiveDeviceRule } from "@/lib/participant/device-rule";
import { screenOutForDevice } from "@/lib/server/participant-flow/device-and-primer";
import type { DeviceInfo } from "@/lib/participant/api-contract";

/** Device metadata recorded at consent: the participant API contract defines it. */
export type { DeviceInfo } from "@/lib/participant/api-contract";

/**
 * Accepting consent starts the session: the items are reserved and the participant counted, once, in one database
 * call (`startParticipant`); when the study has no free item or is full the participant is told so, stays
 * `consenting` and holds nothing. Declining ends the session politely. Only a participant still deciding can change
 * their answer (conditional updates, so accept and decline racing end in one state), and a declined one posting
 * "accept" later takes nothing from the pool.
 */
export async function recordConsent(
  participantId: string,
  accept: boolean,
  device: DeviceInfo | null,
): Promise<AssignResult | null> {
  if (!accept) {
    await withDbRetry(() =>
      db.participant.updateMany({ where: { id: participantId, status: "consenting" }, data: { status: "declined" } }),
    );
    return null;
  }
  return startParticipant(participantId, device);
}

/**
 * "Accept" from the consent route in two database calls: the participant and study are read and the consent limit
 * counted in one (readConsentContext: a participant no longer consenting is neither counted nor refused), then the
 * start (misi_start_participant). Over the limit nothing is counted or started: `admitted` says so. The first call is
 * retried once on a dropped connection like every read; a retry after a call that had committed counts one extra
 * consent event (the browser's own retry of a failed request would count it too).
 */
export async function acceptConsent(
  participantId: string,
  studyId: string,
  address: string,
  device: DeviceInfo | null,
  limits?: ConsentLimits,
): Promise<{ admitted: RateLimitDecision; result: AssignResult | null }> {
  const read = await withDbRetry(() => readConsentContext(participantId, consentLimitRules(studyId, address, limits)));
  if (!read) return { admitted: { ok: true }, result: null };
  if (!read.decision.ok) return { admitted: read.decision, result: null };
  // The browser checks the device before showing consent (the device route); a client that skipped it is screened
  // out here by the same rule, before anything is reserved.
  if (!deviceAllowed(effectiveDeviceRule(read.context.study.config), device)) {
    await screenOutForDevice(participantId, device);
    return { admitted: read.decision, result: null };
  }
  return {
    admitted: read.decision,
    result: await startParticipant(
      participantId,
      device,
      read.context,
      address === "unknown" ? null : participantAddressKey(studyId, address),
    ),
  };
}
