import "server-only";
import { PARTICIPANT_API } from "@/lib/participant/api-contract";
import { recordPrimerSeen } from "@/lib/server/participant-flow/device-and-primer";
import { NO_STORE_JSON } from "@/lib/server/api-response";
import { withParticipant } from "@/lib/server/participant-flow/routes/with-participant";

/** POST /api/participant/primer – the H-bond primer was read (idempotent): not shown again, in any browser. No body. */
export const postPrimer = withParticipant(PARTICIPANT_API.primer, async ({ participant }) => {
  await recordPrimerSeen(participant.participantId);
  return Response.json({ ok: true }, { headers: NO_STORE_JSON });
});
