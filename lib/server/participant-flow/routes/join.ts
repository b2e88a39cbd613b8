import "server-only";
import { enterStudy } from "@/lib/server/participant-flow/enter-study";
import { requestClientAddress } from "@/lib/server/client-address";
import { joinLimitRules } from "@/lib/server/participant-flow/admission-limits";
import { participantFromRequest, participantSetCookie } from "@/lib/server/participant-flow/token";
import { isStudySlug } from "@/lib/study-slug";
import type { RequestLike } from "@/lib/server/request-like";

/**
 * GET /s/:slug?PROLIFIC_PID=..&STUDY_ID=..&SESSION_ID=.. – enter a study (or resume) and set the participant cookie,
 * then 303 to the session page (or to the status page saying why not). A database error that outlasts enterStudy's
 * retries is thrown: the server in front turns it into its error page. A slug that is not a study slug (isStudySlug:
 * ".", "..", anything the study form would refuse) is answered 404 here, before any database work and without a
 * redirect: a Location built from it could leave /s/<slug>/ ("/s/../status").
 */
export async function getJoin(
  request: RequestLike,
  context: { params: { slug: string } | Promise<{ slug: string }> },
): Promise<Response> {
  const { slug } = await context.params;
  if (!isStudySlug(slug)) return studyLinkNotFound();
  const query = Object.fromEntries(new URL(request.url).searchParams.entries());
  const cookie = participantFromRequest(request);
  const address = requestClientAddress(request);
  const result = await enterStudy({
    slug,
    query,
    existingParticipantId: cookie?.participantId,
    joinLimits: (studyId) => joinLimitRules(studyId, address),
  });
  // Relative Location: behind a reverse proxy (or reached by IP, a www. name…) the browser stays on the host it used,
  // so the participant cookie set here comes back. An absolute URL built from the server's own host would not.
  if (result.kind !== "ok") {
    const response = seeOther(`/s/${encodeURIComponent(slug)}/status?kind=${encodeURIComponent(result.kind)}`);
    if (result.kind === "busy") response.headers.set("Retry-After", String(result.retryAfterSec));
    return response;
  }
  const response = seeOther(`/s/${encodeURIComponent(slug)}/session`);
  response.headers.append("Set-Cookie", participantSetCookie(result.participantId, result.studyId));
  return response;
}

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location } });
}

/**
 * The answer to a study link whose slug no study can have (the custom server's front and the join route): 404 with a
 * small page in the words of the status page's "not_found", never a redirect.
 */
export function studyLinkNotFound(): Response {
  const page =
    '<!doctype html><html lang="en"><meta charset="utf-8"><meta name="robots" content="noindex"><title>Study not found</title>' +
    "<h1>Study not found</h1><p>This study link is not valid. Please check the link you were given.</p></html>";
  return new Response(page, {
    status: 404,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}
