import "server-only";
import { ImageIdSchema } from "@/lib/participant/api-contract";
import { findImageForParticipant, findImageForStaff, type ImageBytes } from "@/lib/server/participant-flow/get-image";
import { NO_STORE_JSON } from "@/lib/server/api-response";
import {
  withOptionalParticipant,
  type ParticipantHandler,
} from "@/lib/server/participant-flow/routes/with-participant";
import { IMAGE_RESPONSE_HEADERS, notModified, serveSignedImage } from "@/lib/server/image-serve";
import { isSignedSegment } from "@/lib/server/image-url";

export { IMAGE_RESPONSE_HEADERS };

/**
 * GET /api/images/:id – an item image by opaque id (participants: only their own items, in a timed study only the
 * current question's once it is shown; staff: any), or by a participant's signed URL (lib/server/image-url.ts). `staffSignedIn` is asked only when the participant path found
 * nothing (no participant cookie, or not one of the participant's images): staff sessions are next-auth's, so the
 * Next route passes a lookup that needs Next's request context; a server without it passes none and such requests
 * are answered as for an anonymous caller (401, or 404 for a participant).
 */
export function imageHandler(staffSignedIn?: () => Promise<boolean>): ParticipantHandler<{ id: string }> {
  return withOptionalParticipant<{ id: string }>(async ({ request, params: { id }, participant }) => {
    // A participant's signed URL (untimed studies): checked without the database, bytes from the cache.
    if (isSignedSegment(id)) return serveSignedImage(request, id);
    if (!ImageIdSchema.safeParse(id).success) return new Response("Not found", { status: 404 });
    const found = participant ? await findImageForParticipant(id, participant.participantId) : null;
    let image: ImageBytes | null = found && !("refused" in found) ? found : null;
    if (!image) {
      if (staffSignedIn && (await staffSignedIn())) image = await findImageForStaff(id);
      else if (!participant) return new Response("Unauthorized", { status: 401 });
    }
    // Timed study, question not current or not reported shown yet (lib/server/participant-flow/question-content-gate.ts).
    if (!image && found && "refused" in found) {
      return Response.json(
        { error: { code: "CONFLICT", message: found.refused } },
        { status: 409, headers: NO_STORE_JSON },
      );
    }
    if (!image) return new Response("Not found", { status: 404 });
    const headers = { "Cache-Control": "private, max-age=3600", ETag: `"${image.sha256}"`, ...IMAGE_RESPONSE_HEADERS };
    if (notModified(request, headers.ETag)) return new Response(null, { status: 304, headers });
    return new Response(new Uint8Array(image.data), { headers: { ...headers, "Content-Type": image.mimeType } });
  });
}

/** The participant path only (no staff fallback): what a server without Next's request context serves. */
export const getParticipantImage = imageHandler();
