import "server-only";
import { withDbRetry } from "@/lib/server/db-retry";
import { flowQuery } from "@/lib/server/participant-flow/flow-sql";
import type { DeviceInfo } from "@/lib/server/participant-flow/record-consent";

/** Participant.flags key of the device screen-out (endScreens picks the message by it). */
export const SCREEN_OUT_REASON_DEVICE = "device";

/**
 * A participant still deciding whose device the study does not take (lib/participant/device-rule.ts) ends here: status
 * screened_out with the reason and the device recorded, nothing reserved or counted. A participant who already started
 * is left as is (one conditional statement, so it cannot race consent into two states).
 */
export async function screenOutForDevice(participantId: string, device: DeviceInfo | null): Promise<void> {
  const now = new Date().toISOString();
  await withDbRetry(() =>
    flowQuery("screen-out-device", [
      participantId,
      now,
      device === null ? null : JSON.stringify(device),
      SCREEN_OUT_REASON_DEVICE,
    ]),
  );
}

/**
 * The H-bond primer was read: stamped once in the participant's flags, so a resumed session (another browser, cleared
 * storage) does not show it again. Idempotent; merges into flags without touching other keys.
 */
export async function recordPrimerSeen(participantId: string): Promise<void> {
  const now = new Date().toISOString();
  await withDbRetry(() => flowQuery("primer-seen", [participantId, now]));
}
