import "server-only";
import { db } from "@/lib/server/db";
import { withDbRetry } from "@/lib/server/db-retry";
import type { DeviceInfo } from "@/lib/server/dal/participant/record-consent";

/** Participant.flags key of the device screen-out (endScreens picks the message by it). */
export const SCREEN_OUT_REASON_DEVICE = "device";

/**
 * A participant still deciding whose device the study does not take (lib/participant/device-rule.ts) ends here: status
 * screened_out with the reason and the device recorded, nothing reserved or counted. A participant who already started
 * is left as is (one conditional statement, so it cannot race consent into two states).
 */
export async function screenOutForDevice(participantId: string, device: DeviceInfo | null): Promise<void> {
  const now = new Date().toISOString();
  await withDbRetry(
    () => db.$executeRaw`
      UPDATE "Participant"
      SET status = 'screened_out', "completedAt" = ${now}::timestamp(3),
          "deviceInfo" = ${device === null ? null : JSON.stringify(device)}::jsonb,
          flags = COALESCE(flags, '{}'::jsonb) || jsonb_build_object('screenOutReason', ${SCREEN_OUT_REASON_DEVICE}::text)
      WHERE id = ${participantId} AND status = 'consenting'`,
  );
}

/**
 * The H-bond primer was read: stamped once in the participant's flags, so a resumed session (another browser, cleared
 * storage) does not show it again. Idempotent; merges into flags without touching other keys.
 */
export async function recordPrimerSeen(participantId: string): Promise<void> {
  const now = new Date().toISOString();
  await withDbRetry(
    () => db.$executeRaw`
      UPDATE "Participant"
      SET flags = COALESCE(flags, '{}'::jsonb) || jsonb_build_object('hbondPrimerSeenAt', ${now}::text)
      WHERE id = ${participantId} AND status = 'active' AND NOT (COALESCE(flags, '{}'::jsonb) ? 'hbondPrimerSeenAt')`,
  );
}
