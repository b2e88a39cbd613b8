import "server-only";
import { z } from "zod";
import { db } from "@/lib/server/db";
import { assignItems, type AssignResult } from "@/lib/server/dal/participant/assign-items";

/** Device metadata recorded at consent (viewport, pixel ratio, user agent, pointer type). */
export const DeviceInfoSchema = z.object({
  viewportWidth: z.number().int().min(0).max(100_000),
  viewportHeight: z.number().int().min(0).max(100_000),
  screenWidth: z.number().int().min(0).max(100_000).optional(),
  screenHeight: z.number().int().min(0).max(100_000).optional(),
  devicePixelRatio: z.number().min(0).max(20),
  // PostgreSQL jsonb cannot hold U+0000; refusing it here gives a located 422 instead of a failed insert.
  userAgent: z.string().max(1000).refine((s) => !s.includes("\u0000"), "must not contain NUL characters"),
  pointer: z.enum(["fine", "coarse", "none"]),
  webgl: z.boolean().optional(),
});
export type DeviceInfo = z.infer<typeof DeviceInfoSchema>;

/**
 * Accepting consent starts the session and assigns the items (once); declining ends it politely. Only a participant
 * still deciding can change their answer (conditional updates, so accept and decline racing end in one state), and
 * only an active participant gets items: a declined one posting "accept" later must not take work from the pool.
 */
export async function recordConsent(participantId: string, accept: boolean, device: DeviceInfo | null): Promise<AssignResult | null> {
  if (!accept) {
    await db.participant.updateMany({ where: { id: participantId, status: "consenting" }, data: { status: "declined" } });
    return null;
  }
  await db.participant.updateMany({ where: { id: participantId, status: "consenting" }, data: { status: "active", consentAt: new Date(), deviceInfo: device ?? undefined } });
  const participant = await db.participant.findUniqueOrThrow({ where: { id: participantId }, select: { status: true } });
  if (participant.status !== "active") return null;
  return assignItems(participantId);
}
