import { NextResponse } from "next/server";
import { recordPrimerSeen } from "@/lib/server/dal/participant/device-and-primer";
import { requireParticipant } from "@/lib/server/participant/require-participant";
import { errorResponse, NO_STORE_JSON } from "@/lib/server/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// POST /api/participant/primer – the H-bond primer was read (idempotent): not shown again, in any browser.
export async function POST() {
  try {
    const { participantId } = await requireParticipant();
    await recordPrimerSeen(participantId);
    return NextResponse.json({ ok: true }, { headers: NO_STORE_JSON });
  } catch (err) {
    return errorResponse(err);
  }
}
