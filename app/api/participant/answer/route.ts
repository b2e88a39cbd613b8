import { NextResponse } from "next/server";
import { z } from "zod";
import { submitAnswer } from "@/lib/server/dal/scoring/record-response";
import { readJsonBody } from "@/lib/server/participant/read-json-body";
import { requireParticipant } from "@/lib/server/participant/require-participant";
import { errorResponse, NO_STORE_JSON } from "@/lib/server/route";
import { withSignedImageUrls } from "@/lib/server/image-url";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Interaction log: camera path samples and widget events, bounded in size. */
const InteractionLogSchema = z
  .object({
    camera: z.array(z.object({ t: z.number(), q: z.tuple([z.number(), z.number(), z.number(), z.number()]), d: z.number() })).max(5000).optional(),
    events: z.array(z.object({ t: z.number(), type: z.string().max(40), detail: z.string().max(200).optional() })).max(2000).optional(),
    imageZooms: z.number().int().min(0).max(10_000).optional(),
    /** The browser window when the answer was given (participants resize windows and turn phones). */
    viewport: z.object({ width: z.number().int().min(0).max(100_000), height: z.number().int().min(0).max(100_000) }).optional(),
  })
  .strict();

const AnswerBodySchema = z.object({
  assignmentId: z.string().min(1).max(64),
  answer: z.string().max(4000),
  idempotencyKey: z.string().min(8).max(100),
  rtClientMs: z.number().int().min(0).max(24 * 3600 * 1000).nullable().optional(),
  timedOut: z.boolean().optional(),
  interactionLog: InteractionLogSchema.optional(),
});

// POST /api/participant/answer – score on the server and store before the participant advances (idempotent)
export async function POST(request: Request) {
  try {
    const { participantId } = await requireParticipant();
    const body = AnswerBodySchema.parse(await readJsonBody(request));
    const { result, update, timed } = await submitAnswer({
      participantId,
      assignmentId: body.assignmentId,
      rawAnswer: body.answer,
      idempotencyKey: body.idempotencyKey,
      rtClientMs: body.rtClientMs ?? null,
      interactionLog: body.interactionLog,
      timedOut: body.timedOut,
    });
    // `update`: progress, the next question or the end screen (the browser keeps the study's texts).
    return NextResponse.json({ result, update: withSignedImageUrls(update, participantId, timed) }, { headers: NO_STORE_JSON });
  } catch (err) {
    return errorResponse(err);
  }
}
