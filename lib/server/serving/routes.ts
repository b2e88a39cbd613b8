import "server-only";
import {
  getJoin,
  getParticipantImage,
  getScene,
  getStoredImage,
  getSession,
  postAnswer,
  postConsent,
  postDevice,
  postPrimer,
  postShown,
} from "@/lib/server/participant-flow/routes";
import type { ParticipantHandler } from "@/lib/server/participant-flow/routes";
import { IMAGE_LINK_PREFIX } from "@/lib/image-link";
import { PARTICIPANT_API } from "@/lib/participant/api-contract";

/**
 * The participant routes the custom server (server.mts) answers itself, with the handlers Next's route files export
 * (lib/server/participant-flow/routes): same code, same responses, without the framework's per-request work. Anything not
 * matched here exactly (other methods, trailing slashes, staff requests) goes to Next.
 */
export interface ParticipantRoute {
  handler: ParticipantHandler<Record<string, string>>;
  params: Record<string, string>;
  /**
   * Rejected with 503 + Retry-After when the process is saturated (lib/server/load-shed.ts). Only routes whose browser
   * side retries honouring Retry-After are shed: the question's content (images, which an <img> never retries; the 3D
   * scene, fetched once) and its shown stamp (the clock of a timed study) are always served.
   */
  shed: boolean;
  /** POST: the largest body read (the participant API contract's limit), whole, before the request is admitted. */
  maxBodyBytes?: number;
  /** GET without a body: on an unexpected throw the request can be handed to Next instead (its error page). */
  fallBackOnThrow?: boolean;
}

/** The participant POST routes, whether each may be shed (see ParticipantRoute.shed: /shown is the clock), their body limits. */
const POSTS: Record<string, { handler: ParticipantHandler; shed: boolean; maxBodyBytes: number }> = {
  [PARTICIPANT_API.consent.path]: {
    handler: postConsent,
    shed: true,
    maxBodyBytes: PARTICIPANT_API.consent.maxBodyBytes,
  },
  [PARTICIPANT_API.device.path]: { handler: postDevice, shed: true, maxBodyBytes: PARTICIPANT_API.device.maxBodyBytes },
  [PARTICIPANT_API.primer.path]: { handler: postPrimer, shed: true, maxBodyBytes: PARTICIPANT_API.primer.maxBodyBytes },
  [PARTICIPANT_API.shown.path]: { handler: postShown, shed: false, maxBodyBytes: PARTICIPANT_API.shown.maxBodyBytes },
  [PARTICIPANT_API.answer.path]: { handler: postAnswer, shed: true, maxBodyBytes: PARTICIPANT_API.answer.maxBodyBytes },
};

/** Next's staff session cookie (next-auth): such a request may be a staff preview, which only Next can authorise. */
export function hasStaffSessionCookie(cookieHeader: string | undefined): boolean {
  return !!cookieHeader && /(?:^|;\s*)(?:__Secure-)?next-auth\.session-token(?:\.\d+)?=/.test(cookieHeader);
}

const ONE_SEGMENT = /^[^/]+$/;

function segment(raw: string): string | null {
  if (!ONE_SEGMENT.test(raw)) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

export function matchParticipantRoute(
  method: string,
  pathname: string,
  cookieHeader: string | undefined,
): ParticipantRoute | null {
  if (method === "POST") {
    const post = POSTS[pathname];
    return post
      ? {
          handler: post.handler as ParticipantHandler<Record<string, string>>,
          params: {},
          shed: post.shed,
          maxBodyBytes: post.maxBodyBytes,
        }
      : null;
  }
  if (method !== "GET") return null;
  if (pathname === "/api/participant/session")
    return { handler: getSession as ParticipantHandler<Record<string, string>>, params: {}, shed: true };
  if (pathname.startsWith("/api/participant/scene/")) {
    const assignmentId = segment(pathname.slice("/api/participant/scene/".length));
    return assignmentId
      ? { handler: getScene as ParticipantHandler<Record<string, string>>, params: { assignmentId }, shed: false }
      : null;
  }
  if (pathname.startsWith(IMAGE_LINK_PREFIX)) {
    // A signed link (lib/image-link.ts), which nginx serves when it is in front. Never shed (an <img> is not retried).
    const file = segment(pathname.slice(IMAGE_LINK_PREFIX.length));
    return file
      ? { handler: getStoredImage as ParticipantHandler<Record<string, string>>, params: { file }, shed: false }
      : null;
  }
  if (pathname.startsWith("/api/images/")) {
    const id = segment(pathname.slice("/api/images/".length));
    if (!id) return null;
    // Never shed. A participant's plain id runs the content gate and is redirected to a short-lived signed link; a
    // staff cookie goes to Next, which can read the staff session.
    if (hasStaffSessionCookie(cookieHeader)) return null;
    return { handler: getParticipantImage as ParticipantHandler<Record<string, string>>, params: { id }, shed: false };
  }
  const join = /^\/s\/([^/]+)$/.exec(pathname);
  if (join) {
    const slug = segment(join[1]!);
    return slug
      ? {
          handler: getJoin as ParticipantHandler<Record<string, string>>,
          params: { slug },
          shed: true,
          fallBackOnThrow: true,
        }
      : null;
  }
  return null;
}
