import { NextResponse } from "next/server";
import { z } from "zod";
import { markQuestionShown } from "@/lib/server/dal/timing/question-clock";
import { readJsonBody } from "@/lib/server/participant/read-json-body";
import { requireParticipant } from "@/lib/server/participant/require-participant";
import { errorResponse, NO_STORE_JSON } from "@/lib/server/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const ShownBodySchema = z.object({ assignmentId: z.string().min(1).max(64) }).strict();

// POST /api/participant/shown – stamps when the question itself is displayed (once) and returns the server-clock deadline
export async function POST(request: Request) {
  try {
    const { participantId } = await requireParticipant();
    const body = ShownBodySchema.parse(await readJsonBody(request));
    return NextResponse.json(await markQuestionShown(participantId, body.assignmentId), { headers: NO_STORE_JSON });
  } catch (err) {
    return errorResponse(err);
  }
}
