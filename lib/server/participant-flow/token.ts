import "server-only";
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
 * MACs of the tokens this process issued or verified, by payload, with the secret they were made under: a participant
 * sends the same cookie with every request, and its HMAC was ≈ 4 % of an answer's app CPU (twice per answer: the check
 * and the image links' MAC, which covers the cookie value). Only a MAC that was issued or verified is kept, so a
 * forged token neither hits nor fills it; a secret that changes (the development secret file) misses it. Bounded:
 * the oldest entry goes first (an entry is ≈ 150 bytes).
 */
const knownMacs = new Map<string, { secret: string; mac: string }>();
const MAX_KNOWN_MACS = 100_000;

function knownMac(payload: string, secret: string): string | undefined {
  const known = knownMacs.get(payload);
  return known?.secret === secret ? known.mac : undefined;
}

function remember(payload: string, secret: string, mac: string): void {
  if (knownMacs.size >= MAX_KNOWN_MACS && !knownMacs.has(payload)) knownMacs.delete(knownMacs.keys().next().value!);
  knownMacs.set(payload, { secret, mac });
}

export function createParticipantToken(participantId: string, studyId: string): string {
  const payload = `${participantId}.${studyId}`;
  const secret = getAuthSecret();
  let mac = knownMac(payload, secret);
  if (mac === undefined) remember(payload, secret, (mac = sign(payload, secret)));
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
  const secret = getAuthSecret();
  const known = knownMac(payload, secret);
  const expected = Buffer.from(known ?? sign(payload, secret));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (known === undefined) remember(payload, secret, mac);
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
