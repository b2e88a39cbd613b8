import "server-only";
import { setBounded } from "@/lib/bounded-map";
import { createHmac } from "node:crypto";
import { signImageLink } from "@/lib/image-link";
import { dbPool } from "@/lib/server/db";
import { env } from "@/lib/server/env";
import { createParticipantToken } from "@/lib/server/participant-flow/token";
import { getAuthSecret } from "@/lib/server/secrets";

/**
 * Participant image links (the rule: lib/image-link.ts): `/api/images/c/<sha256>.<ext>?e=<expiry>&s=<mac>`, served by
 * nginx from the image store (deploy/nginx.conf.template) or, without nginx, by the app's own route with the same
 * check (lib/server/image-serve.ts). The MAC covers the participant's cookie, so a link works only in the session it
 * was issued to, until its expiry.
 *
 * Issued only where the participant may see the image at that moment:
 * - untimed studies: the current question's images and the next one's (for prefetch), in the session and answer
 *   responses. Expiries are at least IMAGE_URL_TTL_S ahead, rounded up to whole hours, so the same participant gets
 *   the same link for an hour: the link the browser prefetched for the next question is the one the next response
 *   names, and the browser's cache answers it.
 * - timed studies: none in responses. The browser asks for `/api/images/<id>`, the app runs the content gate (current
 *   question, reported shown) against the database and redirects to a link that expires TIMED_IMAGE_URL_TTL_S later
 *   (lib/server/participant-flow/routes/image.ts).
 */
export const IMAGE_URL_TTL_S = 4 * 3600;
const EXPIRY_STEP_S = 3600;
export const TIMED_IMAGE_URL_TTL_S = 60;

/** The links' secret: IMAGE_URL_SECRET (which nginx's config also holds), else one derived from the app's secret. */
export function imageUrlSecret(): string {
  if (env.IMAGE_URL_SECRET !== undefined) return env.IMAGE_URL_SECRET;
  const authSecret = getAuthSecret();
  // Derived once per app secret (every response with images asks for it).
  if (derived?.from !== authSecret)
    derived = {
      from: authSecret,
      secret: createHmac("sha256", authSecret).update("misi image links").digest("base64url"),
    };
  return derived.secret;
}
let derived: { from: string; secret: string } | null = null;

export interface ImageRef {
  sha256: string;
  mimeType: string;
}
export interface LinkParticipant {
  participantId: string;
  studyId: string;
}

/**
 * Signs links for one participant: the secret and the cookie value the MAC covers are looked up once per response
 * (the cookie's MAC is the one its check on this request remembered: participant-flow/token.ts). Each link expires
 * `ttlS` ahead, rounded up to `stepS`.
 */
export function imageLinkSigner(
  participant: LinkParticipant,
): (ref: ImageRef, nowMs?: number, ttlS?: number, stepS?: number) => string {
  const secret = imageUrlSecret();
  // The cookie value the browser sends (ids and a base64url MAC: the cookie's percent-encoding leaves it unchanged).
  const cookie = createParticipantToken(participant.participantId, participant.studyId);
  return (ref, nowMs = Date.now(), ttlS = IMAGE_URL_TTL_S, stepS = EXPIRY_STEP_S) =>
    signImageLink({
      secret,
      sha256: ref.sha256,
      mimeType: ref.mimeType,
      cookie,
      expirySec: Math.ceil((nowMs / 1000 + ttlS) / stepS) * stepS,
    });
}

/** One link for this participant (imageLinkSigner). */
export function imageUrlFor(
  ref: ImageRef,
  participant: LinkParticipant,
  nowMs = Date.now(),
  ttlS = IMAGE_URL_TTL_S,
  stepS = EXPIRY_STEP_S,
): string {
  return imageLinkSigner(participant)(ref, nowMs, ttlS, stepS);
}

/**
 * Content hash and type per image id. Images never change once imported, so the answers are kept (bounded by count:
 * an entry is two short strings); a session read asks the database only for ids this process has not seen.
 */
const refs = new Map<string, ImageRef>();
const MAX_REFS = 200_000;

export async function imageRefs(ids: readonly string[]): Promise<Map<string, ImageRef>> {
  const missing = [...new Set(ids.filter((id) => !refs.has(id)))];
  if (missing.length > 0) {
    const { rows } = await dbPool().query<{ id: string; sha256: string; mimeType: string }>(
      `SELECT id, sha256, "mimeType" FROM "ItemImage" WHERE id = ANY($1::text[])`,
      [missing],
    );
    for (const row of rows) {
      setBounded(refs, row.id, { sha256: row.sha256, mimeType: row.mimeType }, MAX_REFS);
    }
  }
  const out = new Map<string, ImageRef>();
  for (const id of ids) {
    const ref = refs.get(id);
    if (!ref) throw new Error(`image ${id} is not stored`);
    out.set(id, ref);
  }
  return out;
}

interface WithImages {
  current: { item: { images: { id: string }[] } } | null;
  upcomingImageIds: string[];
  study?: { timeLimitSec: number | null };
}

/**
 * Adds signed links to a session (or answer update) for its participant: `url` on each image of the current question,
 * `upcomingImageUrls` beside `upcomingImageIds`. Ids stay as they are (the browser keys its state by them). `timed`:
 * the study has a time limit; then nothing is signed (see above) and the browser uses plain URLs.
 */
export async function withSignedImageUrls<T extends WithImages>(
  session: T,
  participant: LinkParticipant,
  timed: boolean,
  nowMs = Date.now(),
): Promise<T & { upcomingImageUrls: string[] }> {
  if (timed) return { ...session, upcomingImageUrls: [] };
  const ids = [...(session.current?.item.images.map((im) => im.id) ?? []), ...session.upcomingImageIds];
  const byId = await imageRefs(ids);
  let signer: ReturnType<typeof imageLinkSigner> | null = null;
  const sign = (id: string) => (signer ??= imageLinkSigner(participant))(byId.get(id)!, nowMs);
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
