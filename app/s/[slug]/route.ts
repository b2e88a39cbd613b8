import { NextResponse, type NextRequest } from "next/server";
import { enterStudy } from "@/lib/server/dal/participant/enter-study";
import { createParticipantToken, PARTICIPANT_COOKIE, PARTICIPANT_COOKIE_OPTIONS, verifyParticipantToken } from "@/lib/server/participant/token";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /s/:slug?PROLIFIC_PID=..&STUDY_ID=..&SESSION_ID=.. – enter a study (or resume), set the participant cookie
export async function GET(request: NextRequest, context: { params: Promise<{ slug: string }> }) {
  const { slug } = await context.params;
  const query = Object.fromEntries(request.nextUrl.searchParams.entries());
  const cookie = verifyParticipantToken(request.cookies.get(PARTICIPANT_COOKIE)?.value);
  const result = await enterStudy({ slug, query, existingParticipantId: cookie?.participantId });
  const base = request.nextUrl.clone();
  base.search = "";
  if (result.kind !== "ok") {
    base.pathname = `/s/${encodeURIComponent(slug)}/status`;
    base.searchParams.set("kind", result.kind);
    return NextResponse.redirect(base, 303);
  }
  base.pathname = `/s/${encodeURIComponent(slug)}/session`;
  const response = NextResponse.redirect(base, 303);
  response.cookies.set(PARTICIPANT_COOKIE, createParticipantToken(result.participantId, result.studyId), PARTICIPANT_COOKIE_OPTIONS);
  return response;
}
