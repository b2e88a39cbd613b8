import "server-only";
import { ImageIdSchema } from "@/lib/participant/api-contract";
import { findImageForParticipant, findImageForStaff } from "@/lib/server/participant-flow/get-image";
import { NO_STORE_JSON } from "@/lib/server/api-response";
import {
  withOptionalParticipant,
  type ParticipantHandler,
} from "@/lib/server/participant-flow/routes/with-participant";
import { IMAGE_RESPONSE_HEADERS, notModified, serveStoredImage } from "@/lib/server/image-serve";
import { imageUrlFor, TIMED_IMAGE_URL_TTL_S } from "@/lib/server/image-url";

export { IMAGE_RESPONSE_HEADERS };

/**
 * GET /api/images/:id – an item image by opaque id. A participant (only their own items; in a timed study only the
 * current question's, once it is shown) is redirected to a signed link that expires TIMED_IMAGE_URL_TTL_S later
 * (lib/server/image-url.ts), which nginx serves from the image store: the app sends no image bytes to participants.
 * Staff get the bytes (previews). `staffSignedIn` is asked only when the participant path found nothing (no
 * participant cookie, or not one of the participant's images): staff sessions are next-auth's, so the Next route
 * passes a lookup that needs Next's request context; a server without it passes none and such requests are answered
 * as for an anonymous caller (401, or 404 for a participant).
 */
export function imageHandler(staffSignedIn?: () => Promise<boolean>): ParticipantHandler<{ id: string }> {
  return withOptionalParticipant<{ id: string }>(async ({ request, params: { id }, participant }) => {
    if (!ImageIdSchema.safeParse(id).success) return new Response("Not found", { status: 404 });
    const found = participant ? await findImageForParticipant(id, participant.participantId) : null;
    if (participant && found && !("refused" in found)) {
      const link = imageUrlFor(found, participant, Date.now(), TIMED_IMAGE_URL_TTL_S, 1);
      // Not cached: the next request must pass the gate again.
      return new Response(null, { status: 302, headers: { Location: link, "Cache-Control": "no-store" } });
    }
    const image = staffSignedIn && (await staffSignedIn()) ? await findImageForStaff(id) : null;
    if (!image && !participant) return new Response("Unauthorized", { status: 401 });
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

/**
 * GET /api/images/c/<file>?e=&s= – a signed link to a stored picture (lib/image-link.ts), when the app answers it
 * rather than nginx. The participant is not looked up: the link's digest covers the session cookie.
 */
export const getStoredImage: ParticipantHandler<{ file: string }> = withOptionalParticipant<{ file: string }>(
  ({ request, params: { file } }) => serveStoredImage(request, file),
);
