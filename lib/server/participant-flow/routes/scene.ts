import "server-only";
import { findSceneForParticipant } from "@/lib/server/participant-flow/get-scene";
import { AppError } from "@/lib/server/errors";
import { withParticipant } from "@/lib/server/participant-flow/routes/with-participant";

/**
 * GET /api/participant/scene/:assignmentId – the interactive 3D scene (first view only) of an assigned item (in a
 * timed study only the current question's, once it is shown).
 */
export const getScene = withParticipant<{ assignmentId: string }>({}, async ({ participant, params }) => {
  const found = await findSceneForParticipant(params.assignmentId, participant.participantId);
  if (!found) throw new AppError("NOT_FOUND", "No 3D view for this question.");
  // Timed study, question not current or not reported shown yet (lib/server/participant-flow/question-content-gate.ts).
  if ("refused" in found) throw new AppError("CONFLICT", found.refused);
  return Response.json(found.scene, { headers: { "Cache-Control": "private, max-age=600" } });
});
