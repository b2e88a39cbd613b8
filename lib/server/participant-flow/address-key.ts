import "server-only";
import { createHmac } from "node:crypto";
import { getAuthSecret } from "@/lib/server/secrets";

/**
 * The participant's network address (already an IPv6 client's /64: clientAddressFrom) as stored on the participant
 * for the per-address share: an HMAC keyed with the server secret and the study, so the database holds no address
 * and one address's keys in two studies do not match.
 */
export function participantAddressKey(studyId: string, address: string): string {
  return createHmac("sha256", getAuthSecret())
    .update(`participant-address|${studyId}|${address}`)
    .digest("base64url")
    .slice(0, 32);
}
