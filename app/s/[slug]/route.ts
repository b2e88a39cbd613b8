import { NextResponse, type NextRequest } from "next/server";
import { enterStudy } from "@/lib/server/dal/participant/enter-study";
import { joinLimitRules } from "@/lib/server/participant/admission-limits";
import { requestClientAddress } from "@/lib/server/client-address";
import { createParticipantToken, PARTICIPANT_COOKIE, PARTICIPANT_COOKIE_OPTIONS, verifyParticipantToken } from "@/lib/server/participant/token";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /s/:slug?PROLIFIC_PID=..&STUDY_ID=..&SESSION_ID=.. – enter a study (or resume), set the participant cookie
export async function GET(request: NextRequest, context: { params: Promise<{ slug: string }> }) {
  const { slug } = await context.params;
  const query = Object.fromEntries(request.nextUrl.searchParams.entries());
  const cookie = verifyParticipantToken(request.cookies.get(PARTICIPANT_COOKIE)?.value);
  const address = requestClientAddress(request);
  const result = await enterStudy({ slug, query, existingParticipantId: cookie?.participantId, joinLimits: (studyId) => joinLimitRules(studyId, address) });
  // Relative Location: behind a reverse proxy (or reached by IP, a www. name…) the browser stays on the host it used,
  // so the participant cookie set here comes back. An absolute URL built from the server's own host would not.
  if (result.kind !== "ok") {
    const response = seeOther(`/s/${encodeURIComponent(slug)}/status?kind=${encodeURIComponent(result.kind)}`);
    if (result.kind === "busy") response.headers.set("Retry-After", String(result.retryAfterSec));
    return response;
  }
  const response = seeOther(`/s/${encodeURIComponent(slug)}/session`);
  response.cookies.set(PARTICIPANT_COOKIE, createParticipantToken(result.participantId, result.studyId), PARTICIPANT_COOKIE_OPTIONS);
  return response;
}

function seeOther(location: string): NextResponse {
  return new NextResponse(null, { status: 303, headers: { Location: location } });
}
