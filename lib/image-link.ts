import { createHash, timingSafeEqual } from "node:crypto";

/**
 * The signing rule of participant image links, in one place: the app signs with it (lib/server/image-url.ts), the
 * app's own image route verifies with it when no nginx is in front (lib/server/image-serve.ts), and nginx's
 * `secure_link` checks the same thing (deploy/nginx.conf.template):
 *
 *   /api/images/c/<sha256 of the bytes>.<ext>?e=<expiry, Unix seconds>&s=<mac>
 *   mac = base64url(md5("<expiry>|<path>|<participant cookie value>|<secret>")), no padding
 *
 * which is nginx's `secure_link $arg_s,$arg_e; secure_link_md5 "$secure_link_expires|$uri|$cookie_misi_participant|
 * <secret>"`. The separators keep the fields apart: without them a path one character longer and a cookie one
 * character shorter made the same digest, so a valid link also signed "<hash>.svg" + the cookie's first character
 * (nginx, which matches the location by prefix, would have served a "<hash>.svg.br" to a cookie starting ".br"). The participant cookie in the digest binds a link to the session it was issued to (another browser's
 * cookie makes another digest), and the secret keeps anyone else from making one. The file name is the content hash:
 * nothing in a link says which option or item it shows. MD5 is what nginx offers; with a secret of 256 bits in the
 * input, forging a link needs a second preimage, which MD5's known collision attacks do not give.
 */
export const IMAGE_LINK_PREFIX = "/api/images/c/";

/** The participant cookie whose value is part of the digest (lib/server/participant-flow/token.ts names it too). */
export const IMAGE_LINK_COOKIE = "misi_participant";

/** The secret goes into nginx's config verbatim: letters, digits, `-` and `_` only, at least 32 of them. */
export const IMAGE_LINK_SECRET_PATTERN = /^[A-Za-z0-9_-]{32,200}$/;

const EXTENSIONS: Record<string, string> = {
  "image/svg+xml": "svg",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
};
const TYPES = Object.fromEntries(Object.entries(EXTENSIONS).map(([type, ext]) => [ext, type]));

/** A stored image's file name: `<sha256 hex>.<ext>`. */
const FILE_PATTERN = /^([0-9a-f]{64})\.(svg|png|jpg|webp|gif)$/;

export function imageFileName(sha256: string, mimeType: string): string {
  const ext = EXTENSIONS[mimeType];
  if (!ext) throw new Error(`image type ${mimeType} has no stored form`);
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`"${sha256}" is not a sha256`);
  return `${sha256}.${ext}`;
}

/** The content hash and type a stored file name stands for, or null for a name that is not one. */
export function parseImageFileName(name: string): { sha256: string; mimeType: string } | null {
  const m = FILE_PATTERN.exec(name);
  return m ? { sha256: m[1]!, mimeType: TYPES[m[2]!]! } : null;
}

export function imageLinkMac(secret: string, expiry: number | string, path: string, cookie: string): string {
  return createHash("md5").update(`${expiry}|${path}|${cookie}|${secret}`).digest("base64url");
}

export function signImageLink(opts: {
  secret: string;
  sha256: string;
  mimeType: string;
  cookie: string;
  expirySec: number;
}): string {
  const path = IMAGE_LINK_PREFIX + imageFileName(opts.sha256, opts.mimeType);
  return `${path}?e=${opts.expirySec}&s=${imageLinkMac(opts.secret, opts.expirySec, path, opts.cookie)}`;
}

export type ImageLinkCheck =
  | { ok: true; sha256: string; mimeType: string; expirySec: number }
  | { ok: false; reason: "malformed" | "forged" | "expired" };

/**
 * Checks a link as nginx does: a wrong or missing digest is "forged"; a right digest past its expiry is "expired"
 * (nginx: `$secure_link` "" and "0"; valid up to and including the expiry second).
 */
export function verifyImageLink(opts: {
  secret: string;
  file: string;
  expiry: string | null;
  mac: string | null;
  cookie: string | null;
  nowSec: number;
}): ImageLinkCheck {
  const parsed = parseImageFileName(opts.file);
  if (!parsed) return { ok: false, reason: "malformed" };
  if (!opts.expiry || !/^[0-9]{1,12}$/.test(opts.expiry) || !opts.mac || opts.cookie === null)
    return { ok: false, reason: "forged" };
  // The digest covers the expiry as written (nginx's $secure_link_expires), its value decides whether it has passed.
  const expected = Buffer.from(imageLinkMac(opts.secret, opts.expiry, IMAGE_LINK_PREFIX + opts.file, opts.cookie));
  const given = Buffer.from(opts.mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "forged" };
  const expirySec = Number(opts.expiry);
  if (expirySec < opts.nowSec) return { ok: false, reason: "expired" };
  return { ok: true, ...parsed, expirySec };
}
