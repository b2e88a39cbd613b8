import { NextResponse } from "next/server";
import { getParticipantSession } from "@/lib/server/dal/participant/get-session";
import { AppError } from "@/lib/server/errors";
import { requireParticipant } from "@/lib/server/participant/require-participant";
import { errorResponse, NO_STORE_JSON } from "@/lib/server/route";
import { withSignedImageUrls } from "@/lib/server/image-url";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/participant/session – the participant's current screen (public data only). Reading never assigns or
// renews reservations: only answering does.
export async function GET() {
  try {
    const { participantId } = await requireParticipant();
    const session = await getParticipantSession(participantId);
    if (!session) throw new AppError("NOT_FOUND", "Session not found.");
    return NextResponse.json(withSignedImageUrls(session, participantId, session.study.timeLimitSec !== null), { headers: NO_STORE_JSON });
  } catch (err) {
    return errorResponse(err);
  }
}
