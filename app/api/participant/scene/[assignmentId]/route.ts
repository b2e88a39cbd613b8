import { NextResponse } from "next/server";
import { findSceneForParticipant } from "@/lib/server/dal/participant/get-scene";
import { AppError } from "@/lib/server/errors";
import { requireParticipant } from "@/lib/server/participant/require-participant";
import { errorResponse } from "@/lib/server/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/participant/scene/:assignmentId – the interactive 3D scene (first view only) of an assigned item (in a
// timed study only the current question's, once it is shown)
export async function GET(_request: Request, context: { params: Promise<{ assignmentId: string }> }) {
  try {
    const { participantId } = await requireParticipant();
    const { assignmentId } = await context.params;
    const found = await findSceneForParticipant(assignmentId, participantId);
    if (!found) throw new AppError("NOT_FOUND", "No 3D view for this question.");
    // Timed study, question not current or not reported shown yet (lib/server/dal/participant/question-content-gate.ts).
    if ("refused" in found) throw new AppError("CONFLICT", found.refused);
    return NextResponse.json(found.scene, { headers: { "Cache-Control": "private, max-age=600" } });
  } catch (err) {
    return errorResponse(err);
  }
}
