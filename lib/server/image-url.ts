import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "@/lib/server/secrets";

/**
 * Participant-scoped signed image URLs: `/api/images/<id><expiry><mac>`, one path segment of letters and digits (no
 * query string, nothing but the opaque id a participant may know). The MAC is an HMAC-SHA256, keyed with the app's
 * secret, over the image id, the participant id and the expiry, truncated to 128 bits; so a URL works only with the
 * cookie of the participant it was issued to, and only until it expires. Checking one needs no database: the image
 * route serves a valid one from its byte cache (lib/server/image-cache.ts).
 *
 * A URL is issued only where the participant may see the image at any time: the questions of an untimed study (the
 * current one and the next, for prefetch). A timed study's images stay plain `/api/images/<id>`, checked against the
 * database on every request (the content gate needs the question's "shown" stamp, which a signature cannot carry).
 *
 * Expiries are rounded up to whole hours, so the same participant gets the same URL for an hour: the URL the browser
 * prefetched for the next question is the one the next response names, and the browser's cache answers it.
 */
const EXPIRY_DIGITS = 7; // base 36: up to 36^7 s ≈ year 4453
const MAC_DIGITS = 32; // hex: 128 bits
const SUFFIX = EXPIRY_DIGITS + MAC_DIGITS;
const ID_PATTERN = /^[A-Za-z0-9]{10,40}$/;
export const IMAGE_URL_TTL_S = 4 * 3600;
const EXPIRY_STEP_S = 3600;

function mac(secret: string, imageId: string, participantId: string, expiry: string): string {
  return createHmac("sha256", secret)
    .update(`image:${imageId}:${participantId}:${expiry}`)
    .digest("hex")
    .slice(0, MAC_DIGITS);
}

/** The signed path segment for one image (an id the database gave out, so letters and digits). */
export function signImageSegment(
  imageId: string,
  participantId: string,
  nowMs = Date.now(),
  secret = getAuthSecret(),
): string {
  if (!ID_PATTERN.test(imageId)) throw new Error(`image id "${imageId}" is not an opaque id`);
  const expirySec = Math.ceil((nowMs / 1000 + IMAGE_URL_TTL_S) / EXPIRY_STEP_S) * EXPIRY_STEP_S;
  const expiry = expirySec.toString(36).padStart(EXPIRY_DIGITS, "0");
  return `${imageId}${expiry}${mac(secret, imageId, participantId, expiry)}`;
}

export function signedImageUrl(imageId: string, participantId: string, nowMs = Date.now()): string {
  return `/api/images/${signImageSegment(imageId, participantId, nowMs)}`;
}

/** A plain image id (10–40 letters and digits) is not signed; anything 39 characters longer may be. */
export function isSignedSegment(segment: string): boolean {
  return (
    segment.length > 40 && ID_PATTERN.test(segment.slice(0, -SUFFIX)) && /^[a-z0-9]+$/.test(segment.slice(-SUFFIX))
  );
}

export type SignedImageCheck =
  { ok: true; imageId: string; expiresAtMs: number } | { ok: false; reason: "malformed" | "expired" | "forged" };

/** Checks a signed segment for this participant, without the database. */
export function verifyImageSegment(
  segment: string,
  participantId: string,
  nowMs = Date.now(),
  secret = getAuthSecret(),
): SignedImageCheck {
  if (!isSignedSegment(segment)) return { ok: false, reason: "malformed" };
  const imageId = segment.slice(0, -SUFFIX);
  const expiry = segment.slice(-SUFFIX, -MAC_DIGITS);
  const given = Buffer.from(segment.slice(-MAC_DIGITS));
  const expected = Buffer.from(mac(secret, imageId, participantId, expiry));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "forged" };
  const expiresAtMs = parseInt(expiry, 36) * 1000;
  if (!Number.isFinite(expiresAtMs) || expiresAtMs <= nowMs) return { ok: false, reason: "expired" };
  return { ok: true, imageId, expiresAtMs };
}

interface ImageRef {
  id: string;
}
interface WithImages {
  current: { item: { images: ImageRef[] } } | null;
  upcomingImageIds: string[];
  study?: { timeLimitSec: number | null };
}

/**
 * Adds signed URLs to a session (or answer update) for its participant: `url` on each image of the current question,
 * `upcomingImageUrls` beside `upcomingImageIds`. Ids stay as they are (the browser keys its state by them). `timed`: the
 * study has a time limit; then nothing is signed (see above) and the browser uses plain URLs.
 */
export function withSignedImageUrls<T extends WithImages>(
  session: T,
  participantId: string,
  timed: boolean,
  nowMs = Date.now(),
): T & { upcomingImageUrls: string[] } {
  if (timed) return { ...session, upcomingImageUrls: [] };
  const sign = (id: string) => signedImageUrl(id, participantId, nowMs);
  return {
    ...session,
    current: session.current
      ? {
          ...session.current,
          item: {
            ...session.current.item,
            images: session.current.item.images.map((im) => ({ ...im, url: sign(im.id) })),
          },
        }
      : null,
    upcomingImageUrls: session.upcomingImageIds.map(sign),
  };
}
