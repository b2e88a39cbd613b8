import "server-only";
import { setBounded } from "@/lib/bounded-map";
import { createHmac, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "@/lib/server/secrets";
import type { RequestLike } from "@/lib/server/request-like";

/** The participant's session cookie: `<participantId>.<studyId>.<hmac>`; no account, the signed link is the identity. */
export const PARTICIPANT_COOKIE = "misi_participant";
const MAX_AGE_S = 14 * 24 * 3600;

function sign(payload: string, secret: string): string {
  return createHmac("sha256", secret).update(`participant:${payload}`).digest("base64url");
}

/**
 * MACs of the tokens this process issued or verified, by payload: a participant sends the same cookie with every
 * request, and without this each answer computes its HMAC twice (the cookie's check, and the cookie value the image
 * links' MAC covers), ≈ 4 % of the answer's app CPU. Only a MAC that was issued or verified is kept, so a forged token
 * neither hits nor fills it; a secret that changes (the development secret file) empties it. Bounded: the oldest entry
 * goes first (an entry is ≈ 200 bytes, so ≈ 20 MB when full). A hit skips the HMAC, so its timing could tell someone
 * who already holds a participant's and study's ids that the pair was used lately in this process; nothing more.
 */
const knownMacs = new Map<string, string>();
let knownMacsSecret: string | null = null;
export const MAX_KNOWN_MACS = 100_000;

/** The current secret; the memo is emptied when it is not the one the memo's MACs were made under. */
function currentSecret(): string {
  const secret = getAuthSecret();
  if (secret !== knownMacsSecret) {
    knownMacs.clear();
    knownMacsSecret = secret;
  }
  return secret;
}

function remember(payload: string, mac: string): void {
  setBounded(knownMacs, payload, mac, MAX_KNOWN_MACS);
}

export function createParticipantToken(participantId: string, studyId: string): string {
  const payload = `${participantId}.${studyId}`;
  const secret = currentSecret();
  let mac = knownMacs.get(payload);
  if (mac === undefined) remember(payload, (mac = sign(payload, secret)));
  return `${payload}.${mac}`;
}

/** Verifies a token; returns its ids, or null for a missing, malformed or tampered token. */
export function verifyParticipantToken(
  token: string | undefined | null,
): { participantId: string; studyId: string } | null {
  if (!token) return null;
  const parts = token.split(".");
  if (parts.length !== 3 || parts.some((p) => !p || p.length > 100)) return null;
  const [participantId, studyId, mac] = parts as [string, string, string];
  const payload = `${participantId}.${studyId}`;
  const secret = currentSecret();
  const known = knownMacs.get(payload);
  const expectedMac = known ?? sign(payload, secret);
  const expected = Buffer.from(expectedMac);
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  // The computed MAC, not a slice of the request's cookie (which would keep the whole header string alive).
  if (known === undefined) remember(payload, expectedMac);
  return { participantId, studyId };
}

export const PARTICIPANT_COOKIE_OPTIONS = {
  httpOnly: true,
  sameSite: "lax" as const,
  path: "/",
  maxAge: MAX_AGE_S,
  secure: process.env.NODE_ENV === "production" && (process.env.NEXTAUTH_URL ?? "").startsWith("https://"),
};

/** The participant session a request carries in its Cookie header, or null (no Next request context needed). */
export function participantFromRequest(request: RequestLike): { participantId: string; studyId: string } | null {
  return verifyParticipantToken(cookieValue(request.headers.get("cookie"), PARTICIPANT_COOKIE));
}

/** One cookie's value from a Cookie header (`a=1; b=2`), percent-decoded as browsers and Next read it; null when absent. */
function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const pair of header.split(/; */)) {
    const eq = pair.indexOf("=");
    if (eq === -1 || pair.slice(0, eq) !== name) continue;
    const raw = pair.slice(eq + 1);
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

/**
 * The Set-Cookie header value that gives the browser its participant session, with PARTICIPANT_COOKIE_OPTIONS in the
 * form Next's `response.cookies.set` writes it (Path, Expires, Max-Age, Secure, HttpOnly, SameSite).
 */
export function participantSetCookie(participantId: string, studyId: string, now: number = Date.now()): string {
  const o = PARTICIPANT_COOKIE_OPTIONS;
  const attributes = [
    `Path=${o.path}`,
    `Expires=${new Date(now + o.maxAge * 1000).toUTCString()}`,
    `Max-Age=${o.maxAge}`,
    ...(o.secure ? ["Secure"] : []),
    "HttpOnly",
    `SameSite=${o.sameSite}`,
  ];
  return [
    `${PARTICIPANT_COOKIE}=${encodeURIComponent(createParticipantToken(participantId, studyId))}`,
    ...attributes,
  ].join("; ");
}
