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
import type { ParticipantReply } from "@/lib/server/participant-flow/routes";
import type { RequestLike } from "@/lib/server/request-like";
import { IMAGE_LINK_PREFIX } from "@/lib/image-link";
import { PARTICIPANT_API } from "@/lib/participant/api-contract";

/**
 * The participant routes the custom server (server.mts) answers itself, with the handlers Next's route files export
 * (lib/server/participant-flow/routes): same code, same responses, without the framework's per-request work. Anything not
 * matched here exactly (other methods, staff requests) goes to Next; a participant path that is not in its canonical
 * form (participantPathRefusal) never does.
 */
/** A route's handler as the front calls it: the route's own answer (a web Response or a JSON reply it writes itself). */
export type FrontReply = (request: RequestLike, params: Record<string, string>) => Promise<ParticipantReply>;

export interface ParticipantRoute {
  handler: FrontReply;
  params: Record<string, string>;
  /**
   * Rejected with 503 + Retry-After when the process is saturated (lib/server/load-shed.ts). Only routes whose browser
   * side retries honouring Retry-After are shed: the question's content (images, which an <img> never retries; the 3D
   * scene, fetched once) and its shown stamp (the clock of a timed study) are always served.
   */
  shed: boolean;
  /**
   * Counted against the client address's bound of requests in progress (429 beyond). Every shed route, and every POST
   * whether shed or not: /shown is never shed (the clock of a timed study) but its body is read like any other, so one
   * address must not hold an unbounded number of them open; the browser retries its 429 honouring Retry-After.
   */
  perAddress: boolean;
  /** POST: the largest body read (the participant API contract's limit), whole, before the request is admitted. */
  maxBodyBytes?: number;
  /** GET without a body: on an unexpected throw the request can be handed to Next instead (its error page). */
  fallBackOnThrow?: boolean;
}

type ContractKey = keyof typeof PARTICIPANT_API;

/** The join (a redirect, not a participant API route): its web handler as is. */
const joinReply: FrontReply = (request, params) => getJoin(request, { params: params as { slug: string } });

/**
 * The front's handler and shed rule for every route of the participant API contract (lib/participant/api-contract.ts,
 * the one list of the participant routes: their addresses, methods and body limits come from there). A route added to
 * the contract without an entry here does not compile. `param`: the name of a route's one path parameter, for the
 * routes whose address is a function of it. Only /shown of the POSTs is never shed (ParticipantRoute.shed: the clock).
 */
const FRONT_HANDLERS: {
  [K in ContractKey]: { handler: FrontReply; shed: boolean; param?: string };
} = {
  session: { handler: getSession.reply as FrontReply, shed: true },
  consent: { handler: postConsent.reply as FrontReply, shed: true },
  device: { handler: postDevice.reply as FrontReply, shed: true },
  primer: { handler: postPrimer.reply as FrontReply, shed: true },
  shown: { handler: postShown.reply as FrontReply, shed: false },
  answer: { handler: postAnswer.reply as FrontReply, shed: true },
  scene: { handler: getScene.reply as FrontReply, shed: false, param: "assignmentId" },
  image: { handler: getParticipantImage.reply as FrontReply, shed: false, param: "id" },
};

interface FixedRoute {
  key: ContractKey;
  handler: FrontReply;
  shed: boolean;
  maxBodyBytes?: number;
}

/** Routes with a fixed address, by "METHOD path"; routes with one parameter, by their address's fixed prefix. */
const FIXED = new Map<string, FixedRoute>();
const PREFIXED: Array<FixedRoute & { method: string; prefix: string; param: string }> = [];
for (const key of Object.keys(PARTICIPANT_API) as ContractKey[]) {
  const contract = PARTICIPANT_API[key];
  const front = FRONT_HANDLERS[key];
  const route: FixedRoute = {
    key,
    handler: front.handler,
    shed: front.shed,
    ...("maxBodyBytes" in contract ? { maxBodyBytes: contract.maxBodyBytes } : {}),
  };
  if (typeof contract.path === "string") FIXED.set(`${contract.method} ${contract.path}`, route);
  else PREFIXED.push({ ...route, method: contract.method, prefix: contract.path(""), param: front.param! });
}

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
  const fixed = FIXED.get(`${method} ${pathname}`);
  if (fixed)
    return {
      handler: fixed.handler,
      params: {},
      shed: fixed.shed,
      perAddress: fixed.shed || fixed.maxBodyBytes !== undefined,
      ...(fixed.maxBodyBytes !== undefined ? { maxBodyBytes: fixed.maxBodyBytes } : {}),
    };
  if (method === "GET" && pathname.startsWith(IMAGE_LINK_PREFIX)) {
    // A signed link (lib/image-link.ts), which nginx serves when it is in front. Never shed (an <img> is not retried).
    const file = segment(pathname.slice(IMAGE_LINK_PREFIX.length));
    return file
      ? {
          handler: getStoredImage.reply as FrontReply,
          params: { file },
          shed: false,
          perAddress: false,
        }
      : null;
  }
  for (const r of PREFIXED) {
    if (method !== r.method || !pathname.startsWith(r.prefix)) continue;
    const value = segment(pathname.slice(r.prefix.length));
    if (!value) return null;
    // An image id: never shed (an <img> is not retried). A participant's id runs the content gate and is redirected to a
    // short-lived signed link; with a staff cookie it goes to Next, which can read the staff session.
    if (r.key === "image" && hasStaffSessionCookie(cookieHeader)) return null;
    return { handler: r.handler, params: { [r.param]: value }, shed: r.shed, perAddress: r.shed };
  }
  if (method !== "GET") return null;
  const join = /^\/s\/([^/]+)$/.exec(pathname);
  if (join) {
    const slug = segment(join[1]!);
    return slug
      ? {
          handler: joinReply,
          params: { slug },
          shed: true,
          perAddress: true,
          fallBackOnThrow: true,
        }
      : null;
  }
  return null;
}

/** Where participant handlers live (compared in lower case: case variants of these are refused, not handed to Next). */
const PARTICIPANT_AREAS = ["/api/participant/", "/api/images/", "/s/"];

function inParticipantArea(path: string): boolean {
  return PARTICIPANT_AREAS.some((area) => path.startsWith(area) || path === area.slice(0, -1));
}

/**
 * The segments of a participant path that name a route rather than carry a value ("/api/participant/answer",
 * "/api/images/", "/s/<slug>/session"): all lower case in the canonical spelling. Values (slug, ids) keep their case.
 */
function hasCaseVariant(path: string): boolean {
  const segments = path.split("/");
  const fixed =
    segments[1]?.toLowerCase() === "s" ? [1, 3] : segments[2]?.toLowerCase() === "participant" ? [1, 2, 3] : [1, 2];
  return fixed.some((i) => segments[i] !== undefined && segments[i] !== segments[i]!.toLowerCase());
}

/**
 * The canonical form of a request path, as a router that normalises would read it: backslashes as slashes (Next
 * does), percent-escapes of unreserved characters decoded, repeated slashes collapsed, "." and ".." segments resolved
 * (RFC 3986 §5.2.4), a trailing slash dropped. Escapes of reserved characters ("%2F") stay as they are.
 */
export function canonicalPath(pathname: string): string {
  const decoded = pathname.replace(/\\/g, "/").replace(/%([0-9a-fA-F]{2})/g, (escape, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /^[A-Za-z0-9\-._~]$/.test(c) ? c : escape;
  });
  const segments: string[] = [];
  for (const s of decoded.split("/")) {
    if (s === "" || s === ".") continue;
    if (s === "..") segments.pop();
    else segments.push(s);
  }
  return `/${segments.join("/")}`;
}

/**
 * A path that would reach a participant handler (or the session page) in some other spelling than the one the front
 * matches: "redirect" to the canonical path (GET and HEAD: the browser asks again, through the front's guards), or
 * "not-found" (other methods; a case variant, which has no canonical form). Null for a canonical path and for paths
 * outside the participant area. Without this, "/api/p/../participant/answer" or "/api/participant/answer/" went to
 * Next, which may route them to the same handler past the per-address bound, the body deadline and the shedder.
 */
export function participantPathRefusal(
  method: string,
  pathname: string,
): { kind: "redirect"; location: string } | { kind: "not-found" } | null {
  const canonical = canonicalPath(pathname);
  // An escaped separator ("/api/participant%2Fanswer") keeps a path out of the area as written, but Next's router also
  // tries the decoded path, which names the participant handler: refused, as no participant value holds a slash.
  const separatorsDecoded = canonicalPath(pathname.replace(/%(2f|5c)/gi, "/"));
  if (separatorsDecoded !== canonical && inParticipantArea(separatorsDecoded.toLowerCase()))
    return { kind: "not-found" };
  const lower = canonical.toLowerCase();
  if (!inParticipantArea(lower)) return null;
  if (hasCaseVariant(canonical)) return { kind: "not-found" };
  if (canonical === pathname) return null;
  return method === "GET" || method === "HEAD" ? { kind: "redirect", location: canonical } : { kind: "not-found" };
}
