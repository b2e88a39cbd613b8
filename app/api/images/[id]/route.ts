import { getStaffUser } from "@/lib/server/auth";
import { findImageForParticipant, findImageForStaff } from "@/lib/server/dal/participant/get-image";
import { readParticipantSession } from "@/lib/server/participant/token";
import { NO_STORE_JSON } from "@/lib/server/route";
import { IMAGE_RESPONSE_HEADERS, serveSignedImage } from "@/lib/server/image-serve";
import { isSignedSegment } from "@/lib/server/image-url";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/images/:id – an item image by opaque id (participants: only their own items, in a timed study only the
// current question's once it is shown; staff: any), or by a participant's signed URL (lib/server/image-url.ts)
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  if (isSignedSegment(id)) return serveSignedImage(request, id);
  if (!/^[a-z0-9]{10,40}$/i.test(id)) return new Response("Not found", { status: 404 });
  const participant = await readParticipantSession();
  const found = participant ? await findImageForParticipant(id, participant.participantId) : null;
  let image = found && !("refused" in found) ? found : null;
  if (!image) {
    const staff = await getStaffUser();
    if (staff) image = await findImageForStaff(id);
    else if (!participant) return new Response("Unauthorized", { status: 401 });
  }
  // Timed study, question not current or not reported shown yet (lib/server/dal/participant/question-content-gate.ts).
  if (!image && found && "refused" in found) {
    return Response.json({ error: { code: "CONFLICT", message: found.refused } }, { status: 409, headers: NO_STORE_JSON });
  }
  if (!image) return new Response("Not found", { status: 404 });
  return new Response(new Uint8Array(image.data), {
    headers: { "Content-Type": image.mimeType, "Cache-Control": "private, max-age=3600", ETag: `"${image.sha256}"`, ...IMAGE_RESPONSE_HEADERS },
  });
}
