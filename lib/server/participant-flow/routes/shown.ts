import "server-only";
import { PARTICIPANT_API } from "@/lib/participant/api-contract";
import { markQuestionShown } from "@/lib/server/participant-flow/question-clock";
import { NO_STORE_JSON } from "@/lib/server/api-response";
import { withParticipant } from "@/lib/server/participant-flow/routes/with-participant";

/** POST /api/participant/shown – stamps when the question itself is displayed (once) and returns the server-clock deadline. */
export const postShown = withParticipant(PARTICIPANT_API.shown, async ({ participant, body }) =>
  Response.json(await markQuestionShown(participant.participantId, body.assignmentId), { headers: NO_STORE_JSON }),
);
