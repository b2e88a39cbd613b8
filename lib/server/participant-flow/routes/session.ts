import "server-only";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { NO_STORE_JSON } from "@/lib/server/api-response";
import { withSignedImageUrls } from "@/lib/server/image-url";
import { AppError } from "@/lib/server/errors";
import { withParticipant } from "@/lib/server/participant-flow/routes/with-participant";

/**
 * GET /api/participant/session – the participant's current screen (public data only). Reading never assigns or
 * renews reservations: only answering does.
 */
export const getSession = withParticipant({}, async ({ participant }) => {
  const session = await getParticipantSession(participant.participantId);
  if (!session) throw new AppError("NOT_FOUND", "Session not found.");
  return Response.json(await withSignedImageUrls(session, participant, session.study.timeLimitSec !== null), {
    headers: NO_STORE_JSON,
  });
});
