import "server-only";
import { db } from "@/lib/server/db";
import { Scene3dSchema, type Scene3d } from "@/lib/scene3d";

/** The 3D scene of one of this participant's interactive assignments, or null. */
export async function findSceneForParticipant(assignmentId: string, participantId: string): Promise<Scene3d | null> {
  const assignment = await db.assignment.findFirst({
    where: { id: assignmentId, participantId, participant: { condition: "interactive" } },
    select: { item: { select: { payload: true } } },
  });
  const scene = (assignment?.item.payload as { scene3d?: unknown } | undefined)?.scene3d;
  const parsed = Scene3dSchema.safeParse(scene);
  return parsed.success ? parsed.data : null;
}
