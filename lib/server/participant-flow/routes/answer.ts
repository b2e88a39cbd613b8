import "server-only";
import { PARTICIPANT_API } from "@/lib/participant/api-contract";
import { submitAnswer } from "@/lib/server/participant-flow/record-response";
import { NO_STORE_JSON } from "@/lib/server/api-response";
import { withSignedImageUrls } from "@/lib/server/image-url";
import { withParticipant } from "@/lib/server/participant-flow/routes/with-participant";

/** POST /api/participant/answer – score on the server and store before the participant advances (idempotent). */
export const postAnswer = withParticipant(PARTICIPANT_API.answer, async ({ participant, body }) => {
  const { result, update, timed } = await submitAnswer({
    participantId: participant.participantId,
    studyId: participant.studyId,
    assignmentId: body.assignmentId,
    itemId: body.itemId,
    rawAnswer: body.answer,
    idempotencyKey: body.idempotencyKey,
    rtClientMs: body.rtClientMs ?? null,
    interactionLog: body.interactionLog,
    timedOut: body.timedOut,
    signals: body.signals,
  });
  // `update`: progress, the next question or the end screen (the browser keeps the study's texts).
  return { json: { result, update: await withSignedImageUrls(update, participant, timed) }, headers: NO_STORE_JSON };
});
