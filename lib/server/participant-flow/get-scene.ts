import "server-only";
import { db } from "@/lib/server/db";
import { Scene3dSchema, type Scene3d } from "@/lib/scene3d";
import {
  checkQuestionContent,
  GATE_SELECT,
  type ContentRefusal,
} from "@/lib/server/participant-flow/question-content-gate";

/**
 * The 3D scene of one of this participant's interactive assignments, or null. In a timed study, a refusal until it is
 * the participant's current question and has been reported shown (question-content-gate.ts).
 */
export async function findSceneForParticipant(
  assignmentId: string,
  participantId: string,
): Promise<{ scene: Scene3d } | ContentRefusal | null> {
  const assignment = await db.assignment.findFirst({
    where: { id: assignmentId, participantId, participant: { condition: "interactive" } },
    select: { ...GATE_SELECT, item: { select: { status: true, payload: true } } },
  });
  if (!assignment) return null;
  const parsed = Scene3dSchema.safeParse((assignment.item.payload as { scene3d?: unknown } | null)?.scene3d);
  if (!parsed.success) return null;
  const refusal = await checkQuestionContent(participantId, assignment);
  return refusal ?? { scene: parsed.data };
}
